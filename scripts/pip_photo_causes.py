"""The real photos' dice not read right with no size hint, at one of the benchmark's scales, by cause (issue 25, round 31).

    .venv/bin/python scripts/pip_photo_causes.py [--white] [--scale 0.4] [--dice] [--crops DIR]

Tuning photos only (the held-out ones are never opened), each in the frame ``rig bench vision --game pips --scales``
reads (:func:`rig.bench.pips.scaled_frame`), read by ``read_pip_dice`` as the bench does (dice cut by the frame's
edge aside), each labelled die matched as the bench matches (:func:`rig.bench.pip_scores.match_labelled`) and given
one cause:

- ``right``;
- ``merged``: no box of its own, one holding its centre went to another die (two dice found as one);
- ``not found``: no box holds its centre;
- ``misread, box over 2x``: its box more than twice its labelled side (a pyramid level too coarse);
- ``misread, box under 0.6x``: a part of it, or its pip;
- ``misread``: at about its size (the reader's limit) -- with ``ok`` appended when said ``ok`` (silent).

With ``--dice`` one line per die not read right: its side, what the reader reads in its labelled box (the reader's
limit: read wrong there too), and what ``read_pip_dice`` reads told the dice's size (0.8 of the labels' median side,
as :data:`rig.vision.readers.LEARN_SCALE`; found then: the pyramid's miss). ``--crops DIR``: each photo with a die
not read right, its dice's part of the frame x3 (labels blue, dice read ok green, flagged orange, the pips above).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rig.bench.pip_photos import DEFAULT_COLOUR_DATA, DEFAULT_DATA, load_photos  # noqa: E402
from rig.bench.pip_scores import centre_in, match_labelled  # noqa: E402
from rig.bench.pips import grown_box, scaled_frame  # noqa: E402
from rig.vision.anydie import read_pip_dice  # noqa: E402
from rig.vision.dicenet import default_dicenet  # noqa: E402
from rig.vision.pips import PipParams  # noqa: E402


def cause(die, hit, found) -> str:
    """One labelled die's cause (module doc)."""
    if hit is None:
        return "merged" if any(centre_in(die, f.box) for f in found) else "not found"
    f = found[hit]
    if f.pips == die.pips:
        return "right"
    ratio = f.box[2] / max(die.box[2], die.box[3])
    size = ", box over 2x" if ratio > 2.0 else ", box under 0.6x" if ratio < 0.6 else ""
    return f"misread{size}" + (" ok" if f.count.status == "ok" else "")


def draw(frame, labelled, found, path: Path) -> None:
    out = frame.copy()
    for d in labelled:
        x, y, w, h = (int(round(v)) for v in d.box)
        cv2.rectangle(out, (x, y), (x + w, y + h), (255, 120, 0), 1)
    for f in found:
        x, y, w, h = f.box
        colour = (0, 200, 0) if f.count.status == "ok" else (0, 160, 255)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, 1)
        cv2.putText(out, str(f.pips), (x, max(8, y - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour, 1)
    xs = [v for d in labelled for v in (d.box[0], d.box[0] + d.box[2])]
    ys = [v for d in labelled for v in (d.box[1], d.box[1] + d.box[3])]
    x0, x1 = max(0, int(min(xs)) - 20), min(frame.shape[1], int(max(xs)) + 20)
    y0, y1 = max(0, int(min(ys)) - 20), min(frame.shape[0], int(max(ys)) + 20)
    cv2.imwrite(str(path), cv2.resize(out[y0:y1, x0:x1], None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--white", action="store_true", help="the white dice (default: the coloured dice)")
    parser.add_argument("--scale", type=float, default=0.4)
    parser.add_argument("--dice", action="store_true", help="one line per die not read right")
    parser.add_argument("--crops", type=Path, default=None)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    params = PipParams.load(None)
    nets = default_dicenet()
    folder = DEFAULT_DATA if args.white else DEFAULT_COLOUR_DATA
    counts: Counter = Counter()
    for photo in load_photos(folder, any_name=not args.white, tuning_only=True):
        labelled, frame, cut = scaled_frame(photo, cv2.imread(str(photo.path)), args.scale)
        edge = [grown_box(c.box) for c in cut]
        found = [d for d in read_pip_dice(frame, params.anydie).dice if not any(
            x <= d.centre[0] <= x + w and y <= d.centre[1] <= y + h for x, y, w, h in edge)]
        hits = match_labelled(labelled.dice, found)
        causes = [cause(d, h, found) for d, h in zip(labelled.dice, hits)]
        counts.update(causes)
        counts["extra (no label)"] += len(found) - len({h for h in hits if h is not None})
        wrong = [(d, c) for d, c in zip(labelled.dice, causes) if c != "right"]
        if wrong and args.dice:
            sides = sorted(max(d.box[2:]) for d in labelled.dice)
            told = read_pip_dice(frame, replace(params.anydie, die_px=0.8 * sides[len(sides) // 2])).dice
            told_hits = dict(zip(labelled.dice, match_labelled(labelled.dice, told)))
            for d, c in wrong:
                side = max(d.box[2:])
                probs = nets.read_at(frame, [(d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2, side)])[0]
                t = told_hits[d]
                told_read = "not found" if t is None else f"{told[t].pips} {told[t].count.status}"
                print(f"{photo.path.stem} {d.pips} pips, {side:.0f} px: {c}; in its labelled box read "
                      f"{1 + int(np.argmax(probs[1:]))} ({float(probs[1:].max()):.2f}); told the size: {told_read}")
        if wrong and args.crops:
            args.crops.mkdir(parents=True, exist_ok=True)
            draw(frame, labelled.dice, found, args.crops / f"{photo.path.stem}-x{args.scale:g}.png")
    total = sum(v for k, v in counts.items() if not k.startswith("extra"))
    print(f"{'white' if args.white else 'coloured'} dice, tuning photos, x{args.scale:g}, no size hint: {total} labelled")
    for name, n in counts.most_common():
        print(f"  {name:<24} {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The dice the reader calls cocked or partly hidden, and every truly cocked die, with their lit top joined to their own
shade (issue 24, round 20): what the second look's joined-top test (:func:`rig.vision.dice_second_look.whole_in_shade`)
and its net say of them, by their truth.

``dump`` reads twin tables' thrown (or ``--propped``) turns in all four lights exactly as ``scripts/twin_turns.py``
does, with the reader's own flags (the second look off), and writes one JSON line a die (``<seed>[p].jsonl``): its
truth (flat, cocked, none), the test that flagged it (small top, the top's aspect test, the flank test), whether its
top is square and whole (:func:`~rig.vision.dice_second_look.square`), its joined top (aspect with perspective's
share added back, area in tops, fill of its least rectangle) and whether :func:`whole_in_shade` calls it whole, the
net's probabilities, whether the reading has a reason no die owns, and how likely not flat the net finds the most
doubtful of the other dice (the second look's guard). ``report`` counts them by truth, test, top and net.

    .venv/bin/python scripts/joined_tops.py dump --sets 5000:24,5100:12 --propped --out ~/.cache/rig/dice/r20/joined
    .venv/bin/python scripts/joined_tops.py report --dir ~/.cache/rig/dice/r20/joined --sets 5000p:24,5100p:12
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from twin_turns import each_turn, seeds  # noqa: E402

FLAGS = ("cocked die", "die partly hidden or on edge")


def _joined_numbers(d, work, dice) -> list[float] | None:
    """The joined top's aspect (perspective's share added back), area in tops and fill, as :func:`whole_in_shade`
    measures them."""
    import cv2
    import numpy as np

    from rig.vision.dice_cocked import _around, _joined, _radial

    masks = _joined(d, work, dice, _around(d, work, dice))
    if masks is None:
        return None
    body = masks[1]
    (_, _), (w, h), _ = cv2.minAreaRect(cv2.findNonZero(body.view(np.uint8)))
    n = float(np.count_nonzero(body))
    aspect = min(w, h) / max(w, h, 1e-6) + work.profile.walls[3] * math.hypot(*_radial(d, work))
    return [round(aspect, 4), round(n / work.top_area, 4), round(n / ((w + 1.0) * (h + 1.0)), 4)]


def table_rows(seed: int, propped: bool) -> list[dict]:
    """One row a die of twin table ``seed`` that the reader flags cocked or partly hidden, or that truly leans."""
    import numpy as np

    import rig.vision.dice_second_look as sl
    from rig.bench.vision import pairs
    from rig.vision.dice import _radius
    from rig.vision.dice_cocked import _radial
    from rig.vision.errors import VisionError

    sl.ENABLED = False  # the reader's own flags
    rows = []
    try:
        for profile, die_px, drift, _, k, work, truth, reading in each_turn(seed, 4, 8, propped):
            dice = list(reading.dice)
            if not dice:
                continue
            t, f = profile.thresholds, work.factor
            own, rest = sl.named(reading.reasons, [(d.x, d.y) for d in dice], work.side * f)
            state, true_face = ["none"] * len(dice), [None] * len(dice)
            for d_, i in zip(truth, pairs(truth, dice, 0.6 * die_px)):
                if i is not None:
                    state[i], true_face[i] = ("cocked" if d_.cocked else "flat"), d_.face
            crops = [
                sl.crop(work.small, (d.x + 0.5) / f - 0.5, (d.y + 0.5) / f - 0.5, work.side, _radial(d, work))
                for d in dice
            ]
            p = sl.look(np.stack(crops))
            for i, d in enumerate(dice):
                kinds = [str(reading.reasons[j]).split(" at (")[0] for j in own[i]]
                if not any(kind.startswith(FLAGS) for kind in kinds) and state[i] != "cocked":
                    continue
                cx, cy = (d.x + 0.5) / f - 0.5, (d.y + 0.5) / f - 0.5
                lean = profile.walls[3] * math.hypot(*_radial(d, work))
                others = [float(p[q, 0]) for q in range(len(dice)) if q != i and not own[q]]
                rows.append(
                    {
                        "seed": seed,
                        "turn": k,
                        "drift": drift,
                        "status": reading.status,
                        "state": state[i],
                        "face": d.face,
                        "true_face": true_face[i],
                        "kinds": kinds,
                        "rest": bool(rest),
                        "small": bool(d.area < t.die_area_min),
                        "aspect_test": bool(d.aspect + profile.walls[3] * _radius(cx, cy, work) < t.cocked_aspect),
                        "square": bool(sl.square(d.aspect + lean, d.area)),
                        "joined": _joined_numbers(d, work, dice),
                        "whole": bool(sl.whole_in_shade(d, work, dice)),
                        "p": [round(float(v), 4) for v in p[i]],
                        "others_not_flat": round(1.0 - min(others, default=1.0), 4),
                    }
                )
    except VisionError as exc:
        return [{"seed": seed, "refused": str(exc)}]
    return rows


def category(row: dict) -> tuple[str, str, str, str]:
    """A die's truth, the test that flagged it, its top (square, whole only joined to its shade, or neither) and what
    the net says (flat at ``FLAT_SURE`` with the reader's face at ``FACE_SURE``, flat at 0.5 with it, or not)."""
    import rig.vision.dice_second_look as sl

    if not any(kind.startswith(FLAGS) for kind in row["kinds"]):
        return row["state"], "not flagged cocked or partly hidden", "-", "-"
    test = "small top" if row["small"] else "aspect test" if row["aspect_test"] else "flank test"
    top = "square" if row["square"] else "joined whole" if row["whole"] else "not whole"
    faces = row["p"][len(sl.STATES) :]
    best = max(range(len(faces)), key=faces.__getitem__)
    same = sl.FACES[best] == row["face"] and faces[best] >= sl.FACE_SURE
    flat = row["p"][0]
    net = (
        "net flat, same face"
        if same and flat >= sl.FLAT_SURE
        else "net flat 0.5+, same face"
        if same and flat >= 0.5
        else "net not flat"
    )
    return row["state"], test, top, net


def report(folder: Path, spec: str) -> None:
    rows = []
    for part in filter(None, spec.split(",")):
        first, n = part.split(":")
        suffix = "p" if first.endswith("p") else ""
        for seed in range(int(first.rstrip("p")), int(first.rstrip("p")) + int(n)):
            path = folder / f"{seed}{suffix}.jsonl"
            if path.exists():
                rows += [r for r in map(json.loads, path.read_text().splitlines()) if "refused" not in r]
    counts = Counter(category(r) for r in rows)
    print(f"{len(rows)} die-lights")
    print("| truth | test | top | net | die-lights |")
    print("| --- | --- | --- | --- | --- |")
    for key, n in sorted(counts.items()):
        print("| " + " | ".join(key) + f" | {n} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--sets", required=True, help="FIRST:N,...")
    d.add_argument("--propped", action="store_true")
    d.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("report")
    r.add_argument("--dir", type=Path, required=True)
    r.add_argument("--sets", required=True, help="FIRST:N,... (FIRSTp:N for propped tables)")
    args = ap.parse_args(argv)
    if args.cmd == "report":
        report(args.dir, args.sets)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for first, n in seeds(args.sets):
        for seed in range(first, first + n):
            path = args.out / f"{seed}{'p' if args.propped else ''}.jsonl"
            if not path.exists():
                rows = table_rows(seed, args.propped)
                path.write_text("".join(json.dumps(row) + "\n" for row in rows))
                print(f"table {seed}: {len(rows)} dice", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

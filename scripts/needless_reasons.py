"""Needless flags on twin turns counted by reason and by what keeps them (issue 24, round 13).

Reads the turn lines ``scripts/frog_crops.py`` wrote (the reader's own flags before the second look, each die with
its crop and truth), runs the shipped second look on them as ``scripts/train_second_look.py --evaluate`` does, and
for the turns read fully right with no leaning die that stay flagged ("needless", as the bench counts them) prints:

- per reason kind (the reason's text without its place and colours): the turns it is in and the turns where it is
  the only reason, calibrated light / all drifts, and the dice it names by their truth;
- what keeps each such turn flagged: a reason that is not a die's own (the second look never looks), or else why
  the second look kept the die it looked at.

    .venv/bin/python scripts/needless_reasons.py --crops ~/.cache/rig/dice/r13/crops --sets 8700:12,8800:12
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_second_look import load, simulate  # noqa: E402

from rig.vision.dice_flag import Flag  # noqa: E402

_COLOURS = ("yellow+pink", "blue+yellow", "pink+blue", "blank", "blue", "pink", "yellow", "violet")


def kind(reason: str) -> tuple[str, tuple[float, float] | None]:
    """A reason's kind (its text without its place, numbers and colours) and its place, if it names one."""
    flag = Flag.parse(reason)
    k = re.sub(r"\d+(\.\d+)?", "N", flag.kind if flag is not None else reason)
    for c in _COLOURS:
        k = k.replace(c + " ", "").replace(" " + c, "")
    return k.replace("/", ""), flag.at if flag is not None else None


def blocker(line: dict, probs: np.ndarray) -> str:
    """Why the second look left a needless turn flagged."""
    import rig.vision.dice_second_look as sl

    seen = line["seen"]
    own, rest = sl.named(line["reasons"], [(o["x"], o["y"]) for o in seen], line["side"])
    if rest:
        kinds = sorted({kind(r)[0] for r in line["reasons"] if not sl.freeable(kind(r)[0]) or not kind(r)[1]})
        return "not a die's own: " + " + ".join(kinds)
    why = set()
    for o, js in zip(seen, own):
        if not js:
            continue
        p = probs[o["i"]]
        face = p[len(sl.STATES):]
        if o["m"][0] < 0.84 and any(kind(line["reasons"][j])[0] == "cocked die" for j in js):
            why.add("top fails the aspect test")
        elif not sl.square(*o["m"][:2]):
            why.add("top not square or whole for the net")
        elif sl.FACES[int(np.argmax(face))] != o["face"] or face.max() < sl.FACE_SURE:
            why.add("net unsure of the face")
        elif p[0] < sl.FLAT_SURE:
            why.add("net reads it flat below FLAT_SURE")
    return "die's own, kept: " + (" + ".join(sorted(why)) if why else "the guard")


def tally(lines: list[dict], probs: np.ndarray) -> tuple[Counter, Counter, Counter, dict, Counter]:
    import rig.vision.dice_second_look as sl

    after, _ = simulate(lines, probs, (sl.FLAT_SURE, sl.FACE_SURE, sl.OTHER_SURE))
    turns, kinds, only, blockers = Counter(), Counter(), Counter(), Counter()
    dice: dict = defaultdict(Counter)
    for s in after:
        if "refused" in s:
            continue
        light = "same" if s["drift"] == "same" else "drift"
        turns[light] += 1
        if s["status"] == "ok" or s["wrong"] or s["has_cocked"]:
            continue
        turns[light + " needless"] += 1
        ks = set()
        for r in s["reasons"]:
            k, at = kind(r)
            ks.add(k)
            if at and s["seen"]:
                d = min(s["seen"], key=lambda o: (o["x"] - at[0]) ** 2 + (o["y"] - at[1]) ** 2)
                if math.hypot(d["x"] - at[0], d["y"] - at[1]) >= 0.5 * s["side"]:
                    dice[k]["at no die read"] += 1
                    continue
                near = min([math.hypot(o["x"] - d["x"], o["y"] - d["y"]) for o in s["seen"] if o is not d] or [math.inf])
                dice[k][d["state"] + (" beside another die" if near < 1.6 * s["side"] else "")] += 1
        for k in ks:
            kinds[light, k] += 1
        if len(ks) == 1:
            only[light, next(iter(ks))] += 1
        blockers[light, blocker(s, probs)] += 1
    return turns, kinds, only, dice, blockers


def main(argv=None) -> int:
    import cv2

    from rig.vision.dice_second_look import WEIGHTS, look

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crops", type=Path, required=True, help="frog_crops.py's --out")
    ap.add_argument("--sets", required=True, help="FIRST:N,... (frog_crops.py's table stems)")
    ap.add_argument("--net", type=Path, default=WEIGHTS)
    args = ap.parse_args(argv)
    lines, x, _ = load(args.crops, args.sets)
    model = cv2.dnn.readNetFromONNX(str(args.net))
    probs = np.concatenate([look(x[b : b + 256].astype(np.float32), None, model) for b in range(0, len(x), 256)])
    turns, kinds, only, dice, blockers = tally(lines, probs)
    print(f"needless turns: same {turns['same needless']} of {turns['same']}, drift {turns['drift needless']} of "
          f"{turns['drift']}")
    print("| reason kind | turns same / drift (only reason) | dice it names |")
    print("| --- | --- | --- |")
    for k in sorted({k for _, k in kinds}, key=lambda k: -(kinds["same", k] + kinds["drift", k])):
        named = ", ".join(f"{n} {what}" for what, n in dice[k].most_common()) or "-"
        print(f"| {k} | {kinds['same', k]} / {kinds['drift', k]} ({only['same', k]} / {only['drift', k]}) | {named} |")
    print("| blocker | same / drift |")
    print("| --- | --- |")
    for b in sorted({b for _, b in blockers}, key=lambda b: -(blockers["same", b] + blockers["drift", b])):
        print(f"| {b} | {blockers['same', b]} / {blockers['drift', b]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The pip twin's dice not read right with no size hint, counted by cause (issue 25, round 29).

Reads the pip twin's tables as ``rig bench vision --game pips --twin`` does ("no size known": the image pyramid, the
table's dice count given), then again with the dice's size given (``[anydie] die_px``: the median of the throw's
labelled sides, :meth:`rig.twin.pip_table.PipTable.frame_boxes`, times each of :data:`HINTS`), and gives every die
lying flat one cause (:func:`cause`):

- ``right`` / ``misread``: found with no hint, read right / wrong;
- ``outside, size given finds`` / ``outside, faint``: missed, its labelled side beyond the pyramid's reach (a level
  covers 1/sqrt(1.5) to sqrt(1.5) times its die size), found / not found with the size given;
- ``pyramid``: missed, within reach, found with the size given (the level chosen, or its strength);
- ``faint``: missed, not found even with the size given (the finder's peak under the reader's floor).

Prints per table the counts and the finder's best score on each missed die at the sizes given, then the totals.
``--finest K``: the pyramid's levels from ``1.5 ** K`` (:data:`rig.vision.dicenet.LEVELS`; -2 as shipped).

    PYTHONPATH=. .venv/bin/python scripts/pip_causes.py --first-table 9100 --tables 4
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from dataclasses import replace

#: the sizes given: the throw's median labelled side times these (the finder's idea of a side varies by table)
HINTS = (0.7, 0.85, 1.0)
CAUSES = ("right", "misread", "outside, size given finds", "outside, faint", "pyramid", "faint")


def reach(levels_px: list[float]) -> tuple[float, float]:
    """The smallest and largest labelled die side (frame px) the pyramid's levels cover (half a step either side)."""
    half = math.sqrt(1.5)
    return min(levels_px) / half, max(levels_px) * half


def cause(found: bool, right: bool, side: float, span: tuple[float, float], given: bool) -> str:
    """One die's cause (:data:`CAUSES`): ``found``/``right`` with no hint, its labelled ``side``, the pyramid's
    ``span`` (:func:`reach`), and whether a reading with the size given found it."""
    if found:
        return "right" if right else "misread"
    if not span[0] <= side <= span[1]:
        return "outside, size given finds" if given else "outside, faint"
    return "pyramid" if given else "faint"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first-table", type=int, default=9100)
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--spp", type=int, default=16)
    ap.add_argument("--finest", type=int, default=None, help="the pyramid's finest level, in steps of 1.5 (shipped: -2)")
    args = ap.parse_args(argv)

    import cv2
    import numpy as np

    import rig.vision.dicenet as dicenet
    from rig.bench.pip_twin import match_dice, twin_frame
    from rig.errors import RigError
    from rig.twin.pip_table import PipTable
    from rig.vision.anydie import read_pip_dice
    from rig.vision.pips import PipParams

    cv2.setNumThreads(1)
    if args.finest is not None:
        dicenet.LEVELS = tuple(dicenet.FIND_DIE / dicenet.FIND_LONG * 1.5 ** k for k in range(args.finest, 4))
    nets = dicenet.default_dicenet()
    p = PipParams.load(None).anydie
    total: Counter = Counter()
    for seed in range(args.first_table, args.first_table + args.tables):
        table = PipTable.random_pips(seed)
        try:
            shots = table.pip_shots(2)
        except RigError as exc:
            print(f"{seed}: skipped ({exc})")
            continue
        counts: Counter = Counter()
        faint_scores: list[float] = []
        for k, shot in enumerate(shots):
            frame = twin_frame(table, shot, k, args.spp)
            truth = [d for d in table.pip_truth(shot) if not d.cocked]
            labels, _ = table.frame_boxes(shot)
            sides = [float(min(labels, key=lambda b, d=d: abs(b[0] - d.x) + abs(b[1] - d.y))[2]) for d in truth]
            long_side = max(frame.shape[:2])
            span = reach([r * long_side for r in dicenet.LEVELS if r * long_side >= dicenet.MIN_DIE
                          and dicenet.FIND_DIE / (r * long_side) <= dicenet.FIND_MAX / long_side])
            expected = (len(shot.dice),)
            plain = read_pip_dice(frame, p, expected=expected)
            hits = match_dice(truth, plain.dice)
            given: set[int] = set()
            peaks = []
            for m in HINTS:
                die_px = m * float(np.median(sides))
                given |= set(match_dice(truth, read_pip_dice(frame, replace(p, die_px=die_px), expected=expected).dice))
                peaks += nets.find(frame, floor=0.02, die_px=die_px)
            for j, d in enumerate(truth):
                found = j in hits
                kind = cause(found, found and plain.dice[hits[j]].pips == d.value, sides[j], span, j in given)
                counts[kind] += 1
                if not found:
                    faint_scores.append(max((q for x, y, _, q in peaks if abs(x - d.x) < 0.5 * d.side_px
                                             and abs(y - d.y) < 0.5 * d.side_px), default=0.0))
        total += counts
        w, h = table.size
        print(f"{seed} {w}x{h} labelled side {np.median(sides):.0f} px, reach {span[0]:.0f}-{span[1]:.0f} px: "
              + ", ".join(f"{c} {counts[c]}" for c in CAUSES if counts[c])
              + (f"; missed dice's best finder score at the sizes given {' '.join(f'{q:.2f}' for q in faint_scores)}"
                 if faint_scores else ""), flush=True)
    print("total: " + ", ".join(f"{c} {total[c]}" for c in CAUSES) + f" of {sum(total.values())} dice")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

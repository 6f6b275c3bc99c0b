"""Dice the top's aspect test alone calls cocked on twin turns, by truth: their lit top joined to their own shade
(``rig.vision.dice_shaded_square``) and the second look's face (issue 24, round 31).

Reads the thrown turns of twin tables as ``scripts/twin_turns.py`` does (cached renders, all four lights) and, for each
die still flagged only by the plain "cocked die" of the top's aspect test, measures its joined body (short / long side
with what perspective shows added back, area in tops) and whether the net reads the reader's face surely. Prints how
many flat and truly cocked dice a body bound would free. Run it with the reader before the rule (``main``): with the
rule the dice it frees are no longer flagged.

    .venv/bin/python scripts/shaded_square_bodies.py --sets 11400:12,11300:12 --turns 24
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from twin_turns import each_turn, seeds, truth_poses  # noqa: E402


def measure(spec: str, turns: int, spp: int) -> list[tuple[bool, float, float, bool]]:
    """(truly cocked, body aspect, body tops, net's face sure) of every die of ``spec``'s tables flagged only by the
    aspect test's plain "cocked die"."""
    import cv2
    import numpy as np

    import rig.vision.dice_second_look as second
    from rig.vision.dice_cocked import _around, _joined, _radial
    from rig.vision.errors import VisionError

    out = []
    for seed in (first + k for first, n in seeds(spec) for k in range(n)):
        try:
            for profile, die_px, _, shot, _, work, truth, reading in each_turn(seed, turns, spp):
                paired = truth_poses(truth, reading.dice, shot, die_px)
                dice = reading.dice
                own, _ = second.named(reading.reasons, [(d.x, d.y) for d in dice], work.side * work.factor)
                for i, obs in enumerate(dice):
                    lean = profile.walls[3] * math.hypot(*_radial(obs, work))
                    if (i not in paired or not obs.cocked or obs.area < profile.thresholds.die_area_min
                            or obs.aspect + lean >= profile.thresholds.cocked_aspect
                            or not second._only_plain_cocked(reading.reasons, own[i])):
                        continue
                    masks = _joined(obs, work, dice, _around(obs, work, dice))
                    if masks is None:
                        continue
                    (_, _), (w, h), _ = cv2.minAreaRect(cv2.findNonZero(masks[1].view(np.uint8)))
                    p = second.look(second._die_crop(work, obs)[None])[0]
                    out.append((bool(paired[i][0].cocked), min(w, h) / max(w, h, 1e-6) + lean,
                                np.count_nonzero(masks[1]) / work.top_area, bool(second._sure_face(p, obs.face))))
        except VisionError as exc:
            print(f"table {seed}: {exc}", file=sys.stderr)
    return out


def report(rows, square: float, tops: tuple[float, ...]) -> None:
    cocked = [r for r in rows if r[0]]
    print(f"die-lights: {len(cocked)} truly cocked, {len(rows) - len(cocked)} flat")
    sq = sorted(t for c, a, t, _ in rows if c and a >= square)
    print(f"truly cocked with a square body (>= {square}): {len(sq)}, tops from {sq[0] if sq else float('nan'):.3f}")
    print(f"truly cocked bodies of a top or less: aspect up to "
          f"{max((a for c, a, t, _ in rows if c and t <= 1.0), default=float('nan')):.3f}")
    for bound in tops:
        free = [r for r in rows if r[1] >= square and r[2] <= bound and r[3]]
        print(f"square and at most {bound} tops, face sure: {sum(not r[0] for r in free)} flat, "
              f"{sum(r[0] for r in free)} truly cocked")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", required=True, help="FIRST:N,...")
    ap.add_argument("--turns", type=int, default=24)
    ap.add_argument("--spp", type=int, default=8)
    ap.add_argument("--square", type=float, default=0.85)
    ap.add_argument("--tops", default="1.0,1.05,1.1,1.15", help="body bounds (tops) to count dice under")
    args = ap.parse_args(argv)
    report(measure(args.sets, args.turns, args.spp), args.square, tuple(float(v) for v in args.tops.split(",")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Dice the top's aspect test calls cocked on twin turns, by truth: the round-25 shade-cut strip and the second look's
net (issue 24, round 30).

Reads the thrown turns of twin tables as ``scripts/twin_turns.py`` does (cached renders, all four lights) and, for each
die the reader calls cocked whose reader's aspect is under ``--aspect`` and whose lit top reads at most one top, measures
:func:`rig.vision.dice_shade_cut.strip_ratio` (the lit top's long side in die sides, and the darker strip completing
it to a square over the top's lightness) and the net's "flat" probability. Prints, for the dice whose lit top is a
whole side long (0.85-1.15 sides), the truly cocked dice's lowest strips and highest "flat", and how many flat dice lie
beyond them: whether a strip or net bound frees flat dice without freeing a truly cocked one.

    .venv/bin/python scripts/aspect_shade_strips.py --sets 11200:12,11300:12 --turns 24
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from twin_turns import each_turn, seeds, truth_poses  # noqa: E402

WHOLE_SIDE = (0.85, 1.15)


def measure(spec: str, turns: int, spp: int, aspect: float) -> list[tuple[bool, float, float]]:
    """(truly cocked, strip, net's "flat") of every die of ``spec``'s tables the reader calls cocked, its aspect under
    ``aspect``, its lit top at most one top and a whole side long."""
    import rig.vision.dice_second_look as second
    from rig.vision.dice_shade_cut import strip_ratio
    from rig.vision.errors import VisionError

    out = []
    for seed in (first + k for first, n in seeds(spec) for k in range(n)):
        try:
            for _, die_px, _, shot, _, work, truth, reading in each_turn(seed, turns, spp):
                paired = truth_poses(truth, reading.dice, shot, die_px)
                for i, obs in enumerate(reading.dice):
                    if i not in paired or not obs.cocked or obs.aspect >= aspect or obs.area > 1.0:
                        continue
                    strip = strip_ratio(obs, work)
                    if strip is None or not WHOLE_SIDE[0] <= strip[0] <= WHOLE_SIDE[1]:
                        continue
                    flat = float(second.look(second._die_crop(work, obs)[None])[0][0])
                    out.append((bool(paired[i][0].cocked), strip[1], flat))
        except VisionError as exc:
            print(f"table {seed}: {exc}", file=sys.stderr)
    return out


def report(rows: list[tuple[bool, float, float]], bound: float) -> None:
    cocked = sorted(r for r in rows if r[0])
    flat = [r for r in rows if not r[0]]
    strips = sorted(s for _, s, _ in cocked)
    print(f"dice: {len(cocked)} truly cocked, {len(flat)} flat")
    if not cocked:
        return
    print(f"truly cocked strips, lowest: {', '.join(f'{s:.3f}' for s in strips[:6])}")
    print(f"flat strips from {min((s for _, s, _ in flat), default=float('nan')):.3f}; below every truly cocked: "
          f"{sum(s < strips[0] for _, s, _ in flat)}; at or below {bound}: {sum(s <= bound for _, s, _ in flat)} flat, "
          f"{sum(s <= bound for s in strips)} truly cocked")
    top = max(p for _, _, p in cocked)
    print(f"net's 'flat' on truly cocked dice up to {top:.3f}; flat dice above it: {sum(p > top for _, _, p in flat)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", required=True, help="FIRST:N,...")
    ap.add_argument("--turns", type=int, default=24)
    ap.add_argument("--spp", type=int, default=8)
    ap.add_argument("--aspect", type=float, default=0.84, help="the reader's aspect under this (default 0.84)")
    ap.add_argument("--bound", type=float, default=0.24, help="a strip bound to count dice under (default 0.24)")
    args = ap.parse_args(argv)
    report(measure(args.sets, args.turns, args.spp, args.aspect), args.bound)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

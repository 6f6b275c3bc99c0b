"""The drawn things a pip finder reports ``ok`` at the benchmark's seeds, with the second opinion's rating of each:
the ``[anydie] check_ok`` / ``one_check_ok`` that flag them all, and what those cost the real dice on the same frames.

    RIG_PIP_DATA=... RIG_COLOUR_DATA=... OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python scripts/drawn_ratings.py \
        --nets DIR --check DIR/diecheck.npz --stop-band 1.6 --set find_ok=0.55 --set one_ok=0.7 \
        --vary check_ok=0.4,0.45,0.5,0.52 --vary one_check_ok=0.42,0.5,0.52

Only the *tuning* photographs of the two shared sets (held-out ones are skipped by name, never opened). Each is drawn
on as ``rig bench vision --game pips --distractors --split tuning`` draws it (rig.bench.distractors.add_distractors:
the same generator per seed, the same order of photos, each thing ``--size`` times the photo's median die) and read
with the nets in ``--nets`` and the check ``--check``, every other ``[anydie]`` rule as shipped (or ``--set``), the
check's thresholds near 0 so that every die the other rules call ``ok`` is kept with its rating
(rig.vision.dicenet.second_opinion). Printed: each drawn thing ``ok`` so (seed, photo, kind, reading, rating,
found by the second pass alone), then per pair of thresholds (``--vary``) the drawn things left ``ok`` (the
benchmark's "false dice reported ok") and the real dice on those frames read right and ``ok`` that the thresholds
flag (their cost; the rest of the benchmark's rules are the same, so a threshold's figures are those of the bench
with it, less the dice counted apart as ones the labels miss).

Issue 25, round 18 (docs/games.md, "K's second opinion chosen at the drawn things' seeds, and K3"):
K's finder (``~/.cache/rig/pips/runK``) and its check refitted on today's code (round 17's ``kre-diecheck.npz``),
the line above; about 7 minutes a photo set at load average 16-18 on two shared cores.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rig.bench.distractors import add_distractors  # noqa: E402
from rig.bench.pips import DEFAULT_COLOUR_DATA, DEFAULT_DATA, load_photos  # noqa: E402
from rig.bench.pip_scores import centre_in, match_labelled  # noqa: E402
from rig.vision import dicenet, diecheck  # noqa: E402
from rig.vision.anydie import read_pip_dice  # noqa: E402
from rig.vision.anydie_params import AnyDieParams  # noqa: E402


def rated(frame: np.ndarray, p: AnyDieParams) -> list[tuple[object, float, int, bool]]:
    """The dice read in ``frame`` (``p``'s check thresholds near 0), each with the check's rating, the candidate's
    reading and whether the second pass alone found it."""
    seen: dict[tuple, tuple[float, int, bool]] = {}
    shipped = dicenet.second_opinion

    def record(kept, q):
        x = diecheck.candidate_features([c for c, _ in kept])
        if x is not None:
            for (c, d), r in zip(kept, diecheck.default_check().likeness(x)):
                seen[tuple(d.box)] = (float(r), c.pips, bool(c.alone))
        return shipped(kept, q)

    dicenet.second_opinion = record
    try:
        dice = read_pip_dice(frame, p).dice
    finally:
        dicenet.second_opinion = shipped
    return [(d, *seen.get(tuple(d.box), (1.0, d.pips, False))) for d in dice]


def needed(p: AnyDieParams, pips: int, alone: bool) -> float:
    """As rig.vision.dicenet.check_needed."""
    return max(p.check_ok, p.one_check_ok if pips == 1 else 0.0, p.alone_check_ok if alone else 0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nets", type=Path, default=dicenet.FIND_WEIGHTS.parent)
    parser.add_argument("--check", type=Path, default=diecheck.WEIGHTS, help="the second opinion's weights")
    parser.add_argument("--stop-band", type=float, default=None, help="rig.vision.dicenet.STOP_BAND instead")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="an [anydie] threshold")
    parser.add_argument("--vary", action="append", default=[], metavar="NAME=V1,V2", help="check_ok, one_check_ok")
    parser.add_argument("--sets", default="white,coloured")
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0..N-1, as the benchmark's --distractor-seeds")
    parser.add_argument("--size", type=float, default=1.2)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.stop_band is not None:
        dicenet.STOP_BAND = args.stop_band
    dicenet._CACHE[:] = [dicenet.DiceNet(args.nets / dicenet.FIND_WEIGHTS.name, args.nets / dicenet.READ_WEIGHTS.name)]
    diecheck._CACHE[:] = [diecheck.DieCheck.load(args.check)]
    base = replace(AnyDieParams(), **{k: float(v) for k, v in (s.split("=") for s in args.set)})
    low = replace(base, check_ok=1e-6, one_check_ok=1e-6)
    axes = {"check_ok": (base.check_ok,), "one_check_ok": (base.one_check_ok,)}
    axes.update({k: tuple(float(v) for v in vs.split(",")) for k, vs in (a.split("=") for a in args.vary)})
    folders = {"white": Path(os.environ.get("RIG_PIP_DATA") or DEFAULT_DATA),
               "coloured": Path(os.environ.get("RIG_COLOUR_DATA") or DEFAULT_COLOUR_DATA)}
    for name in args.sets.split(","):
        photos = [ph for ph in load_photos(folders[name], any_name=name == "coloured", tuning_only=True) if not ph.held_out]
        images = {ph.path: cv2.imread(str(ph.path)) for ph in photos}
        drawn_ok, real_ok = [], []  # (rating, pips, alone) of drawn things and of right real dice left ok at ~0
        placed = 0
        for seed in range(args.seeds):
            rng = np.random.default_rng(seed)
            for photo in photos:
                frame = images[photo.path].copy()
                sides = sorted(max(d.box[2], d.box[3]) for d in photo.dice) or [max(frame.shape[:2]) / 16]
                drawn = add_distractors(frame, [d.box for d in photo.dice], args.size * sides[len(sides) // 2], rng)
                found = rated(frame, low)
                placed += len(drawn)
                for kind, box in drawn:
                    for d, r, pips, alone in found:
                        if d.count.status == "ok" and centre_in(d, box):
                            drawn_ok.append((r, pips, alone))
                            print(f"{name} seed {seed} {photo.path.name}: {kind} read {d.pips}, check {r:.3f}"
                                  f"{', second pass alone' if alone else ''}", flush=True)
                for die, hit in zip(photo.dice, match_labelled(photo.dice, [f for f, *_ in found])):
                    if hit is not None:
                        f, r, pips, alone = found[hit]
                        if f.count.status == "ok" and f.pips == die.pips:
                            real_ok.append((r, pips, alone))
            print(f"{name} seed {seed} read", flush=True)
        print(f"\n{name}, tuning, seeds 0-{args.seeds - 1}, x{args.size:g}: {placed} drawn, {len(drawn_ok)} ok with "
              f"the check near 0; {len(real_ok)} real dice right and ok so")
        for values in itertools.product(*axes.values()):
            q = replace(base, **dict(zip(axes, values)))
            left = [x for x in drawn_ok if x[0] >= needed(q, x[1], x[2])]
            cost = Counter(x[1] for x in real_ok if x[0] < needed(q, x[1], x[2]))
            print(" ".join(f"{k} {v:.3g}" for k, v in zip(axes, values))
                  + f": drawn things ok {len(left)}; right real dice flagged by the check {sum(cost.values())}"
                  f" of {len(real_ok)} ({', '.join(f'{k}: {v}' for k, v in sorted(cost.items()))})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

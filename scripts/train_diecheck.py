"""Fit the second opinion on the pip reader's dice (rig.vision.diecheck): calibration/diecheck.npz.

    .venv/bin/python scripts/train_diecheck.py            # numpy and OpenCV only; a few minutes
    .venv/bin/python scripts/train_diecheck.py --nets DIR --out DIR/diecheck.npz   # for other nets

Issue 25, the finder trained with twin frames (``~/.cache/rig/k25/runC``, ``runD``): ``--nets DIR --out
DIR/diecheck.npz`` 14 min (C) and 11 min (D) wall, 2-3 min CPU, one thread under ``nice`` (load average 15-25), with
the ``[anydie]`` thresholds of that round (find_ok 0.55, one_ok 0.7): C chose check_ok 0.321, D 0.242.
G (the finder trained on from C with flat drawn dice, ``~/.cache/rig/pips/runG``): 160 s with the shipped
thresholds, check_ok 0.386. J (G's finder trained on with shrunk photo tiles, ``~/.cache/rig/pips/runJ``): 283 s,
check_ok 0.318 (0.4, with ``one_check_ok`` 0.5, chosen on the drawn things of the tuning photos afterwards).
K on today's code (docs/games.md, "The twin-trained finder K on today's pyramid, tests and bar"; not shipped):
``--nets DIR --out OUT --fresh`` with K's finder, its round's thresholds (find_ok 0.55, one_ok 0.7, one_check_ok 0.42)
and ``STOP_BAND`` 1.6 in a copy of the tree, 186 s at load average 8-10: check_ok 0.261. The photo folders are the
tree's ``../shared/data`` (DEFAULT_DATA): in a copy elsewhere, link its ``../shared`` to the real one.

Only the *tuning* photographs of the two shared sets are read (the held-out ones are skipped by name,
never opened). Each is seen at the four scales of ``rig bench vision --game pips --scales`` (x0.4, x0.6,
x1, x1.5, rig.bench.pips.scaled_frame) with a coin, ring, screw, knot, fingertip and card corner drawn
in (rig.bench.distractors, seed 1 and sizes 0.7-1.7 dice: not the benchmark's seed 0 and 1.2 dice).
Every die the reader reports ``ok`` there is one example: right (a labelled die of about its size,
its pips read right) or not (a drawn thing, a pip taken for a die, a die misread). A logistic regression
(ridge, Newton steps, the two kinds weighted alike) is fitted on the photos whose crc32(name) % 5 != 1;
the rest choose ``[anydie] check_ok``: the largest threshold that flags at most ``--budget`` of the
right ``ok`` dice there. Deterministic (seeded drawing, no random start). The features are cached in
~/.cache/rig/diecheck-features-CRC.npz (CRC: the nets') (``--fresh`` reads the photos again).
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rig.bench.distractors import add_distractors  # noqa: E402
from rig.bench.pips import DEFAULT_COLOUR_DATA, DEFAULT_DATA, SCALES, LabelledDie, load_photos, scaled_frame  # noqa: E402
from rig.games.banana.render import render_start_roll  # noqa: E402
from rig.vision.anydie_params import AnyDieParams  # noqa: E402
from rig.vision.diecheck import WEIGHTS, DieCheck, candidate_features  # noqa: E402
from rig.vision.dicenet import FIND_WEIGHTS, READ_WEIGHTS, DiceNet, judge  # noqa: E402

RENDERED, RENDER_SEED = 300, 1000  # rendered start rolls (seeds 1000-1299; the benchmarks' are 0-99)
CACHE = Path.home() / ".cache" / "rig" / "diecheck-features.npz"


#: what a wrong ``ok`` die was (:func:`examples`' kinds; 0: right)
KINDS = ("right", "drawn thing", "a pip or part of a die", "die misread", "nothing labelled")


def examples(seed: int = 1, nets_dir: Path = FIND_WEIGHTS.parent) -> tuple[np.ndarray, ...]:
    """Features, right (1/0), validation (1/0), scale and kind (:data:`KINDS`) of every ``ok`` die on the
    tuning photos, read by the nets in ``nets_dir``."""
    nets, p = DiceNet(nets_dir / FIND_WEIGHTS.name, nets_dir / READ_WEIGHTS.name), AnyDieParams()
    rng = np.random.default_rng(seed)
    out: list[list] = [[], [], [], [], []]  # features, right, validation, scale, kind
    for folder, any_name in ((DEFAULT_DATA, False), (DEFAULT_COLOUR_DATA, True)):
        for photo in load_photos(folder, any_name=any_name, tuning_only=True):
            image = cv2.imread(str(photo.path))
            for factor in SCALES:
                shown, frame, cut = scaled_frame(photo, image, factor)
                _add(out, nets, p, frame.copy(), shown.dice, cut, rng, zlib.crc32(photo.path.stem.encode()) % 5 == 1, factor)
    for i in range(RENDERED):  # the rendered table's dice (the simulation's), of many sizes: dice too
        frame, truth = render_start_roll(RENDER_SEED + i, die_px=float(rng.uniform(24, 100)))
        dice = tuple(LabelledDie(truth[k], truth[f"{k}_box"]) for k in ("white", "black"))
        _add(out, nets, p, frame, dice, (), rng, i % 5 == 1, 0.0)
    x, y, val, scale, kinds = out
    return (np.array(x, np.float32), np.array(y, np.int8), np.array(val, bool), np.array(scale, np.float32),
            np.array(kinds, np.int8))


def _add(out: list[list], nets: DiceNet, p: AnyDieParams, frame: np.ndarray, dice, cut, rng, val: bool,
         factor: float) -> None:
    """The ``ok`` dice of ``frame`` (things drawn in first) as examples, appended to ``out``."""
    sides = sorted(max(d.box[2], d.box[3]) for d in dice) or [max(frame.shape[:2]) / 16]
    side = min(rng.uniform(0.7, 1.7) * sides[len(sides) // 2], min(frame.shape[:2]) / 3)
    drawn = add_distractors(frame, [d.box for d in tuple(dice) + tuple(cut)], side, rng)
    kept = [(c, d) for c in nets.candidates(frame, max(p.find_floor, p.find_keep)) for d in [judge(c, p)] if d is not None]
    x = candidate_features([c for c, _ in kept])
    for i, (c, d) in enumerate(kept):
        if d.count.status != "ok" or any(_inside(c, b.box, 0.3) for b in cut):
            continue
        under = [t for t in dice if _inside(c, t.box, 0.0)]
        if any(_inside(c, box, 0.0) for _, box in drawn):
            kind = 1
        elif not under:
            kind = 4
        elif not any(c.side >= 0.6 * max(t.box[2:]) for t in under):
            kind = 2
        else:
            kind = 0 if any(d.pips == t.pips for t in under) else 3
        for column, value in zip(out, (x[i], kind == 0, val, factor, kind)):
            column.append(value)


def _inside(c, box, grow: float) -> bool:
    x, y, w, h = box
    g = grow * max(w, h)
    return x - g <= c.x <= x + w + g and y - g <= c.y <= y + h + g


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 10.0, steps: int = 25) -> DieCheck:
    """Logistic regression by Newton steps with a ridge, the two classes weighted alike."""
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
    z = np.column_stack([(x - mean) / std, np.ones(len(x))]).astype(np.float64)
    weight = np.where(y == 1, 0.5 / max(1, y.sum()), 0.5 / max(1, (1 - y).sum())) * len(y)
    w = np.zeros(z.shape[1])
    penalty = ridge * np.eye(z.shape[1])
    penalty[-1, -1] = 0.0
    for _ in range(steps):
        q = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        grad = z.T @ (weight * (q - y)) + penalty @ w
        hess = (z * (weight * q * (1 - q))[:, None]).T @ z + penalty
        w -= np.linalg.solve(hess, grad)
    return DieCheck(w[:-1], float(w[-1]), mean, std)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=0.03, help="right ok dice flagged at most (validation)")
    parser.add_argument("--ridge", type=float, default=10.0)
    parser.add_argument("--fresh", action="store_true", help="read the photos again (not the cached features)")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--nets", type=Path, default=FIND_WEIGHTS.parent, help="the folder of the pip nets to check")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    t0 = time.time()
    # the features are the nets': cached per pair of nets
    key = zlib.crc32(b"".join((args.nets / w.name).read_bytes() for w in (FIND_WEIGHTS, READ_WEIGHTS)))
    cache = CACHE.with_name(f"{CACHE.stem}-{key:08x}.npz")
    if cache.exists() and not args.fresh:
        with np.load(cache) as c:
            x, y, val, scale, kind = c["x"], c["y"], c["val"], c["scale"], c["kind"]
    else:
        x, y, val, scale, kind = examples(nets_dir=args.nets)
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, x=x, y=y, val=val, scale=scale, kind=kind)
    print(f"{len(y)} ok dice ({int(y.sum())} right, {int((1 - y).sum())} not), {int(val.sum())} for validation "
          f"({time.time() - t0:.0f} s reading)")
    check = fit(x[~val], y[~val], args.ridge)
    like = check.likeness(x[val])
    right, wrong = like[y[val] == 1], like[y[val] == 0]
    chosen = float(np.quantile(right, args.budget))
    for t in sorted({0.1, 0.2, 0.3, 0.4, 0.5, round(chosen, 3)}):
        print(f"  check_ok {t:.3f}: right ok dice flagged {np.mean(right < t):.1%}, not-right ok dice flagged "
              f"{np.mean(wrong < t):.1%} ({int((wrong >= t).sum())} of {len(wrong)} left ok)")
    for f in SCALES + (0.0,):
        m = scale[val] == f
        print(f"  {'rendered' if f == 0 else f'x{f:g}'} at {chosen:.3f}: right flagged {np.mean(like[m & (y[val] == 1)] < chosen):.1%}, "
              f"not-right left ok {int((like[m & (y[val] == 0)] >= chosen).sum())} of {int((m & (y[val] == 0)).sum())}")
    left = kind[val][like >= chosen]
    print("  not-right left ok by kind: " + ", ".join(f"{KINDS[k]} {int((left == k).sum())} of "
                                                      f"{int((kind[val] == k).sum())}" for k in range(1, len(KINDS))))
    check.save(args.out)
    print(f"wrote {args.out}; set [anydie] check_ok = {chosen:.3f} ({time.time() - t0:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

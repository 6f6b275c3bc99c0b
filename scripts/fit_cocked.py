"""Fit the cocked-die verdict (``calibration/cocked.npz``, :mod:`rig.vision.dice_cocked`) on the twin.

Reads the thrown turns of twin tables (``rig bench vision --twin``'s renders, cached in
``~/.cache/rig/twin``; tables not cached are rendered, which takes minutes each) in the table's
light and after each lamp drift, exactly as the benchmark does. Every die the reader finds whose
flank test fires (and that its top's size or aspect did not already call cocked) becomes a row:
:func:`rig.vision.dice_cocked.flank_shape` and the twin's truth (cocked: its top tilted more than
10 degrees). The rows are cached in ``~/.cache/rig/cocked-rows.npz``.

A logistic regression (standardised inputs, full-batch gradient descent from zeros: no
randomness) is fitted on the tables of even seed and validated on those of odd seed; the
threshold is the lowest score of a truly cocked die of the fitting split less ``--margin``, so
no cocked die of the fitting split goes unflagged. Prints the validation split's flat dice freed
and cocked dice lost.

    .venv/bin/python scripts/fit_cocked.py                 # collect (cached) and fit
    .venv/bin/python scripts/fit_cocked.py --write         # ... and write calibration/cocked.npz

``--test aspect`` (sixth round) does the same for the dice the top's aspect test calls cocked (a lit
top not square: tilted away, or partly in shade): :func:`rig.vision.dice_cocked.top_shape`, rows in
``~/.cache/rig/cocked-aspect-rows.npz``, the verdict in ``calibration/cocked_aspect.npz``; the
figures printed count a die freed only when its own shade is at most ``SHADE_FREED`` of a top, as
the reader does (the fit itself is on every candidate).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TABLES = "100:17,1000:12,2000:12,4000:12,6000:12,7000:12,8000:12"
ASPECT_TABLES = TABLES + ",8100:12"  # the sixth round: 8100-8111 seen by then


def seeds(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        first, n = (int(v) for v in part.split(":"))
        out += range(first, first + n)
    return out


def collect(tables: list[int], turns: int, spp: int, test: str = "flank"):
    """(features, cocked, table seed, shade) of every candidate of ``test`` on the tables' thrown turns:
    the flank test's (:func:`flank_shape`) or the top's aspect test's (:func:`top_shape`; shade: its own
    shade joined to its lit top, in tops, which :func:`rig.vision.dice_cocked.tilted` bounds)."""
    import cv2

    from rig.bench.tables import _photo_patch
    from rig.bench.twin import calibrated
    from rig.bench.unseen import textures_dir
    from rig.twin.table import DRIFTS, TwinTable
    from rig.vision.dice import _radius, prepare, read_labels
    from rig.vision import dice_cocked
    from rig.vision.dice_cocked import ASPECT_FEATURES, _joined, _leaning, flank_shape, top_shape
    from rig.vision.errors import VisionError

    cv2.setNumThreads(1)
    n = len(dice_cocked.FEATURES)  # read as the reader before the verdict: the flank test alone decides
    dice_cocked.check = lambda: dice_cocked.CockedCheck(np.zeros(n), 0.0, np.zeros(n), np.ones(n), -np.inf)
    m = len(ASPECT_FEATURES)  # ... and the top's aspect test alone
    dice_cocked.aspect_check = lambda: dice_cocked.CockedCheck(np.zeros(m), 0.0, np.zeros(m), np.ones(m), -np.inf,
                                                               ASPECT_FEATURES)
    data = textures_dir(None)
    X, y, where, shade = [], [], [], []
    for seed in tables:
        table = TwinTable.random(seed, photo=lambda kind, rng: _photo_patch(kind, rng, data))
        shots = table.shots(turns)
        renders = {s.name: table.render(s, spp=spp) for s in shots}
        try:
            profile, frame = calibrated(table, renders, seed)
        except VisionError:
            print(f"table {seed}: calibration refused, no rows", flush=True)
            continue
        t, walls, n0 = profile.thresholds, profile.walls, len(y)
        for d, drift in enumerate(DRIFTS):
            for shot in shots:
                if not shot.name.startswith("turn:"):
                    continue
                k = int(shot.name.split(":")[1])
                work = prepare(frame(shot.name, drift, 10 + k + 100 * d), profile)
                truth = table.truth(shot)
                reading = read_labels(work, profile, len(truth))
                f = work.factor
                for obs in reading.dice:
                    by_shape = obs.area < t.die_area_min or (
                        obs.aspect + walls[3] * _radius((obs.x + 0.5) / f - 0.5, (obs.y + 0.5) / f - 0.5, work) < t.cocked_aspect)
                    if test == "aspect":
                        if not by_shape or obs.area < t.die_area_min:
                            continue
                    elif by_shape or not _leaning(obs, work, t, walls, reading.dice):
                        continue
                    dist = [np.hypot(d_.x - obs.x, d_.y - obs.y) for d_ in truth]
                    j = int(np.argmin(dist))
                    x = (top_shape(obs, work, reading.dice) if test == "aspect" else
                         flank_shape(obs, work, t, walls, reading.dice))
                    if dist[j] >= 0.6 * table.notes["die_px"] or x is None:
                        continue
                    X.append(x), y.append(truth[j].cocked), where.append(seed)
                    masks = _joined(obs, work, reading.dice) if test == "aspect" else None
                    shade.append(0.0 if masks is None else np.count_nonzero(masks[1] & ~masks[0]) / work.top_area)
        print(f"table {seed}: {len(y) - n0} candidates", flush=True)
    return np.array(X), np.array(y, bool), np.array(where), np.array(shade)


def fit(X: np.ndarray, y: np.ndarray, *, l2: float = 1e-2, steps: int = 3000, rate: float = 0.1, w_cocked: float = 3.0):
    """Standardised logistic regression, cocked rows weighted ``w_cocked``: (w, b, mean, std)."""
    mean, std = X.mean(0), X.std(0) + 1e-9
    Z = (X - mean) / std
    w, b = np.zeros(Z.shape[1]), 0.0
    weight = np.where(y, w_cocked, 1.0)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(Z @ w + b)))
        g = (p - y) * weight
        w -= rate * (Z.T @ g / len(y) + l2 * w)
        b -= rate * float(g.mean())
    return w, b, mean, std


def main(argv=None) -> int:
    from rig.vision.dice_cocked import ASPECT_FEATURES, ASPECT_WEIGHTS, FEATURES, WEIGHTS, CockedCheck

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--test", choices=("flank", "aspect"), default="flank",
                    help="whose 'cocked' calls to judge: the flank test's (cocked.npz) or the top's aspect test's "
                         "(cocked_aspect.npz)")
    ap.add_argument("--tables", default=None, help=f"twin tables, FIRST:N,... (default {TABLES}; --test aspect: "
                                                   f"{ASPECT_TABLES})")
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--spp", type=int, default=8)
    ap.add_argument("--margin", type=float, default=None, help="below the lowest cocked score of the fitting split "
                                                                "(default 0.25; --test aspect: 0.5, its cocked dice are few)")
    ap.add_argument("--rows", default=None, help="rows cache (default ~/.cache/rig/cocked-rows.npz, "
                                                 "--test aspect: cocked-aspect-rows.npz)")
    ap.add_argument("--fresh", action="store_true", help="collect the rows again")
    ap.add_argument("--write", action="store_true", help="write the verdict into calibration/")
    args = ap.parse_args(argv)
    aspect = args.test == "aspect"
    margin = args.margin if args.margin is not None else 0.5 if aspect else 0.25
    names, target = (ASPECT_FEATURES, ASPECT_WEIGHTS) if aspect else (FEATURES, WEIGHTS)
    tables = args.tables or (ASPECT_TABLES if aspect else TABLES)
    rows = Path(args.rows or Path.home() / ".cache" / "rig" / ("cocked-aspect-rows.npz" if aspect else "cocked-rows.npz"))
    if rows.exists() and not args.fresh:
        z = np.load(rows)
        X, y, where = z["X"], z["y"], z["seed"]
        shade = z["shade"] if "shade" in z else np.zeros(len(y))
    else:
        X, y, where, shade = collect(seeds(tables), args.turns, args.spp, args.test)
        rows.parent.mkdir(parents=True, exist_ok=True)
        np.savez(rows, X=X, y=y, seed=where, shade=shade)
    train = where % 2 == 0
    w, b, mean, std = fit(X[train], y[train])
    model = CockedCheck(w, b, mean, std, 0.0, names)
    s = model.score(X)
    model.threshold = float(s[train & y].min() - margin)
    kept = s >= model.threshold
    if aspect:  # the reader frees only a top mostly lit (rig.vision.dice_cocked.tilted)
        from rig.vision.dice_cocked import SHADE_FREED

        kept |= shade > SHADE_FREED
    what = "the top's aspect test" if aspect else "the flank test"
    for name, part in (("fit (even seeds)", train), ("validation (odd seeds)", ~train)):
        flat, cocked = part & ~y, part & y
        print(f"{name}: {int(part.sum())} dice {what} calls cocked, {int(cocked.sum())} truly cocked "
              f"({len(set(where[cocked]))} tables); flat freed {int((flat & ~kept).sum())} of {int(flat.sum())}, "
              f"cocked lost {int((cocked & ~kept).sum())} of {int(cocked.sum())}")
    print("weights", dict(zip(names, np.round(w, 3))), f"bias {b:.3f} threshold {model.threshold:.3f}")
    if args.write:
        model.save(target, tables=np.array(tables), fitted_on=np.array("the tables of even seed"),
                   candidates_from=np.array(sorted(set(where.tolist()))))
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fit the cocked-die verdict (``calibration/cocked.npz``, :mod:`rig.vision.dice_cocked`) on the twin.

Reads the thrown turns of twin tables (``rig bench vision --twin``'s renders, cached in
``~/.cache/rig/twin``; tables not cached are rendered, which takes minutes each) in the table's
light and after each lamp drift, exactly as the benchmark does, and the ``propped`` turns of the
tables of ``--propped`` (seventh round: each throw with four dice then set leaning on a wall or on
another die, :func:`rig.twin.physics.throw`, so that the verdicts see dozens of truly cocked dice;
rendered here when not cached). Every die the reader finds and matches to a true die (cocked: its top
tilted more than 10 degrees) whose top is small ("die partly hidden"), whose lit top is not square
(the top's aspect test: :func:`rig.vision.dice_cocked.top_shape`) or whose flank test fires
(:func:`rig.vision.dice_cocked.flank_shape`) becomes a row; the rows are cached per table in
``~/.cache/rig/cocked-rows-7/``.

A logistic regression (standardised inputs, full-batch gradient descent from zeros: no randomness)
is fitted on the tables of even seed and validated on those of odd seed: ``--test flank`` on the dice
the flank test alone calls cocked (``--write``: ``calibration/cocked.npz``); ``--test aspect`` (a report:
the reader keeps no verdict for it, none that keeps every truly cocked die frees a flat one) on those the
top's aspect test calls cocked (a die counted freed only when its own shade is at most ``SHADE_FREED`` of a
top, as the sixth round's verdict did, and the flank test and its verdict then free it too). The
threshold is the lowest score of a truly cocked die of **either** split less ``--margin``, so that no
truly cocked die of either goes unflagged; the figures printed with the fitting split's own threshold
say what the odd seeds alone would have lost.

    .venv/bin/python scripts/fit_cocked.py                  # collect (cached) and fit
    .venv/bin/python scripts/fit_cocked.py --write          # ... and write calibration/cocked.npz
    .venv/bin/python scripts/fit_cocked.py --test aspect    # what a verdict for the top's aspect test would do
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TABLES = "100:17,1000:12,2000:12,4000:12,6000:12,7000:12,8000:12,8100:12"
PROPPED = "8500:16"  # the seventh round's tables of propped turns
NAN5, NAN3 = np.full(5, np.nan), np.full(3, np.nan)


def seeds(spec: str) -> list[int]:
    out: list[int] = []
    for part in filter(None, spec.split(",")):
        first, n = (int(v) for v in part.split(":"))
        out += range(first, first + n)
    return out


def collect(tables: list[int], propped: list[int], turns: int, propped_turns: int, spp: int, cache: Path,
            fresh: bool = False) -> dict:
    """The rows of every table (cached per table in ``cache``): per die, its table's seed, truth, which
    tests call it cocked (``small``: its top under ``die_area_min``; ``aspect``; ``lean``: the flank
    test), :func:`flank_shape` (NaN when the flank test does not fire), :func:`top_shape` and its own
    shade in tops, and whether its face is read right."""
    parts = []
    for seed in [*tables, *propped]:
        kind = f"propped{propped_turns}" if seed in propped else f"turn{turns}"
        path = cache / f"{seed}-{kind}-{spp}spp.npz"
        if path.exists() and not fresh:
            with np.load(path) as z:
                part = {k: z[k] for k in z.files}
        else:
            part = _table_rows(seed, seed in propped, propped_turns if seed in propped else turns, spp)
            cache.mkdir(parents=True, exist_ok=True)
            np.savez(path, **part)
        if len(part["y"]):
            part.setdefault("legacy", np.zeros(len(part["y"]), bool))  # rows the fifth and sixth rounds collected
            parts.append(part)
    if not parts:
        raise SystemExit("fit_cocked.py: no table gave a row (calibration refused on every one, or no die called cocked)")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _table_rows(seed: int, propped: bool, turns: int, spp: int) -> dict:
    import cv2

    from rig.bench.tables import photo_patch
    from rig.bench.twin import calibrated
    from rig.bench.unseen import textures_dir
    from rig.twin.table import DRIFTS, TwinTable
    from rig.vision.dice import _radius, prepare, read_labels
    from rig.vision import dice_cocked
    from rig.vision.dice_cocked import _joined, _leaning, flank_shape, top_shape
    from rig.vision.errors import VisionError

    cv2.setNumThreads(1)
    n = len(dice_cocked.FEATURES)  # read as the reader before the verdict: the tests alone decide
    dice_cocked.check = lambda: dice_cocked.CockedCheck(np.zeros(n), 0.0, np.zeros(n), np.ones(n), -np.inf)
    data = textures_dir(None)
    rows: dict[str, list] = {k: [] for k in ("seed", "y", "small", "aspect", "lean", "flank", "top", "shade", "right")}
    table = TwinTable.random(seed, photo=lambda kind, rng: photo_patch(kind, rng, data))
    shots = table.shots(turns, propped=4) if propped else table.shots(turns)
    renders = {s.name: table.render(s, spp=spp) for s in shots}
    try:
        profile, frame = calibrated(table, renders, seed)
    except VisionError:
        print(f"table {seed}: calibration refused, no rows", flush=True)
        return {"seed": np.zeros(0, int), "y": np.zeros(0, bool)}
    t, walls = profile.thresholds, profile.walls
    for d, drift in enumerate(DRIFTS):
        for shot in shots:
            if not shot.name.startswith(("turn:", "propped:")):
                continue
            k = int(shot.name.split(":")[1])
            work = prepare(frame(shot.name, drift, 10 + k + 100 * d), profile)
            truth = table.truth(shot)
            reading = read_labels(work, profile, len(truth))
            f = work.factor
            for obs in reading.dice:
                small = obs.area < t.die_area_min
                aspect = not small and (
                    obs.aspect + walls[3] * _radius((obs.x + 0.5) / f - 0.5, (obs.y + 0.5) / f - 0.5, work) < t.cocked_aspect)
                lean = not small and _leaning(obs, work, t, walls, reading.dice)
                if not (small or aspect or lean):
                    continue
                dist = [np.hypot(d_.x - obs.x, d_.y - obs.y) for d_ in truth]
                j = int(np.argmin(dist))
                if dist[j] >= 0.6 * table.notes["die_px"]:
                    continue
                fx = flank_shape(obs, work, t, walls, reading.dice) if lean else None
                tx = top_shape(obs, work, reading.dice)
                masks = _joined(obs, work, reading.dice)
                for key, v in (("seed", seed), ("y", truth[j].cocked), ("small", small), ("aspect", aspect),
                               ("lean", lean), ("flank", NAN5 if fx is None else fx), ("top", NAN3 if tx is None else tx),
                               ("shade", 0.0 if masks is None else np.count_nonzero(masks[1] & ~masks[0]) / work.top_area),
                               ("right", obs.face == truth[j].face)):
                    rows[key].append(v)
    got = np.array(rows["y"], bool)
    print(f"table {seed}: {len(got)} dice some test calls cocked, {int(got.sum())} truly", flush=True)
    return {k: np.array(v) for k, v in rows.items()}


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


def _report(name: str, part, y, kept, where, what: str) -> None:
    flat, cocked = part & ~y, part & y
    print(f"{name}: {int(part.sum())} dice {what} calls cocked, {int(cocked.sum())} truly cocked "
          f"({len(set(where[cocked]))} tables); flat freed {int((flat & ~kept).sum())} of {int(flat.sum())}, "
          f"cocked lost {int((cocked & ~kept).sum())} of {int(cocked.sum())}")


def main(argv=None) -> int:
    from rig.vision.dice_cocked import ASPECT_FEATURES, FEATURES, SHADE_FREED, WEIGHTS, CockedCheck

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--test", choices=("flank", "aspect"), default="flank",
                    help="whose 'cocked' calls to judge: the flank test's (cocked.npz) or the top's aspect test's "
                         "(a report only: the reader has no verdict for it)")
    ap.add_argument("--tables", default=TABLES, help=f"twin tables, FIRST:N,... (default {TABLES})")
    ap.add_argument("--propped", default=PROPPED, help=f"twin tables of propped turns, FIRST:N,... (default {PROPPED})")
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--propped-turns", type=int, default=6)
    ap.add_argument("--spp", type=int, default=8)
    ap.add_argument("--margin", type=float, default=0.25, help="below the lowest cocked score of both splits")
    ap.add_argument("--rows", default=str(Path.home() / ".cache" / "rig" / "cocked-rows-7"), help="rows cache, a file per table")
    ap.add_argument("--fresh", action="store_true", help="collect the rows again")
    ap.add_argument("--write", action="store_true", help="write the verdict into calibration/")
    args = ap.parse_args(argv)
    r = collect(seeds(args.tables), seeds(args.propped), args.turns, args.propped_turns, args.spp, Path(args.rows),
                args.fresh)
    y, where = r["y"].astype(bool), r["seed"]
    aspect = args.test == "aspect"
    if aspect:
        # fitted on every candidate (the truly cocked ones are few among the tops mostly lit: two on the
        # seventh round's tables, both of even seed); the reader frees only a top mostly lit
        beyond = r["aspect"] & (r["shade"] > SHADE_FREED)
        print(f"own shade over SHADE_FREED, kept cocked by that alone: {int(beyond.sum())} dice the top's aspect test "
              f"calls cocked, {int((beyond & y).sum())} truly cocked ({len(set(where[beyond & y]))} tables)")
        part = r["aspect"] & ~np.isnan(r["top"][:, 0])
        X, names, target = r["top"], ASPECT_FEATURES, None
    else:
        part, X, names, target = ~r["aspect"] & ~r["small"] & r["lean"] & ~np.isnan(r["flank"][:, 0]), r["flank"], FEATURES, WEIGHTS
    train = part & (where % 2 == 0)
    w, b, mean, std = fit(X[train], y[train])
    model = CockedCheck(w, b, mean, std, 0.0, names)
    s = np.full(len(y), -np.inf)
    s[part] = model.score(X[part])
    own = float(s[train & y].min() - args.margin)
    model.threshold = float(s[part & y].min() - args.margin)
    what = "the top's aspect test" if aspect else "the flank test alone"
    if aspect:  # a die the aspect verdict frees meets the flank test and its verdict (calibration/cocked.npz)
        flank = CockedCheck.load(WEIGHTS)
        bare = np.isnan(r["flank"][:, 0])
        flank_kept = bare.copy()
        flank_kept[~bare] = flank.score(r["flank"][~bare]) >= flank.threshold
    for label, threshold in (("with the fitting split's threshold", own), ("with both splits' threshold", model.threshold)):
        kept = s >= threshold
        if aspect:  # the reader frees only a top mostly lit, and a die freed then meets the flank test
            kept |= beyond | (r["lean"] & flank_kept)
        print(f"{label} ({threshold:.3f}):")
        for name, split in (("  fit (even seeds)", train), ("  validation (odd seeds)", part & (where % 2 == 1))):
            _report(name, split, y, kept, where, what)
        propped = np.isin(where, seeds(args.propped))
        _report("  of them on the propped tables", part & propped, y, kept, where, what)
    print("weights", dict(zip(names, np.round(w, 3))), f"bias {b:.3f} threshold {model.threshold:.3f}")
    if args.write and target is None:
        print("not written: the top's aspect test has no verdict in the reader (docs/vision.md, seventh round)")
    elif args.write:
        model.save(target, tables=np.array(args.tables), propped=np.array(args.propped),
                   fitted_on=np.array("the tables of even seed; threshold below every truly cocked die of both splits"),
                   candidates_from=np.array(sorted(set(where[part].tolist()))))
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Compare pip nets and choose the ``[anydie]`` flag thresholds on the *tuning* photos at every scale.

    .venv/bin/python scripts/tune_dicenet.py --nets calibration                  # the shipped nets
    .venv/bin/python scripts/tune_dicenet.py --nets DIR --check DIR/diecheck.npz --grid
    .venv/bin/python scripts/tune_dicenet.py --nets DIR --check DIR/diecheck.npz --twin 9130-9139 --grid \
        --vary find_ok=0.5,0.55,0.6 --vary one_ok=0.7,0.78 --vary check_ok=0.25,0.321,0.4 --vary one_check_ok=0.42,0.5

The last (issue 25, the finder trained with twin frames): the candidates of the tuning photos at four scales 9 min,
of the twin tables 9130-9139 (20 throws, renders cached at 8 spp) 2 min, one thread under ``nice`` on two shared
cores (load average 15-25); each grid point then takes a fraction of a second. For G (``~/.cache/rig/pips/runG``,
with ``STOP_BAND`` 1.6 and its own check, ``--vary check_ok=0.3,0.386,0.45``) the candidates took 2 min at load 6-9. ``--stop SURE,BAND``, ``--level-floor F``, ``--full``: the pyramid's stop rules (rig.vision.dicenet STOP_SURE,
STOP_BAND), its LEVEL_FLOOR, or every level run (the reference) instead of the shipped, candidates cached apart;
``--val-only``: only the validation slice read (quicker, to choose those rules). ``--all``: the grid on all tuning
photos (the figures of ``rig bench vision --game pips --scales --split tuning``), not the validation slice.

Issue 25, G's last faults (docs/games.md, "G's last faults, and G trained on with shrunk photos"): ``--stop 0.7,1.6
--level-floor 0.2`` on G, all tuning photos and ``--twin 9130-9139`` (candidates 6 min at load average 8-13), then the
same without ``--level-floor``, and J (``--nets ~/.cache/rig/pips/runJ --check ~/.cache/rig/pips/runJ/diecheck.npz
--set check_ok=0.4 --set one_check_ok=0.5 ...``, 5 min); J's grid ``--grid --vary find_ok=0.55,0.6 --vary
one_ok=0.7,0.78 --vary check_ok=0.318,0.4,0.5 --vary one_check_ok=0.42,0.5`` in seconds from the cached candidates.
Candidates cached under another ``rig/vision/dicenet.py`` (e.g. ``STOP_BAND`` edited in place) are not found again:
their key holds the module's bytes.

Only the tuning photographs of the two shared sets are read (held-out ones are skipped by name, never
opened). Each is seen at the scales of ``rig bench vision --game pips --scales`` (rig.bench.pips.scaled_frame),
read with no size hint (the pyramid coarse to fine, as by default); the nets' candidates are kept (cached
in ~/.cache/rig/tune-dicenet/, keyed by the nets' bytes), and each set of thresholds judges them again as
rig.vision.dicenet.read_dice does. Printed per set and scale, for all tuning photos and for the validation
slice (crc32(name) % 5 == 1, which the nets and the check were not fitted on): found, read right, silent
wrong (of found), dice flagged, frames flagged, as in the benchmark, and things matching no label reported ``ok``.
``--grid``: find_ok, read_ok, one_ok and check_ok (or the thresholds ``--vary`` names) over a small grid, on the
validation slice; per set and scale read right / silent wrong / dice flagged %, for ``--twin`` tables also false
dice (coins, screw heads, card corners) reported ok. ``--twin SEEDS``: twin tables kept back from training read
beside the photos (two throws each, as ``scripts/twin_frames.py`` reads them, the truth from the twin's geometry,
cocked dice left out); the benchmark's tables are refused.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import pickle
import sys
import zlib
from dataclasses import replace
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rig.bench.pips import DEFAULT_COLOUR_DATA, DEFAULT_DATA, SCALES, load_photos, scaled_frame  # noqa: E402
from rig.bench.pip_scores import match_labelled  # noqa: E402
from rig.vision import diecheck  # noqa: E402
from rig.vision.anydie_params import AnyDieParams  # noqa: E402
from rig.vision.diebig import flag_big_boxes  # noqa: E402
from rig.vision.dicenet import FIND_WEIGHTS, OVERLAP, READ_WEIGHTS, DiceNet, crowded, judge, second_opinion  # noqa: E402

CACHE = Path.home() / ".cache" / "rig" / "tune-dicenet"


def _cached(nets_dir: Path, extra: str, prefix: str, make):
    """``make(nets)`` for the nets in ``nets_dir``, kept in ~/.cache/rig/tune-dicenet/ under their bytes, the
    pyramid's code (candidates cached before a change of it are not reused) and ``extra``."""
    from rig.vision import dicenet

    key = hashlib.sha1(b"".join((nets_dir / w.name).read_bytes() for w in (FIND_WEIGHTS, READ_WEIGHTS))
                       + Path(dicenet.__file__).read_bytes() + extra.encode()).hexdigest()[:16]
    path = CACHE / f"{prefix}{key}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    cv2.setNumThreads(1)
    out = make(DiceNet(nets_dir / FIND_WEIGHTS.name, nets_dir / READ_WEIGHTS.name))
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(out))
    return out


def candidates(nets_dir: Path, floor: float, val_only: bool = False) -> dict:
    """{(set, scale): [(validation, labelled dice, cut boxes, candidates)]} for the tuning photos (``val_only``:
    those of the validation slice)."""

    def make(nets) -> dict:
        out: dict = {}
        for name, folder, any_name in (("white", DEFAULT_DATA, False), ("coloured", DEFAULT_COLOUR_DATA, True)):
            for photo in load_photos(folder, any_name=any_name, tuning_only=True):
                val = zlib.crc32(photo.path.stem.encode()) % 5 == 1
                if val_only and not val:
                    continue
                image = cv2.imread(str(photo.path))
                for factor in SCALES:
                    shown, frame, cut = scaled_frame(photo, image, factor)
                    out.setdefault((name, factor), []).append((val, shown.dice, cut, nets.candidates(frame, floor)))
        return out

    return _cached(nets_dir, f"{floor}{_stop()}" + (" val" if val_only else ""), "", make)


def _stop() -> str:
    """The pyramid's stop rules when not the shipped ones (``--stop``, ``--full``), for the cache key."""
    from rig.vision import dicenet

    return f" stop {dicenet.STOP_SURE} {dicenet.STOP_BAND} {dicenet.SKIP_SLACK} {dicenet.LEVEL_FLOOR}" if _STOP else ""


_STOP: list = []  # set by --stop / --full


def twin_candidates(nets_dir: Path, floor: float, spec: str, spp: int = 8) -> list:
    """[(True, dice lying flat, cocked dice, candidates)] for each throw of the twin tables in ``spec`` (2 each, as
    ``scripts/twin_frames.py`` reads them): the truth from the twin's geometry, the cocked dice left out as cut dice
    are; cached as :func:`candidates`."""
    from rig.bench.pip_photos import LabelledDie
    from rig.bench.pip_twin import twin_frame
    from rig.errors import RigError
    from rig.twin.pip_table import PipTable
    from twin_frames import seeds  # the benchmark's tables refused

    box = lambda cx, cy, side: (cx - side / 2, cy - side / 2, side, side)  # noqa: E731

    def make(nets) -> list:
        out = []
        for seed in seeds(spec):
            table = PipTable.random_pips(seed)
            try:
                shots = table.pip_shots(2)
            except RigError:  # no throw stays in view
                continue
            for k, shot in enumerate(shots):
                dice, _ = table.frame_boxes(shot)
                flat = tuple(LabelledDie(int(v), box(cx, cy, s)) for cx, cy, s, v in dice)
                cocked = tuple(LabelledDie(0, box(d.x, d.y, d.side_px)) for d in table.pip_truth(shot) if d.cocked)
                out.append((True, flat, cocked, nets.candidates(twin_frame(table, shot, k, spp), floor)))
        return out

    return _cached(nets_dir, f"{floor} {spec} {spp}{_stop()}", "twin-", make)


def judged(cands, p: AnyDieParams, cut) -> list:
    """rig.vision.dicenet.read_dice on cached candidates, dice in the cut dice's boxes left out (no dice count, as the
    benchmark reads: no faint die, rig.vision.diefaint)."""
    kept = [(c, d) for c in cands for d in [judge(c, replace(p, faint_keep=0.0))] if d is not None]
    dice = second_opinion(kept, p)
    centres = [(d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2, d.box[2]) for d in dice]
    dice = [d.flagged("overlap") if crowded(*c, centres, OVERLAP) else d for d, c in zip(dice, centres)]
    dice = flag_big_boxes(dice, p.big_box)
    grown = [(x - 0.3 * max(w, h), y - 0.3 * max(w, h), w + 0.6 * max(w, h), h + 0.6 * max(w, h)) for x, y, w, h in
             (c.box for c in cut)]
    return [d for d in dice if not any(bx <= d.box[0] + d.box[2] / 2 <= bx + bw and by <= d.box[1] + d.box[3] / 2 <= by + bh
                                       for bx, by, bw, bh in grown)]


def score(rows, p: AnyDieParams) -> dict:
    """Counts as rig.bench.pip_scores.evaluate_frames makes them."""
    n = found = right = silent = flagged = frames_flagged = frames_silent = extra_ok = 0
    for _, dice, cut, cands in rows:
        got = judged(cands, p, cut)
        hits, wrong_frame = match_labelled(dice, got), False
        used = {i for i in hits if i is not None}
        for die, hit in zip(dice, hits):
            n += 1
            if hit is None:
                wrong_frame = True
                continue
            found += 1
            wrong, flag = got[hit].pips != die.pips, got[hit].count.status != "ok"
            right += not wrong
            silent += wrong and not flag
            flagged += flag
            wrong_frame |= wrong
        ff = any(d.count.status != "ok" for d in got) or len(got) != len(dice)
        extra_ok += sum(f.count.status == "ok" for i, f in enumerate(got) if i not in used)
        frames_flagged += ff
        frames_silent += wrong_frame and not ff
    return dict(n=n, found=found, right=right, silent=silent, flagged=flagged, frames=len(rows),
                frames_flagged=frames_flagged, frames_silent=frames_silent, extra_ok=extra_ok)


def line(s: dict) -> str:
    f = max(1, s["found"])
    return (f"found {100 * s['found'] / s['n']:.1f} right {100 * s['right'] / s['n']:.1f} silent "
            f"{100 * s['silent'] / f:.2f} % ({s['silent']}) flagged {100 * s['flagged'] / f:.1f} frames flagged "
            f"{100 * s['frames_flagged'] / s['frames']:.0f} % silent frames {s['frames_silent']} unlabelled ok {s['extra_ok']}")


def validation_report(sets: dict[str, list], folder: Path, crop: int) -> None:
    """Found / read right / silent wrong / flagged on the validation slice, for a grid of the flag
    thresholds (the ``[anydie]`` find_ok and read_ok), with the nets in ``folder``."""
    from dataclasses import replace

    from rig.bench.pips import evaluate_find
    from rig.vision.anydie import AnyDieParams
    from rig.vision.dicenet import DiceNet, read_dice

    cv2.setNumThreads(1)
    nets = DiceNet(folder / FIND_WEIGHTS.name, folder / READ_WEIGHTS.name, crop=crop)
    base = AnyDieParams()
    for name, photos in sets.items():
        images = {p.path: image for p, image, _ in photos}
        print(f"\n{name}: {len(photos)} validation photos")
        for keep in (0.3, 0.4, 0.45, 0.5, 0.6):
            for find_ok in (0.5, 0.6, 0.7):
                for read_ok in (0.8, 0.9, 0.95):
                    p = replace(base, find_keep=keep, find_ok=find_ok, read_ok=read_ok)
                    cm, extra, ms, f = evaluate_find([ph for ph, _, _ in photos], p, images,
                                                     reader=lambda frame, q: read_dice(frame, q, nets))
                    found = cm.total - sum(cm.missed)
                    print(f"keep {keep:.2f} find_ok {find_ok:.2f} read_ok {read_ok:.2f}: found {found / cm.total:.3f} "
                          f"right {cm.correct / cm.total:.3f} extra {extra} silent {f.silent} "
                          f"flagged {f.flagged_wrong}w/{f.flagged_right}r of {found}  {ms:.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nets", type=Path, default=FIND_WEIGHTS.parent)
    parser.add_argument("--check", type=Path, default=diecheck.WEIGHTS, help="the second opinion's weights")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="an [anydie] threshold")
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--vary", action="append", default=[], metavar="NAME=V1,V2",
                        help="--grid: these values of an [anydie] threshold (default find_ok, read_ok, one_ok, check_ok)")
    parser.add_argument("--all", action="store_true", help="--grid on all tuning photos, not the validation slice")
    parser.add_argument("--twin", default="", metavar="SEEDS",
                        help="twin tables kept back from training (e.g. 9130-9139) read beside the photos")
    parser.add_argument("--stop", default="", metavar="SURE,BAND",
                        help="the pyramid's stop rules (rig.vision.dicenet STOP_SURE, STOP_BAND) instead of the shipped")
    parser.add_argument("--full", action="store_true", help="every pyramid level run (the stop rules' reference)")
    parser.add_argument("--level-floor", type=float, default=None, help="rig.vision.dicenet.LEVEL_FLOOR instead")
    parser.add_argument("--val-only", action="store_true", help="only the validation slice's photos read")
    args = parser.parse_args(argv)
    from rig.vision import dicenet

    if args.stop:
        dicenet.STOP_SURE, dicenet.STOP_BAND = (float(v) for v in args.stop.split(","))
        _STOP.append(args.stop)
    if args.level_floor is not None:
        dicenet.LEVEL_FLOOR = args.level_floor
        _STOP.append("level floor")
    if args.full:
        dicenet.STOP_SURE, dicenet.SKIP_SLACK = 0.0, -1.0
        _STOP.append("full")
    diecheck._CACHE[:] = [diecheck.DieCheck.load(args.check) if args.check.exists() else None]
    p = AnyDieParams()
    p = replace(p, **{k: float(v) for k, v in (s.split("=") for s in args.set)})
    rows = candidates(args.nets, max(p.find_floor, p.find_keep), args.val_only)
    if args.twin:
        rows[("twin", 1.0)] = twin_candidates(args.nets, max(p.find_floor, p.find_keep), args.twin)
    if not args.grid:
        for (name, factor), some in rows.items():
            print(f"{name:8s} x{factor:<4g} all  {line(score(some, p))}")
            print(f"{name:8s} x{factor:<4g} val  {line(score([r for r in some if r[0]], p))}")
        return 0
    axes = {"find_ok": (0.45, 0.5, 0.6), "read_ok": (0.8, 0.9), "one_ok": (0.6, 0.7, 0.78),
            "check_ok": (p.check_ok * 0.7, p.check_ok, p.check_ok * 1.3)}
    axes.update({k: tuple(float(v) for v in vs.split(",")) for k, vs in (a.split("=") for a in args.vary)})
    for values in itertools.product(*axes.values()):
        q = replace(p, **dict(zip(axes, values)))
        total = {k: score([r for r in some if r[0] or args.all], q) for k, some in rows.items()}
        print(" ".join(f"{k} {v:.3g}" for k, v in zip(axes, values)) + ": " + "; ".join(
            f"{n[0]}{f:g} {100 * s['right'] / s['n']:.1f}/{s['silent']}/{100 * s['flagged'] / max(1, s['found']):.0f}"
            + (f"/{s['extra_ok']}" if n == "twin" else "")
            for (n, f), s in total.items()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Every die the reader finds on twin turns, with its crop and its truth: material for the second look (issue 24,
round 11; :mod:`rig.vision.dice_second_look`, ``scripts/train_second_look.py``).

Reads the thrown (or ``--propped``) turns of twin tables exactly as ``scripts/twin_turns.py`` and ``rig bench
vision --twin`` do (cached renders, the same development, calibration and scoring, all four lights) and writes per
table ``<seed>.jsonl`` (one line per turn: twin_turns' fields, each die read with ``"i"``, its row in the crops,
and ``"state"``/``"true_face"``, the true die it matches: flat, cocked or none) and ``<seed>.npy`` (the crops,
float16, ``dice_second_look.crop``).

    .venv/bin/python scripts/frog_crops.py --sets 100:17,6000:12 --out ~/.cache/rig/dice/r11/crops
    .venv/bin/python scripts/frog_crops.py --sets 5000:12 --propped --out ~/.cache/rig/dice/r11/crops
    .venv/bin/python scripts/frog_crops.py --sets 71000:24 --unseen 0.3 --turns 6 --out ~/.cache/rig/dice/r11/crops
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from twin_turns import each_turn, match, seeds  # noqa: E402


def dice_seen(reading, work, profile, crops: list) -> list[dict]:
    """Each die of ``reading`` as a line's ``seen`` entry (its hand-made measures, ``"i"`` its row in ``crops``), its
    crop appended to ``crops``."""
    from rig.vision.dice_cocked import _radial, measures
    from rig.vision.dice_second_look import crop

    f = work.factor
    seen = []
    for obs in reading.dice:
        cx, cy = (obs.x + 0.5) / f - 0.5, (obs.y + 0.5) / f - 0.5
        seen.append({"face": obs.face, "x": obs.x, "y": obs.y, "cocked": obs.cocked, "area": obs.area,
                     "confidence": obs.confidence, "aspect": obs.aspect, "i": len(crops),
                     "m": [round(float(v), 4) for v in measures(obs, work, profile.thresholds, profile.walls,
                                                                 reading.dice)]})
        crops.append(crop(work.small, cx, cy, work.side, _radial(obs, work)).astype(np.float16))
    return seen


def mark_truth(line: dict, truth) -> None:
    """Each die seen on ``line`` given ``"state"`` (flat, cocked or none) and ``"true_face"`` of the true die it
    matches."""
    pairs, _ = match(line)
    for o in line["seen"]:
        o["state"], o["true_face"] = "none", None
    for d, i in zip(truth, pairs):
        if i is not None:
            line["seen"][i]["state"], line["seen"][i]["true_face"] = "cocked" if d.cocked else "flat", d.face


def read_table(seed: int, turns: int, spp: int, propped: bool = False) -> tuple[list[dict], np.ndarray]:
    import rig.vision.dice_second_look as second
    from rig.bench.unseen import score
    from rig.vision.errors import VisionError

    second.ENABLED = False  # the reader's own flags, before the second look
    lines, crops = [], []
    try:
        for profile, die_px, drift, shot, k, work, truth, reading in each_turn(seed, turns, spp, propped):
            right, counted, wrong, cocked = score(truth, reading, 0.6 * die_px)
            line = {"seed": seed, "drift": drift, "turn": k, "shot": shot.name, "die_px": die_px,
                    "side": work.side * work.factor, "status": reading.status, "reasons": list(reading.reasons),
                    "right": right, "counted": counted, "wrong": wrong, "has_cocked": cocked, "six": len(truth) == 6,
                    "truth": [{"face": d_.face, "x": d_.x, "y": d_.y, "cocked": d_.cocked} for d_ in truth],
                    "seen": dice_seen(reading, work, profile, crops)}
            mark_truth(line, truth)
            lines.append(line)
    except VisionError as exc:
        return [{"seed": seed, "refused": str(exc)}], np.zeros((0,), np.float16)
    return lines, np.stack(crops) if crops else np.zeros((0,), np.float16)


def read_unseen(seed: int, turns: int, cocked: float) -> tuple[list[dict], np.ndarray]:
    """The same for a 2D table of ``rig bench vision --unseen`` (:class:`rig.bench.tables.Table`), its seven lights,
    ``turns`` turns each with a share ``cocked`` of the dice leaning (the bench's own turns: 0.05)."""
    import cv2

    import rig.vision.dice_second_look as second
    from rig.bench.tables import DRIFTS, Table
    from rig.bench.unseen import score, textures_dir
    from rig.vision.calibrate import fit_profile
    from rig.vision.dice import prepare, read_labels
    from rig.vision.errors import VisionError

    cv2.setNumThreads(1)
    second.ENABLED = False
    table = Table.random(seed, data=textures_dir(None))
    frames, empty = table.ritual()
    try:
        profile = fit_profile(frames, empty=empty, name=f"unseen-{seed}").profile
    except VisionError as exc:
        return [{"seed": seed, "refused": str(exc)}], np.zeros((0,), np.float16)
    lines, crops = [], []
    for name, drift in DRIFTS.items():
        for k in range(turns):
            frame, truth = table.turn(100 + k, drift, cocked=cocked)
            work = prepare(frame, profile)
            reading = read_labels(work, profile)
            right, counted, wrong, has_cocked = score(truth, reading, 0.6 * table.die)
            line = {"seed": seed, "drift": name, "turn": k, "die_px": table.die, "side": work.side * work.factor,
                    "status": reading.status, "reasons": list(reading.reasons), "right": right, "counted": counted,
                    "wrong": wrong, "has_cocked": has_cocked, "six": len(truth) == 6,
                    "truth": [{"face": d.face, "x": d.x, "y": d.y, "cocked": d.cocked} for d in truth],
                    "seen": dice_seen(reading, work, profile, crops)}
            mark_truth(line, truth)
            lines.append(line)
    return lines, np.stack(crops) if crops else np.zeros((0,), np.float16)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", required=True, help="FIRST:N,...")
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--spp", type=int, default=8)
    ap.add_argument("--propped", action="store_true", help="the tables' propped turns instead of the thrown ones")
    ap.add_argument("--unseen", type=float, metavar="COCKED",
                    help="2D tables of rig bench vision --unseen instead, this share of their dice leaning")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for first, n in seeds(args.sets):
        for seed in range(first, first + n):
            path = args.out / f"{seed}{'p' if args.propped else 'u' if args.unseen is not None else ''}.jsonl"
            if path.exists():
                continue
            if args.unseen is not None:
                lines, crops = read_unseen(seed, args.turns, args.unseen)
            else:
                lines, crops = read_table(seed, args.turns, args.spp, args.propped)
            np.save(path.with_suffix(".npy"), crops)
            path.write_text("".join(json.dumps(line) + "\n" for line in lines))
            print(f"table {seed}: {len(lines)} lines, {len(crops)} dice", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

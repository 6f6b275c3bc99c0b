"""``rig bench vision --twin``: the colour dice reader on the path-traced twin of the table.

Per twin table (:mod:`rig.twin.table`, seeds from ``--first-table``): the calibration ritual
(six dice laid each face up) and the empty box are rendered and calibration is tried once, as a
new user would; then ``--turns`` thrown turns (pybullet; every fourth with a die leaning on the
wall) are read in the table's light and after each lamp drift of :data:`rig.twin.table.DRIFTS`
(x0.8, x1.2, 700 K warmer). The camera's exposure and white balance are locked at calibration
(set from the empty box, as the calibration page does). Prints per table and light: dice right,
turns with all six right, silent wrong turns, needless flags, flagged cocked-die turns.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path


def calibrated(table, renders: dict, seed: int):
    """The camera locked at calibration and the profile fitted on the ritual: ``(profile, develop)``
    where ``develop(name, drift, k)`` is the frame of a rendered shot (raises VisionError when
    calibration refuses the table). Exposure: the brightest print in the box just below clipping;
    white balance: the camera's auto white balance locked at calibration — the lamps' colour
    neutralised, within a few per cent (a coloured box bottom does not fool it as grey world would)."""
    import numpy as np

    from rig.twin.optics import develop, kelvin_rgb
    from rig.twin.table import DRIFTS
    from rig.vision.calibrate import fit_profile
    from rig.vision.card_empty import EmptyBox, remember

    box = table.floor_mask()
    bright = max(float(np.percentile(renders[f"ritual:{f}"][box], 99.5)) for f in ("blue", "pink", "yellow", "blank"))
    exposure = 0.8 / bright
    cast0 = np.mean([kelvin_rgb(lamp["kelvin"]) for lamp in table.lamps], axis=0)
    gains = (1.0 / cast0) * np.exp(np.random.default_rng([6199, table.seed]).normal(0, 0.03, 3))

    def frame(name_or_rgb, drift="same", k=0):
        lamp, shift = DRIFTS[drift]
        cast = None
        if shift:
            cast = np.mean([kelvin_rgb(lamp_["kelvin"] + shift) for lamp_ in table.lamps], axis=0) / cast0
        rgb = renders[name_or_rgb] if isinstance(name_or_rgb, str) else name_or_rgb
        return develop(rgb, table, exposure=exposure, gains=gains, lamp=lamp, cast=cast, seed=seed * 100 + k)

    ritual = {f: frame(f"ritual:{f}", "same", i) for i, f in enumerate(("blue", "pink", "yellow", "blank"))}
    empty = frame("empty", "same", 9)
    profile = fit_profile(ritual, empty=empty, name=f"twin-{table.seed}").profile
    remember(profile, EmptyBox.of(empty))  # kept beside the profile, as `rig calibrate` does
    return profile, frame


def run(args) -> int:
    import cv2

    from rig.bench.tables import photo_patch
    from rig.bench.twin_hidden import HIDDEN, hidden_shares, tally
    from rig.bench.unseen import _line, textures_dir
    from rig.twin.table import DRIFTS, TwinTable
    from rig.vision.dice import read_dice
    from rig.vision.errors import VisionError

    cv2.setNumThreads(1)
    data = textures_dir(args.textures)
    print(f"rig bench vision --twin: {args.tables} twin tables from seed {args.first_table}, {args.turns} thrown turns "
          f"each, {args.spp} samples per pixel, 1 thread; floor photos from {data or 'nowhere (felt instead)'}")
    head = f"{'light':<13} {'dice':>8} {'6/6 turns':>10} {'silent':>6} {'needless':>9} {'cocked flagged':>15}"
    keys = ("right", "dice", "turns6", "right6", "silent", "needless", "frames", "cocked", "cocked_flagged", "hidden",
            "hidden_flagged")
    total = {name: dict.fromkeys(keys, 0) for name in DRIFTS}
    accepted, times, t_start = 0, [], time.perf_counter()
    show = Path(args.show) if args.show else None
    for seed in range(args.first_table, args.first_table + args.tables):
        table = TwinTable.random(seed, photo=lambda kind, rng: photo_patch(kind, rng, data))
        shots = table.shots(args.turns)
        renders = {s.name: table.render(s, spp=args.spp) for s in shots}
        label = repr(table)[1:-1]
        try:
            profile, frame = calibrated(table, renders, seed)
        except VisionError as exc:
            print(f"{label}\n  calibration REFUSED: {exc}")
            continue
        accepted += 1
        print(f"{label}\n  calibration accepted (die {profile.die_side * table.size[0]:.0f} px)")
        print("  " + head)
        hidden = {s.name: [share > HIDDEN for share in hidden_shares(table, s.dice)]  # under another die: one throw,
                  for s in shots if s.name.startswith("turn:")}  # every light
        for d, drift in enumerate(DRIFTS):
            row = dict.fromkeys(keys, 0)
            for shot in shots:
                if not shot.name.startswith("turn:"):
                    continue
                k = int(shot.name.split(":")[1])
                img = frame(shot.name, drift, 10 + k + 100 * d)
                truth = table.truth(shot)
                t0 = time.perf_counter()
                reading = read_dice(img, profile, thrown=len(truth))  # the game knows six were cast
                times.append(time.perf_counter() - t0)
                tally(row, truth, hidden[shot.name], reading, 0.6 * table.notes["die_px"])
                if show is not None and drift == "same" and k < 3:
                    _draw(show / f"twin-{seed}-turn{k}.png", img, truth, reading)
            for key in row:
                total[drift][key] += row[key]
            print("  " + _line(drift, row).replace(f"{drift:<10}", f"{drift:<13}", 1) + _hidden(row))
    print(f"\nall twin tables: calibration accepted on {accepted} of {args.tables}")
    print("  " + head)
    for drift in DRIFTS:
        print("  " + _line(drift, total[drift]).replace(f"{drift:<10}", f"{drift:<13}", 1) + _hidden(total[drift]))
    moved = {k: sum(total[n][k] for n in DRIFTS if n != "same") for k in keys}
    print("  " + _line("all drift", moved).replace(f"{'all drift':<10}", f"{'all drift':<13}", 1) + _hidden(moved))
    if times:
        print(f"read_dice 640x480: median {statistics.median(times) * 1000:.2f} ms per frame ({len(times)} frames)")
    print(f"took {time.perf_counter() - t_start:.0f} s")
    print("silent: turns read wrong (or with a die hidden under another) with status ok; needless: turns read right, "
          "no cocked or hidden die, flagged anyway; hidden: turns with a die whose top the camera cannot see for the most "
          "part (under another die: not counted in dice), flagged")
    print("targets: accepted on every table; same light dice >= 99.5 %, silent 0, needless <= 5 %; after drift "
          "dice >= 99 %, silent 0, needless <= 10 %; cocked flagged >= 95 %")
    return 0


def _hidden(row: dict) -> str:
    return f"  hidden {row['hidden_flagged']}/{row['hidden']}" if row["hidden"] else ""


def _draw(path: Path, img, truth, reading) -> None:
    """The frame with the reading drawn on: each die read (face, box), the truth's centres, the status."""
    import cv2

    from rig.vision.overlay import draw_dice

    out = draw_dice(img, reading)
    for d in truth:
        cv2.circle(out, (int(d.x), int(d.y)), 3, (0, 255, 0) if not d.cocked else (0, 0, 255), -1)
        cv2.putText(out, d.face, (int(d.x) + 5, int(d.y) + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 255, 0), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), out)

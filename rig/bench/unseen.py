"""``rig bench vision --unseen``: calibrate and read tables drawn by an independent generator.

Per table (:mod:`rig.bench.tables`, seeds from ``--first-table``; seeds 0-99 are the set the
reader was tuned on): fit a profile from the ritual and the empty box, once, in the table's
light; then read ``--turns`` random turns in the same light and after each drift of
:data:`rig.bench.tables.DRIFTS` (exposure x0.7 .. x1.3, white balance half a step warmer /
cooler). Prints, per table and per light: dice right, turns with all six dice right, silent
wrong turns (wrong and status ok — must be 0), needless flags (read right, no cocked die,
flagged anyway), flagged cocked-die turns, and the median ms per frame.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def textures_dir(arg: str | None) -> Path | None:
    path = Path(arg or os.environ.get("RIG_TEXTURES") or PROJECT_ROOT.parent / "shared" / "data")
    return path if path.is_dir() else None


def score(truth, reading, tol: float, hidden=None) -> tuple[int, int, bool, bool]:
    """(dice right, dice counted, turn wrong, has a cocked die) for one frame. ``hidden``: per true die, whether the
    camera cannot see its top (the twin's dice under another, :mod:`rig.bench.twin_hidden`): those are matched last,
    to what is left, and neither right nor wrong."""
    hidden = hidden or [False] * len(truth)
    used: set[int] = set()
    right = counted = 0
    wrong = False
    for k in sorted(range(len(truth)), key=lambda k: bool(hidden[k])):
        d = truth[k]
        best, best_dist = None, tol
        for i, o in enumerate(reading.dice):
            dist = ((o.x - d.x) ** 2 + (o.y - d.y) ** 2) ** 0.5
            if i not in used and dist < best_dist:
                best, best_dist = i, dist
        ok = best is not None and reading.dice[best].face == d.face
        if best is not None:
            used.add(best)
        if hidden[k]:
            continue  # what is read there (if anything) is neither right nor wrong: the camera cannot see it
        wrong |= not ok
        if not d.cocked:
            counted += 1
            right += ok
    wrong |= len(reading.dice) > len(used)
    return right, counted, wrong, any(d.cocked for d in truth)


def tally(row: dict, truth, reading, tol: float) -> None:
    """Add one frame's reading to ``row``: dice right and counted, silent and needless flags, cocked dice."""
    right, counted, wrong, cocked = score(truth, reading, tol)
    flagged = reading.status != "ok"
    row["frames"] += 1
    row["right"] += right
    row["dice"] += counted
    row["silent"] += wrong and not flagged
    row["needless"] += flagged and not wrong and not cocked
    row["cocked"] += cocked
    row["cocked_flagged"] += cocked and flagged
    if len(truth) == 6 and not cocked:
        row["turns6"] += 1
        row["right6"] += not wrong


def run(args) -> int:
    import cv2

    from rig.bench.tables import DRIFTS, Table
    from rig.vision.calibrate import fit_profile
    from rig.vision.card_empty import EmptyBox, remember
    from rig.vision.dice import read_dice
    from rig.vision.errors import VisionError

    cv2.setNumThreads(1)
    data = textures_dir(args.textures)
    print(f"rig bench vision --unseen: {args.tables} tables from seed {args.first_table}, {args.turns} turns per "
          f"light, 1 thread; textures from {data or 'nowhere (wood/tray floors become felt)'}")
    head = f"{'table':<44} {'light':<10} {'dice':>8} {'6/6 turns':>10} {'silent':>6} {'needless':>9} {'cocked flagged':>15}"
    total: dict[str, dict] = {name: dict.fromkeys(("right", "dice", "turns6", "right6", "silent", "needless",
                                                   "frames", "cocked", "cocked_flagged"), 0) for name in DRIFTS}
    accepted, times, t_start = 0, {}, time.perf_counter()
    for seed in range(args.first_table, args.first_table + args.tables):
        table = Table.random(seed, data=data)
        frames, empty = table.ritual()
        label = repr(table)[1:-1].replace("Table ", "table ")
        try:
            profile = fit_profile(frames, empty=empty, name=f"unseen-{seed}").profile
            remember(profile, EmptyBox.of(empty))  # kept beside the profile, as `rig calibrate` does
        except VisionError as exc:
            print(f"{label}\n  calibration REFUSED: {exc}")
            continue
        accepted += 1
        print(f"{label}\n  calibration accepted (die {profile.die_side * table.size[0]:.0f} px)")
        print("  " + head[45:])
        for name, drift in DRIFTS.items():
            row = dict.fromkeys(total[name], 0)
            for k in range(args.turns):
                frame, truth = table.turn(k, drift)
                t0 = time.perf_counter()
                reading = read_dice(frame, profile)
                times.setdefault(table.size, []).append(time.perf_counter() - t0)
                tally(row, truth, reading, 0.6 * table.die)
            for key in row:
                total[name][key] += row[key]
            print("  " + _line(name, row))
    print(f"\nall tables: calibration accepted on {accepted} of {args.tables}")
    print("  " + head[45:])
    for name in DRIFTS:
        print("  " + _line(name, total[name]))
    drift = {k: sum(total[n][k] for n in DRIFTS if n != "same") for k in total["same"]}
    print("  " + _line("all drift", drift))
    for size, ts in sorted(times.items()):
        print(f"read_dice {size[0]}x{size[1]}: median {statistics.median(ts) * 1000:.2f} ms per frame "
              f"({len(ts)} frames)")
    print(f"took {time.perf_counter() - t_start:.0f} s")
    print("silent: turns read wrong with status ok; needless: turns read right, no cocked die, flagged anyway")
    print("targets: accepted on every table; same light dice >= 99.5 %, silent 0, needless <= 5 %; "
          "after drift dice >= 99 %, silent 0, needless <= 10 %")
    return 0


def _pct(a: int, b: int) -> str:
    return "-" if b == 0 else f"{100.0 * a / b:.1f}%"


def _line(name: str, row: dict) -> str:
    return (f"{name:<10} {_pct(row['right'], row['dice']):>8} {row['right6']:>4}/{row['turns6']:<5} "
            f"{row['silent']:>6} {_pct(row['needless'], row['frames']):>9} {row['cocked_flagged']:>7}/{row['cocked']:<7}")

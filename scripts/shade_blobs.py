"""Every blob of die body in shade the reader's "die in shadow or on edge" test weighs on twin turns, and what a bound
on the disc it holds would do to the bench's figures (issue 24, round 18: rig.vision.dice_shade).

``dump`` reads twin turns as ``rig bench vision --twin`` does (``scripts/twin_turns.py``: cached renders, every light,
the count of dice thrown given), the shade test as before round 18 (any blob flagged), its blob search watched: per turn its reasons, the bench's scoring
(dice right, wrong, cocked, hidden) and each blob that passes the size and mean-width tests (its place, size, largest
inscribed disc, its mask packed). ``report`` scores the dumped turns as the bench does, as read and with the shade
flag left out where every die thrown is read and no blob holds a disc of ``--core`` die sides (what
``rig.vision.dice_shade.CORE`` does), per set, and lists the turns that change; ``--blobs`` lists the discs.

    .venv/bin/python scripts/shade_blobs.py dump --sets 10100:12,10000:12 --out ~/.cache/rig/dice/r18/blobs
    .venv/bin/python scripts/shade_blobs.py dump --sets 5000:24 --propped --out ~/.cache/rig/dice/r18/blobs
    .venv/bin/python scripts/shade_blobs.py report --dir ~/.cache/rig/dice/r18/blobs --sets 10100:12,10000:12 --core 0.3
"""

from __future__ import annotations

import base64
import inspect
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from twin_turns import dump_tables, seeds, study_parser, truth_poses  # noqa: E402

SHADE = "die in shadow or on edge"
DRIFTS = ("same", "lamp x0.8", "lamp x1.2", "700 K warmer")
KEYS = ("frames", "right", "dice", "silent", "needless", "cocked", "cocked_flagged", "turns6", "right6")


def watch(found: list) -> None:
    """Have ``rig.vision.dice_shade.blob`` append every blob the shade test weighs (a list a call) to ``found``, and
    the test flag any blob as before round 18 (``CORE`` 0: the report applies the bound)."""
    import cv2

    import rig.vision.dice as dice
    import rig.vision.dice_shade as shade
    from rig.vision.dice_shade import core

    from rig.vision.pixel_classes import _K3

    shade.CORE = 0.0

    shipped = dice._blob

    def blob(mask, least, thick=0.0, disc=0.0):
        if inspect.currentframe().f_back.f_locals.get("what") == SHADE:
            opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
            n, labels, stats, centres = cv2.connectedComponentsWithStats(opened, connectivity=8)
            blobs = []
            for j in range(1, n):
                x, y, w, h, area = (int(v) for v in stats[j])
                if area >= least and area >= thick * max(w, h):
                    bits = np.packbits(labels[y : y + h, x : x + w] == j).tobytes()
                    blobs.append({"c": [float(v) for v in centres[j]], "x": x, "y": y, "w": w, "h": h, "area": area,
                                  "core": core(labels, j, stats[j]), "bits": base64.b64encode(bits).decode()})
            found.append(blobs)
        return shipped(mask, least, thick, disc)

    dice._blob = blob


def dump(sets: str, propped: bool, out: Path) -> None:
    found: list = []
    watch(found)
    hiding: dict = {}

    def row(seed, table, profile, die_px, drift, shot, k, work, truth, reading):
        from rig.bench.twin_hidden import HIDDEN, hidden_shares, score

        if (seed, shot.name) not in hiding:
            hiding[seed, shot.name] = [s > HIDDEN for s in hidden_shares(table, shot.dice)]
        right, counted, wrong, cocked, hid = score(truth, hiding[seed, shot.name], reading, 0.6 * die_px)
        blobs = found[-1] if found else []
        found.clear()
        return {"seed": seed, "drift": drift, "turn": k, "status": reading.status, "reasons": [str(r) for r in reading.reasons],
                "right": right, "counted": counted, "wrong": bool(wrong), "cocked": bool(cocked), "hid": bool(hid),
                "n": len(truth), "seen": len(reading.dice), "side": float(work.side), "f": float(work.factor),
                "blobs": blobs, "paired": len(truth_poses(truth, reading.dice, shot, die_px))}

    dump_tables(sets, propped, out, row)


def status(line: dict, core: float) -> str:
    """The turn's status with the shade flag (the first blob's) left out where every die thrown is read and no blob
    holds a disc of ``core`` die sides (0: as read)."""
    reasons = list(line["reasons"])
    if core > 0 and line["blobs"] and line["seen"] >= line["n"]:
        if not any(b["core"] >= core * line["side"] for b in line["blobs"]):
            x, y = ((v + 0.5) * line["f"] for v in line["blobs"][0]["c"])
            for r in reasons:
                m = re.match(re.escape(SHADE) + r" at \(([\d.]+), ([\d.]+)\)", r)
                if m and abs(float(m[1]) - x) <= 1.01 and abs(float(m[2]) - y) <= 1.01:
                    reasons.remove(r)
                    break
    return "uncertain" if reasons else "ok"


def tally(row: dict, line: dict, st: str) -> None:
    """As ``rig.bench.twin_hidden.tally``."""
    flagged, bad = st != "ok", line["wrong"] or line["hid"]
    row["frames"] += 1
    row["right"] += line["right"]
    row["dice"] += line["counted"]
    row["silent"] += bad and not flagged
    row["needless"] += flagged and not bad and not line["cocked"]
    row["cocked"] += line["cocked"]
    row["cocked_flagged"] += line["cocked"] and flagged
    if line["n"] == 6 and not line["cocked"] and not line["hid"]:
        row["turns6"] += 1
        row["right6"] += not line["wrong"]


def _line(name: str, row: dict) -> str:
    def pct(a, b):
        return f"{100 * a / b:.1f}%" if b else "-"

    return (f"{name:<13} {pct(row['right'], row['dice']):>8} {row['right6']:>4}/{row['turns6']:<5} {row['silent']:>6} "
            f"{pct(row['needless'], row['frames']):>9} {row['cocked_flagged']:>7}/{row['cocked']:<7}")


def report(folder: Path, sets: str, core: float, propped: bool, show_blobs: bool) -> None:
    print("set / reading: light, dice, 6/6 turns, silent, needless, cocked flagged")
    for first, n in seeds(sets):
        rows = {v: defaultdict(lambda: dict.fromkeys(KEYS, 0)) for v in ("as read", f"core {core}")}
        for seed in range(first, first + n):
            path = folder / f"{seed}{'p' if propped else ''}.json"
            if not path.exists():
                continue
            for line in json.loads(path.read_text()):
                before, after = status(line, 0.0), status(line, core)
                tally(rows["as read"][line["drift"]], line, before)
                tally(rows[f"core {core}"][line["drift"]], line, after)
                if before != after:
                    print(f"  {seed} turn {line['turn']} {line['drift']}: {before} -> {after}")
                if show_blobs:
                    for b in line["blobs"]:
                        print(f"  blob {seed} turn {line['turn']} {line['drift']}: {b['w'] / line['side']:.1f} x "
                              f"{b['h'] / line['side']:.1f} die sides, disc {b['core'] / line['side']:.2f}")
        for v, by in rows.items():
            drift = {k: sum(by[d][k] for d in DRIFTS[1:]) for k in KEYS}
            print(f"{first}:{n} {v}: {_line('same', by['same'])} | {_line('all drift', drift)}")


def main(argv=None) -> int:
    ap, r = study_parser(__doc__)
    r.add_argument("--sets", required=True)
    r.add_argument("--core", type=float, default=0.3, help="die sides (default 0.3)")
    r.add_argument("--propped", action="store_true")
    r.add_argument("--blobs", action="store_true", help="list every blob's size and disc")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        dump(args.sets, args.propped, args.out)
    else:
        report(args.dir, args.sets, args.core, args.propped, args.blobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())

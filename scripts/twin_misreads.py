"""Every twin die read wrong, one by one, with where it lies and its crop: why dice are read wrong (issue 24, round 14).

Takes the turn lines ``scripts/twin_turns.py --out DIR`` wrote (the bench's own readings) and, for every die read
wrong in the chosen lights (a true die not found or read as another face, a die read where none is), throws the
turn's dice again (pybullet, the same seeds: the same poses the renders show) to say where it lies:

- ``wall``: the gap between the die and the nearest tray wall (mm; < 3 mm: by a wall);
- ``touch``: the gap to the nearest other die (mm; < 3 mm: touching another);
- ``hidden``: the share of its top face the camera cannot see (:func:`rig.bench.twin_hidden.hidden_shares`) —
  more than half hidden (under another die), the bench counts it apart;
- ``tilt``: how far its top leans (degrees; the truth calls > 10 cocked);
- ``dark``: the middle of its top darker than :data:`DARK` of the floor's median (with ``--crops``: in shade);
- ``deep`` / ``glare`` / ``small``: the reader's own measures of the die it read there (in a wall's deep shade,
  under the floor's glare, its lit top smaller than a die's);
- ``gain`` (with ``--crops``): the light correction at the die's place over the frame's overall one (the largest
  of B, G, R; :attr:`rig.vision.dice_frames.Work.overall_gain`): a lit top where the floor's correction is 1.5 times
  the overall clips (round 17: twin 10004's near wall's shade band);
- ``px``: the die's side in the frame (the table's) and at the reader's working scale (round 17: is it the small dice?).

With ``--crops DIR`` each wrong die's crop (3 die sides around the truth, x4) is written as a PNG, its name the
table, light, turn, truth and reading. Prints one line per wrong die and a count by cause.

    .venv/bin/python scripts/twin_misreads.py ~/.cache/rig/acc/before --sets 100:17,6000:12 --crops ~/.cache/rig/acc/crops
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from twin_turns import load, match, near_reasons, reason_kind  # noqa: E402

from rig.bench.twin_hidden import HIDDEN, hidden_shares  # noqa: E402


def where(table, dice: list, i: int, shares: list[float]) -> dict:
    """Where die ``i`` of a shot lies: wall and neighbour gaps (mm), tilt, and the share of its top hidden."""
    from rig.twin import physics

    d = dice[i]
    c, r = np.array(d.centre), np.array(d.rotation)
    half = physics.DIE / 2
    corners = np.array([(sx, sy, sz) for sx in (-half, half) for sy in (-half, half) for sz in (-half, half)])
    world = c + corners @ r.T
    w, h = table.tray
    wall = min(w / 2 - np.abs(world[:, 0]).max(), h / 2 - np.abs(world[:, 1]).max())
    gaps = []
    for j, o in enumerate(dice):
        if j != i:  # the gap between two cubes, near enough: the least distance from one's corners to the other
            oc, orot = np.array(o.centre), np.array(o.rotation)
            g1 = np.sqrt((np.maximum(np.abs((world - oc) @ orot) - half, 0) ** 2).sum(1)).min()
            g2 = np.sqrt((np.maximum(np.abs((oc + corners @ orot.T - c) @ r) - half, 0) ** 2).sum(1)).min()
            gaps.append(min(g1, g2))
    tilt = math.degrees(math.acos(min(1.0, float(np.abs(r[2]).max()))))
    return {"wall": 1000 * wall, "touch": 1000 * min(gaps) if gaps else 99.0, "tilt": tilt, "hidden": shares[i]}


#: a die whose top's middle is darker than this share of the floor's median lies in shade
DARK = 0.4


def cause(row: dict) -> str:
    """The die's place, first match: hidden in part, leaning, touching another, by a wall, in deep shade, under
    glare, in the open."""
    if row["hidden"] > HIDDEN:
        return "under another die (hidden)"
    if row["hidden"] >= 0.05:
        return "hidden in part"
    if row["tilt"] > 10:  # (the truth's own bound for cocked)
        return "leaning (cocked)"
    if row["touch"] < 3:
        return "touching another die"
    if row["wall"] < 3:
        return "by a wall, in its shade" if row.get("dark") else "by a wall"
    if row.get("deep") or row.get("dark"):
        return "in a wall's deep shade"
    if row.get("glare"):
        return "under the floor's glare"
    return "in the open"


def wrong_dice(lines: list[dict], lights: set[str]):
    """(line, truth index or None, seen index or None, what) for each die read wrong."""
    for s in lines:
        if "refused" in s or s["drift"] not in lights:
            continue
        pairs, extra = match(s)
        for ti, si in enumerate(pairs):
            if si is None or s["seen"][si]["face"] != s["truth"][ti]["face"]:
                yield s, ti, si, "not found" if si is None else "misread"
        for si in extra:
            yield s, None, si, "read where none is"


def place_gain(img: np.ndarray, profile, x: float, y: float) -> tuple[float | None, float]:
    """The reader's light correction at frame point (``x``, ``y``) over the frame's overall one (the largest of B, G,
    R; None without a floor model), and the die's side at the working scale."""
    from rig.vision.dice import prepare

    work = prepare(img, profile)
    if work.gain is None:
        return None, work.side
    f, (gh, gw) = work.factor, work.gain.shape[:2]
    gx, gy = min(gw - 1, max(0, int(x / f))), min(gh - 1, max(0, int(y / f)))
    return float((work.gain[gy, gx] / np.maximum(work.overall_gain, 1e-6)).max()), work.side


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lines", type=Path, help="the folder twin_turns.py --out wrote")
    ap.add_argument("--sets", required=True, help="FIRST:N,...")
    ap.add_argument("--lights", default="same", help="comma-separated: same, lamp x0.8, lamp x1.2, 700 K warmer, or all")
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--crops", type=Path, help="write each wrong die's crop here")
    args = ap.parse_args(argv)
    import cv2

    from rig.bench.tables import photo_patch
    from rig.bench.twin import calibrated
    from rig.bench.unseen import textures_dir
    from rig.twin.table import DRIFTS, TwinTable

    lights = set(DRIFTS) if args.lights == "all" else set(args.lights.split(","))
    data = textures_dir(None)
    rows = []
    for first, lines in load(args.lines, args.sets).items():
        by_seed: dict = {}
        for item in wrong_dice(lines, lights):
            by_seed.setdefault(item[0]["seed"], []).append(item)
        for seed, items in sorted(by_seed.items()):
            table = TwinTable.random(seed, photo=lambda kind, rng: photo_patch(kind, rng, data))
            shots = {s.name: s for s in table.shots(args.turns)}
            frame = None
            if args.crops:
                renders = {n: table.render(s, spp=8) for n, s in shots.items()}
                profile, frame = calibrated(table, renders, seed)
            for s, ti, si, what in items:
                shot = shots[f"turn:{s['turn']}"]
                truth = s["truth"][ti] if ti is not None else None
                o = s["seen"][si] if si is not None else None
                shares = hidden_shares(table, shot.dice)
                if truth is not None:
                    place = where(table, shot.dice, ti, shares)
                else:  # a die read where none is: the nearest true die's place
                    near = min(range(len(s["truth"])),
                               key=lambda k: (s["truth"][k]["x"] - o["x"]) ** 2 + (s["truth"][k]["y"] - o["y"]) ** 2)
                    place = where(table, shot.dice, near, shares)
                x, y = (truth["x"], truth["y"]) if truth else (o["x"], o["y"])
                row = {"seed": seed, "light": s["drift"], "turn": s["turn"], "what": what,
                       "truth": (truth["face"] + (" cocked" if truth["cocked"] else "")) if truth else "-",
                       "read": o["face"] if o else "-", "status": s["status"],
                       "reasons": near_reasons(s, x, y) or sorted({reason_kind(r) for r in s["reasons"]}),
                       "deep": bool(o and o["deep"]), "glare": bool(o and o["glare"]), "small": bool(o and o["small"]),
                       "x": x, "y": y, "px": s["die_px"], **place}
                if frame is not None:
                    d = list(DRIFTS).index(s["drift"])
                    img = frame(shot.name, s["drift"], 10 + s["turn"] + 100 * d)
                    grey = img.mean(axis=2)
                    q = max(2, int(0.3 * s["die_px"]))
                    top = grey[max(0, int(y) - q):int(y) + q, max(0, int(x) - q):int(x) + q]
                    row["dark"] = bool(top.size and np.median(top) < DARK * np.median(grey[table.floor_mask()]))
                    row["gain"], row["work_px"] = place_gain(img, profile, x, y)
                row["cause"] = cause(row)
                rows.append(row)
                if frame is not None:
                    r = int(1.5 * s["die_px"])
                    x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
                    crop = cv2.resize(img[y0:int(y) + r, x0:int(x) + r], None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
                    name = (f"{seed}-{s['drift'].replace(' ', '')}-t{s['turn']}-{row['truth'].replace(' ', '_')}-as-"
                            f"{row['read']}-{int(x)}_{int(y)}.png")
                    args.crops.mkdir(parents=True, exist_ok=True)
                    cv2.imwrite(str(args.crops / name), crop)
    print(f"{'table':>5} {'light':<12} t {'truth':<18} {'read':<12} {'status':<7} {'wall':>5} {'touch':>5} {'tilt':>4} "
          f"{'hid':>4} {'px':>9} {'gain':>4} dg sk  cause / reasons at its place (d deep, g glare, s small top, k dark)")
    for r in rows:
        size = f"{r['px']:.0f}/{r['work_px']:.0f}" if "work_px" in r else f"{r['px']:.0f}"
        gain = f"{r['gain']:4.2f}" if r.get("gain") is not None else "   -"
        print(f"{r['seed']:>5} {r['light']:<12} {r['turn']} {r['truth']:<18} {r['read']:<12} {r['status']:<7} "
              f"{r['wall']:5.1f} {r['touch']:5.1f} {r['tilt']:4.0f} {r['hidden']:4.2f} {size:>9} {gain} {'d' if r['deep'] else '.'}"
              f"{'g' if r['glare'] else '.'} {'s' if r['small'] else '.'}{'k' if r.get('dark') else '.'}  {r['cause']} / {'; '.join(r['reasons'])}")
    print("\nby cause:", dict(Counter(r["cause"] for r in rows).most_common()))
    if any(r.get("gain") is not None for r in rows):
        print("where the place's correction is >= 1.5 x the overall:", sum((r.get("gain") or 0) >= 1.5 for r in rows),
              "of", len(rows))
    print("by what:", dict(Counter(r["what"] for r in rows).most_common()))
    return 0



if __name__ == "__main__":
    sys.exit(main())

"""A leaning die's side face on the side where a flat die shows none, measured by its hue at any label (issue 24, round 17).

The truly cocked dice the reader left unflagged on twin 10000-10011 (10000, 10005 and 10007 turn 3) lean 25-31 degrees
on a tray wall with their tops turned towards the room, so their tops measure square and die-sized; what shows is a
side face beyond the top's wall-side edge, away from the lens's nadir, where a flat die shows none. The flank test
and :func:`rig.vision.dice_upright.side_faces` count only the pixels the colour table calls dark (edge, unknown,
clipped); 10000's side face is labelled floor and 10005's lit body joined to the top. This measures, per edge of the
lit top's least rectangle, the die-hued pixels beyond it (any label but the lit top: hue at most
:data:`rig.vision.dice_frames.SIDE_HUE` times as far from the lit top's body as from the floor around the die, and
nearer the top's; joined to the lit top; within :data:`REACH` die sides; not nearer another die read), over the side
face the flat sweep puts there (:data:`rig.vision.dice_upright.VIEW`): ``far`` per edge ``(width, sweep)``.
``far3`` / ``far4`` count only such pixels at least 0.3 / 0.4 (and at most 1.0) times as bright as the lit top: a cast
shadow is darker than a side face lit by the room; "far4, missing" asks ``far4`` only of a die missing :data:`MISSING`
die sides of its nadir-facing side face (``rig.vision.dice_upright.turned_to_lens`` on the branch
``issue-dice7-litside``, which also leaves out the box's die-coloured print).

``dump`` reads twin turns as ``scripts/top_cues.py`` does (the second look off: the reader's own flags), ``report``
prints how many truly cocked die-lights a bound on the most over the sweep would flag and how many flat ones.

    .venv/bin/python scripts/far_face.py dump --sets 10000:12,9000:12 --out ~/.cache/rig/dice/r17/far2
    .venv/bin/python scripts/far_face.py dump --sets 5100:12 --propped --out ~/.cache/rig/dice/r17/far2
    .venv/bin/python scripts/far_face.py report --dir ~/.cache/rig/dice/r17/far2 --sets 10000:12,5100p:12
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: die sides beyond the lit top's edge where the side face is looked for
REACH = 0.5
#: the bounds tried on the most die-hued band over the sweep (die sides)
BOUNDS = (0.15, 0.2, 0.25, 0.3)
#: the guard tried with ``far4``: the die misses at least this much of the side face the sweep puts beyond a
#: nadir-facing edge (:func:`rig.vision.dice_upright.side_faces`' second number; its top turned to the lens hides it)
MISSING = 0.1
VARIANTS = {"far": (0.0, 9.0), "far3": (0.3, 9.0), "far4": (0.4, 1.0)}


def far_face(obs, work, others=(), around=None, lo: float = 0.0, hi: float = 9.0) -> list | None:
    """Per edge of the die's lit top (+e1, -e1, +e2, -e2) the die-hued band beyond it (die sides) and the side face the
    flat sweep puts there: ``[(width, sweep), ...]``; None without a lit top or floor round it. ``lo``, ``hi``: the
    band's pixels' brightness over the lit top's (sum of B, G, R)."""
    import cv2

    from rig.vision.dice_cocked import _around, _radial
    from rig.vision.dice_frames import SIDE_HUE
    from rig.vision.dice_upright import VIEW, _lit
    from rig.vision.pixel_classes import BG, BODY

    around = around if around is not None else _around(obs, work, others)
    found = _lit(around)
    if found is None:
        return None
    lit, (y0, x0), outline = found
    _, mine, _, _, X0, Y0, lab = around
    (cx, cy), (w, h), ang = cv2.minAreaRect(outline)
    small = work.small[Y0 : Y0 + lab.shape[0], X0 : X0 + lab.shape[1]].astype(np.float32) + 4.0
    body = lit & (lab == BODY)
    side = work.side
    dist = np.hypot(np.arange(lab.shape[1])[None, :] - cx, np.arange(lab.shape[0])[:, None] - cy)
    floor = (lab == BG) & (dist > 0.9 * side)
    if mine is not None:
        floor &= mine
    if np.count_nonzero(body) < 8 or np.count_nonzero(floor) < 8:
        return None
    top, ground = small[body].mean(0), small[floor].mean(0)
    hue = small / small.sum(2, keepdims=True)
    dt = np.abs(hue - top / top.sum()).sum(2)
    dg = np.abs(hue - ground / ground.sum()).sum(2)
    bright = small.sum(2) / top.sum()
    cand = (dt <= SIDE_HUE * dg) & (dt < dg) & ~lit & (bright >= lo) & (bright <= hi)
    if mine is not None:
        cand &= mine
    _, cc = cv2.connectedComponents((lit | cand).view(np.uint8), connectivity=8)
    dy, dx = np.nonzero((cc == cc[y0, x0]) & ~lit)
    a = math.radians(ang)
    axes = (np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)]))
    half = ((w + 1.0) / 2, (h + 1.0) / 2)
    px = np.column_stack([dx - cx, dy - cy]).astype(np.float64)
    u0, u1 = px @ axes[0], px @ axes[1]
    along, across = np.stack((u0, -u0, u1, -u1)), np.stack((u1, u1, u0, u0))
    beyond = along - np.array([half[0], half[0], half[1], half[1]])[:, None]
    band = (beyond > 0) & (beyond <= REACH * side) & (np.abs(across) <= np.array([half[1]] * 2 + [half[0]] * 2)[:, None])
    counts = np.count_nonzero(band, axis=1).tolist()
    rx, ry = _radial(obs, work)
    v = -VIEW * np.array([rx, ry])
    normals = (axes[0], -axes[0], axes[1], -axes[1])
    return [(round(counts[e] / max(2 * half[1 - e // 2], 1.0) / side, 3), round(max(0.0, float(normals[e] @ v)), 3))
            for e in range(4)]


def dump(sets: str, propped: bool, out: Path) -> None:
    import rig.vision.dice_second_look as second
    from rig.vision.dice_cocked import _around
    from rig.vision.dice_upright import side_faces
    from twin_turns import dump_tables, truth_poses

    def row(seed, table, profile, die_px, drift, shot, k, work, truth, reading):
        pose = truth_poses(truth, reading.dice, shot, die_px)
        seen = []
        for i, o in enumerate(reading.dice):
            e = {"x": o.x, "y": o.y, "face": o.face, "cocked": bool(o.cocked), "state": "none", "area": o.area,
                 "aspect": o.aspect}
            if i in pose:
                d, p = pose[i]
                e.update(state="cocked" if d.cocked else "flat", tilt=p.tilt_deg, centre=[float(v) for v in p.centre])
            around = _around(o, work, reading.dice)
            for key, (lo, hi) in VARIANTS.items():
                e[key] = far_face(o, work, reading.dice, around, lo, hi)
            sf = side_faces(o, work, reading.dice, around)
            e["sf"] = None if sf is None else [float(v) for v in sf]
            seen.append(e)
        return {"seed": seed, "drift": drift, "turn": k, "reasons": [str(r) for r in reading.reasons], "seen": seen}

    second.ENABLED = False  # the reader's own flags
    dump_tables(sets, propped, out, row)


def _over(d: dict, key: str) -> float | None:
    return None if not d.get(key) else max(w - sweep for w, sweep in d[key])


def report(folder: Path, sets: str) -> None:
    from twin_turns import dumped

    lines = list(dumped(folder, sets))
    print(f"{sets}: {len(lines)} turn-lights")
    print("| measure | bound | unflagged cocked die-lights flagged | of them in turns read ok | unflagged flat die-lights "
          "flagged | of them in turns read ok |\n| --- | --- | --- | --- | --- | --- |")
    for key in (*VARIANTS, "far4, missing"):
        for bound in BOUNDS:
            c = Counter()
            for line in lines:
                for d in line["seen"]:
                    if d["cocked"] or d["state"] == "none":
                        continue
                    x = _over(d, key.split(",")[0])
                    if key.endswith("missing") and (d["sf"] is None or d["sf"][1] < MISSING):
                        x = None
                    c[d["state"]] += 1
                    c[d["state"], "ok"] += not line["reasons"]
                    if x is not None and x >= bound:
                        c[d["state"], "hit"] += 1
                        c[d["state"], "hit ok"] += not line["reasons"]
            print(f"| {key} | {bound} | {c['cocked', 'hit']} / {c['cocked']} | {c['cocked', 'hit ok']} / {c['cocked', 'ok']} | "
                  f"{c['flat', 'hit']} / {c['flat']} | {c['flat', 'hit ok']} / {c['flat', 'ok']} |")
    print("\nunflagged cocked die-lights in turns read ok: table light turn face tilt, most over the sweep (far, far3, far4)")
    for line in lines:
        for d in line["seen"]:
            if d["state"] == "cocked" and not d["cocked"] and not line["reasons"]:
                vals = ", ".join("-" if _over(d, k) is None else f"{_over(d, k):.2f}" for k in VARIANTS)
                print(f"  {line['seed']} {line['drift']} turn {line['turn']} {d['face']} {d['tilt']:.0f}°: {vals}")


def main() -> None:
    from twin_turns import study_parser

    ap, r = study_parser(__doc__)
    r.add_argument("--sets", required=True)
    a = ap.parse_args()
    if a.cmd == "dump":
        dump(a.sets, a.propped, a.out)
    else:
        report(a.dir, a.sets)


if __name__ == "__main__":
    main()

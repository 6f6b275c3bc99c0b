"""Does a die the reader calls cocked look as a flat die looks at its place? (issue 24, round 15)

A camera looking down from a height H sees a flat die of side s at image point p as its top square and, swept from
it towards the view's nadir (the point straight below the lens), the side faces that face the lens: the die's base
is its top shrunk by (H - s) / H about the nadir, so its outline is its top swept along ``v = -(s / H)(p - nadir)``,
and the side face beyond each edge of the top is as wide as that edge's outward normal along ``v`` (none beyond the
edges facing away from the nadir). In die sides, ``v = -c (r - nadir)`` with ``r`` the die's offset from the frame
centre in frame widths and ``c`` the frame's width on the floor over the lens's height (on the twin 0.53-0.71,
the nadir within 0.08 frame widths of the centre, fitted on the true dice's projection; calibration's ``walls`` k
is no measure of it: -0.33 to +0.02 on the same tables). A die leaning by t shows a silhouette cos t + sin t long
along its lean, or a side face beyond an edge facing away from the nadir.

``dump``: every die read on twin turns (the second look off, as ``scripts/frog_crops.py`` reads them), with its
outline (:func:`outline`), its flags, the true die it matches (flat or cocked) and that die's true sweep ``v``
(its top's centre and the point a die side below it, projected through the twin's camera). ``report``: how the
outline measures (against ``v`` with ``c`` = :data:`VIEW` and the nadir at the frame centre, or the true ``v``)
of the flagged flat dice and of the truly cocked dice compare: a die is freed when every measure lies within the
central share of the unflagged flat dice of the fitting tables.

    .venv/bin/python scripts/flat_outline.py dump --sets 100:17,8600:12 --out ~/.cache/rig/dice/r15/geo
    .venv/bin/python scripts/flat_outline.py dump --sets 5000:24 --propped --out ~/.cache/rig/dice/r15/geo
    .venv/bin/python scripts/flat_outline.py report --dir ~/.cache/rig/dice/r15/geo --fit 100:17,5000p:24 \
        --check 8700:12,9900:12
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: the frame's width on the floor over the lens's height (the twin's tables: 0.53-0.71)
VIEW = 0.62
#: the measures :func:`report` bounds (see :func:`measures`)
KEYS = ("over", "under", "fill", "ratio", "short", "long", "top", "sil", "ex", "miss", "off")


def outline(obs, work, others=()) -> dict | None:
    """A die's outline at the working scale: its lit top's least rectangle (``rect``: centre from the die's centre,
    sides in die sides, angle), per edge of it (+e1, -e1, +e2, -e2) its outward normal, the mean width of its own
    die-hued shade beyond it and how far that reaches (``edges``, die sides), its silhouette (the lit top and the
    shade joined to it: least rectangle's centre, sides, axes and fill, ``srect``), the lit top's and silhouette's
    areas in die sides squared and a flat top's side (``flat``). None without a lit top of a few pixels."""
    import cv2

    from rig.vision.dice_cocked import _around
    from rig.vision.dice_upright import top_edges

    around = _around(obs, work, others)
    xx, yy = around[2:4]
    found = top_edges(around, work.side)
    if found is None:
        return None
    lit, sil, ((cx, cy), (w, h), ang), sides = found
    s = work.side
    edges = [[float(normal[0]), float(normal[1]), width,
              float(np.percentile(beyond, 95)) / s if len(beyond) >= 3 else 0.0] for normal, width, beyond in sides]
    sy, sx = np.nonzero(sil)
    (qx, qy), (qw, qh), qa = cv2.minAreaRect(np.column_stack([sx, sy]).astype(np.float32))
    qa = math.radians(qa)
    return {"srect": [float(xx[0, 0] + qx) / s, float(yy[0, 0] + qy) / s, (qw + 1.0) / s, (qh + 1.0) / s,
                      math.cos(qa), math.sin(qa), -math.sin(qa), math.cos(qa), len(sx) / ((qw + 1.0) * (qh + 1.0))],
            "rect": [float(xx[0, 0] + cx) / s, float(yy[0, 0] + cy) / s, (w + 1.0) / s, (h + 1.0) / s, float(ang)],
            "edges": edges, "top": float(np.count_nonzero(lit)) / s**2, "sil": float(np.count_nonzero(sil)) / s**2,
            "flat": float(np.sqrt(max(work.top_area, 1e-6)) / s)}


def measures(m: dict, v) -> dict:
    """:data:`KEYS` of a die's :func:`outline` against the flat sweep ``v`` (die sides): the silhouette's sides beyond
    what the swept top predicts (most, ``over``; least, ``under``), its fill of its least rectangle, its short over
    long side (``ratio``), the lit top's short and long side over a flat top's, the lit top's and silhouette's areas,
    the most shade beyond an edge of the lit top over the sweep there (``ex``), the predicted side face least seen
    (``miss``), and the silhouette's centre off the swept top's (``off``)."""
    x, y, w, h, a1, a2, b1, b2, fill = m["srect"]
    dw, dh = w - (1 + abs(v[0] * a1 + v[1] * a2)), h - (1 + abs(v[0] * b1 + v[1] * b2))
    sw, sh = m["rect"][2] / m["flat"], m["rect"][3] / m["flat"]
    ex, miss = [], []
    for nx, ny, width, _ in m["edges"]:
        want = max(0.0, nx * v[0] + ny * v[1])
        ex.append(width - want)
        if want > 0.1:
            miss.append(want - width)
    return {"over": max(dw, dh), "under": min(dw, dh), "fill": fill, "ratio": min(w, h) / max(w, h),
            "short": min(sw, sh), "long": max(sw, sh), "top": m["top"], "sil": m["sil"], "ex": max(ex),
            "miss": max(miss) if miss else 0.0, "off": math.hypot(x + v[0] / 2, y + v[1] / 2)}


def dump(sets: str, propped: bool, out: Path) -> None:
    import rig.vision.dice_second_look as second
    from rig.bench.vision import pairs
    from rig.twin import physics
    from rig.twin.optics import project
    from twin_turns import dump_tables

    def row(seed, table, profile, die_px, drift, shot, k, work, truth, reading):
        f, (H, W) = work.factor, work.labels.shape
        state, sweep = ["none"] * len(reading.dice), [None] * len(reading.dice)
        for j, (d, best) in enumerate(zip(truth, pairs(truth, reading.dice, 0.6 * die_px))):
            if best is not None:
                state[best] = "cocked" if d.cocked else "flat"
                top = np.array(shot.dice[j].centre, float) + [0, 0, physics.DIE / 2]
                pp = project(table, np.array([top, top - [0, 0, physics.DIE]]))
                sweep[best] = [float(v) for v in (pp[1] - pp[0]) / die_px]
        seen = [{"x": o.x, "y": o.y, "face": o.face, "cocked": o.cocked, "aspect": o.aspect,
                 "state": state[i], "tv": sweep[i],
                 "r": [(o.x / f - W / 2) / W, (o.y / f - H / 2) / W],
                 "m": outline(o, work, reading.dice)} for i, o in enumerate(reading.dice)]
        return {"seed": seed, "drift": drift, "turn": k, "side": work.side * f,
                "reasons": [str(r) for r in reading.reasons], "walls": list(profile.walls), "seen": seen}

    second.ENABLED = False  # the reader's own flags
    dump_tables(sets, propped, out, row)


def load(folder: Path, spec: str) -> list:
    """The dumped dice of ``spec`` (``5000p:24`` for propped tables) as ``(line, die, measures, true measures)``."""
    from twin_turns import dumped

    out = []
    for line in dumped(folder, spec):
        for d in line["seen"]:
            if d["m"] is not None and "srect" in d["m"]:
                v = [-VIEW * d["r"][0], -VIEW * d["r"][1]]
                out.append((line, d, measures(d["m"], v), measures(d["m"], d["tv"]) if d["tv"] else None))
    return out


def report(folder: Path, fit: str, check: str) -> None:
    fitted, checked = load(folder, fit), load(folder, check)
    for which in (2, 3):
        print("sweep:", f"c = {VIEW}, nadir at the frame centre" if which == 2 else "the true die's")
        ref = np.array([[x[which][k] for k in KEYS] for x in fitted if x[which] and not x[1]["cocked"]
                        and x[1]["state"] == "flat"])
        print("| central share of unflagged flat dice (fitting tables) | set | flagged flat dice freed | flagged cocked "
              "dice freed | unflagged cocked dice outside | unflagged flat dice outside |\n| --- | --- | --- | --- | --- | --- |")
        for share in (80, 90, 95, 98, 99):
            lo, hi = np.percentile(ref, (100 - share) / 2, axis=0), np.percentile(ref, 100 - (100 - share) / 2, axis=0)
            for name, dice in (("fitting", fitted), ("checks", checked)):
                c = Counter()
                for _, d, *ms in dice:
                    m = ms[which - 2]
                    if m is None or d["state"] == "none":
                        continue
                    x = np.array([m[k] for k in KEYS])
                    c[(d["state"], d["cocked"], bool(np.all((x >= lo) & (x <= hi))))] += 1
                cells = [f"{c[(s, f, inside)]} / {c[(s, f, True)] + c[(s, f, False)]}"
                         for s, f, inside in (("flat", True, True), ("cocked", True, True), ("cocked", False, False),
                                              ("flat", False, False))]
                print(f"| {share} % | {name} | " + " | ".join(cells) + " |")


def main() -> None:
    from twin_turns import study_parser

    ap, r = study_parser(__doc__)
    r.add_argument("--fit", required=True)
    r.add_argument("--check", required=True)
    a = ap.parse_args()
    if a.cmd == "dump":
        dump(a.sets, a.propped, a.out)
    else:
        report(a.dir, a.fit, a.check)


if __name__ == "__main__":
    main()

"""Every pip twin die not found or read wrong, one by one, with where it lies and what the finder saw (issue 25, round 20).

Reads the pip twin's tables as ``rig bench vision --game pips --twin`` does ("no size known": the image pyramid, the
table's dice count given) and, for every die lying flat that is not found or is read wrong, prints its truth, place
and size with what may explain it:

- ``px``: its side in the frame (the truth's), and ``level``: the dice's side the pyramid chose for the frame;
- ``wall`` / ``touch``: the gap (mm) to the nearest tray wall and to the nearest other die (pybullet's poses);
- ``tilt``: how far its top leans (degrees);
- ``shade``: the median lightness (Lab L, 8-bit) of its top's middle over the median of the frame's dice's (below
  :data:`SHADE`: in shade; the dice are of one colour);
- ``floor``: the Lab distance (8-bit, |dL|+|da|+|db|) of its top's middle from the floor around it (below
  :data:`FLOOR`: a die of the floor's colour);
- ``glare``: the share of its top's middle at 250 or more in any channel;
- ``peak``: the finder's nearest peak (above ``find_floor``) within half a side: its score, side over the truth's,
  and the reader's count and probability there ("none": no peak); ``known``: the same with the dice's true size given
  (``die_px``: the finder at the size it was trained on) — a miss found there is the pyramid's, not the finder's;
- for a die read wrong: the reading, its box side over the truth's and its flag reasons.

Prints one line per die and a count by cause (:func:`cause`); with ``--crops DIR`` a PNG of each die (3 sides around
the truth, the reading's box drawn, scaled to 160 px) and one of each frame with the truth (green) and reading (red).

    PYTHONPATH=. .venv/bin/python scripts/pip_misses.py --first-table 9380 --tables 12 --crops /tmp/pips/crops
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from rig.bench.pip_twin import tables_parser, thrown_tables

#: a top's middle this much darker than the frame's median lightness is in shade
SHADE = 0.6
#: a top's middle this near the floor around it (Lab, |dL|+|da|+|db|) is of the floor's colour
FLOOR = 30.0
#: a die this near a wall (mm) is by the wall; this near another die, touching it
NEAR_MM = 3.0


def place(table, shot, i: int) -> tuple[float, float, float]:
    """Die ``i``'s gap to the nearest tray wall and to the nearest other die (mm, by the centres: a cube's half
    aside), and its tilt (degrees)."""
    from rig.twin import physics

    d = shot.dice[i]
    c, r = np.asarray(d.centre), np.asarray(d.rotation)
    half = physics.DIE / 2
    w, h = table.tray
    reach = half * np.abs(r[:2, :]).sum(axis=1)  # the cube's half extent along x and y
    wall = min(w / 2 - abs(c[0]) - reach[0], h / 2 - abs(c[1]) - reach[1])
    others = [np.asarray(o.centre) for j, o in enumerate(shot.dice) if j != i]
    touch = min((float(np.hypot(*(c[:2] - o[:2]))) - physics.DIE for o in others), default=math.inf)
    tilt = math.degrees(math.acos(min(1.0, float(np.abs(r[2]).max()))))
    return 1000 * wall, 1000 * touch, tilt


def top(frame: np.ndarray, lab: np.ndarray, x: float, y: float, side: float) -> tuple[np.ndarray, float]:
    """The top's middle (half a side square): its median Lab (8-bit) and its share of glare pixels (250 or more)."""
    r = max(2, int(side / 4))
    xi, yi = int(round(x)), int(round(y))
    sl = np.s_[max(0, yi - r) : yi + r, max(0, xi - r) : xi + r]
    patch = frame[sl]
    if not patch.size:
        return np.zeros(3), 0.0
    return np.median(lab[sl].reshape(-1, 3), axis=0), float((patch.max(axis=2) >= 250).mean())


def floor_contrast(lab: np.ndarray, truth, i: int) -> float:
    """Lab distance (8-bit) of die ``i``'s top middle from the floor around it: the median of a ring 0.9-1.4 sides
    from its centre, less the other dice's discs."""
    d = truth[i]
    h, w = lab.shape[:2]
    yy, xx = np.ogrid[0:h, 0:w]
    r2 = (xx - d.x) ** 2 + (yy - d.y) ** 2
    ring = (r2 >= (0.9 * d.side_px) ** 2) & (r2 <= (1.4 * d.side_px) ** 2)
    for j, o in enumerate(truth):
        if j != i:
            ring &= (xx - o.x) ** 2 + (yy - o.y) ** 2 > (0.9 * o.side_px) ** 2
    if not ring.any():
        return math.inf
    floor = np.median(lab[ring], axis=0)
    mid, _ = top(lab, lab, d.x, d.y, d.side_px)
    return float(np.abs(mid.astype(np.float32) - floor).sum())


def nearest(cands, d) -> object | None:
    """The candidate nearest truth ``d`` within half its side, or None."""
    near = [c for c in cands if abs(c.x - d.x) < 0.5 * d.side_px and abs(c.y - d.y) < 0.5 * d.side_px]
    return min(near, key=lambda c: abs(c.x - d.x) + abs(c.y - d.y), default=None)


def peak_text(c, d) -> str:
    if c is None:
        return "none"
    return f"{c.score:.2f} x{c.side / d.side_px:.2f} read {c.pips} ({float(c.probs[c.pips]):.2f}, no die {float(c.probs[0]):.2f})"


def cause(miss: dict, p) -> str:
    """What the die's line says first: a cocked-like tilt, touching, shade, glare, the pyramid's level, the finder."""
    if miss["found"]:
        ratio = miss["box"] / miss["px"]
        if ratio > 1.6:
            return "box around several dice"
        if ratio < 0.7:
            return "box too small (a part of the die)"
        return "read wrong in a box of its size"
    if miss["touch"] < NEAR_MM:
        return "touching another die"
    if miss["floor"] < FLOOR:
        return "floor colour"
    if miss["shade"] < SHADE:
        return "in shade"
    if miss["glare"] > 0.2:
        return "glare"
    c, k = miss["peak"], miss["known"]
    if c is None and k is not None and k.score >= p.find_keep:
        return "pyramid: found at the true size, no peak at the level chosen"
    if c is None:
        return "finder: no peak even at the true size"
    if c.score < p.find_keep:
        return "finder: peak below find_keep" + (
            " (found at the true size)" if k is not None and k.score >= p.find_keep else ""
        )
    return "reader: no die there"


def main(argv: list[str] | None = None) -> int:
    ap = tables_parser(__doc__.splitlines()[0])
    ap.add_argument("--crops", type=Path, help="write each die's crop and each frame's overview here (PNG)")
    ap.add_argument("--flagged", action="store_true", help="list the dice read right but flagged too")
    args = ap.parse_args(argv)

    from rig.bench.pip_twin import twin_frame
    from rig.vision.anydie import read_pip_dice
    from rig.vision.dicenet import default_dicenet
    from rig.vision.pips import PipParams

    cv2.setNumThreads(1)
    params = PipParams.load(None)
    p = params.anydie
    nets = default_dicenet()
    keep = max(p.find_floor, p.find_keep)
    if args.crops:
        args.crops.mkdir(parents=True, exist_ok=True)
    causes, dice_n, lines = Counter(), 0, 0
    for table, shots in thrown_tables(args.first_table, args.tables, args.turns):
        print(
            f"{table!r}, tray {table.tray[0] * 100:.0f}x{table.tray[1] * 100:.0f} cm, wall {table.wall * 1000:.0f} mm",
            flush=True,
        )
        for k, shot in enumerate(shots):
            frame = twin_frame(table, shot, k, args.spp)
            truth = table.pip_truth(shot)
            reading = read_pip_dice(frame, p, expected=(len(shot.dice),))
            cands = nets.candidates(frame, p.find_floor, 0.0, keep)
            level, q = nets.die_size(frame, p.find_floor)
            flat = [t.side_px for t in truth if not t.cocked]
            known = nets.candidates(frame, p.find_floor, float(np.median(flat)), keep) if flat else []
            print(
                f"  throw {k}: {len(truth)} dice, level {level:.0f} px ({q:.2f}), reading {reading.status}: "
                f"{[d.pips for d in reading.dice]} truth {[t.value for t in truth]}"
            )
            used: set[int] = set()
            view = frame.copy()
            lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
            tops = [top(frame, lab, t.x, t.y, t.side_px) for t in truth]
            lit = float(np.median([m[0] for m, _ in tops]))
            for i, d in enumerate(truth):
                hit = min(
                    (
                        j
                        for j, f in enumerate(reading.dice)
                        if j not in used
                        and abs(f.centre[0] - d.x) < 0.5 * d.side_px
                        and abs(f.centre[1] - d.y) < 0.5 * d.side_px
                    ),
                    key=lambda j: abs(reading.dice[j].centre[0] - d.x) + abs(reading.dice[j].centre[1] - d.y),
                    default=None,
                )
                cv2.circle(view, (int(d.x), int(d.y)), int(d.side_px / 2), (0, 255, 0), 2)
                if d.cocked:
                    continue
                dice_n += 1
                if hit is not None:
                    used.add(hit)
                die = reading.dice[hit] if hit is not None else None
                wrong = die is None or die.pips != d.value
                if not wrong and not (args.flagged and die.count.status != "ok"):
                    continue
                wall, touch, tilt = place(table, shot, i)
                shade, glare = tops[i][0][0] / max(lit, 1.0), tops[i][1]
                contrast = floor_contrast(lab, truth, i)
                miss = dict(
                    found=die is not None,
                    px=d.side_px,
                    box=die.box[2] if die else 0,
                    touch=touch,
                    shade=shade,
                    glare=glare,
                    floor=contrast,
                    peak=nearest(cands, d),
                    known=nearest(known, d),
                )
                kind = cause(miss, p) if wrong else "right, flagged"
                causes[kind] += 1
                lines += 1
                got = (
                    (
                        f"read {die.pips} box x{die.box[2] / d.side_px:.2f} {die.count.status}"
                        + (f" ({'; '.join(die.count.reasons)})" if die.count.reasons else "")
                    )
                    if die
                    else "not found"
                )
                print(
                    f"    {d.value} at ({d.x:.0f},{d.y:.0f}) {d.side_px:.0f} px: {got}; wall {wall:.0f} mm, touch "
                    f"{touch:.0f} mm, tilt {tilt:.0f}, shade {shade:.2f}, floor {contrast:.0f}, glare {glare:.2f}; peak {peak_text(miss['peak'], d)};"
                    f" known {peak_text(miss['known'], d)} -> {kind}",
                    flush=True,
                )
                if args.crops:
                    r = 1.5 * d.side_px
                    x0, y0 = int(max(0, d.x - r)), int(max(0, d.y - r))
                    crop = frame[y0 : int(d.y + r), x0 : int(d.x + r)].copy()
                    if die:
                        bx, by, bw, bh = die.box
                        cv2.rectangle(crop, (bx - x0, by - y0), (bx - x0 + bw, by - y0 + bh), (0, 0, 255), 1)
                    s = 160 / max(crop.shape[:2])
                    crop = cv2.resize(
                        crop, None, fx=s, fy=s, interpolation=cv2.INTER_NEAREST if s > 1 else cv2.INTER_AREA
                    )
                    tag = "found" if die else "miss"
                    cv2.imwrite(str(args.crops / f"t{table.seed}-{k}-{d.value}-{tag}-{int(d.x)}_{int(d.y)}.png"), crop)
            if args.crops:
                for f in reading.dice:
                    bx, by, bw, bh = f.box
                    colour = (0, 0, 255) if f.count.status == "ok" else (0, 160, 255)
                    cv2.rectangle(view, (bx, by), (bx + bw, by + bh), colour, 2)
                    cv2.putText(view, str(f.pips), (bx, by - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2)
                s = 960 / max(view.shape[:2])
                cv2.imwrite(
                    str(args.crops / f"frame-t{table.seed}-{k}.png"),
                    cv2.resize(view, None, fx=s, fy=s, interpolation=cv2.INTER_AREA),
                )
    print(f"{lines} dice listed of {dice_n} lying flat; by cause:")
    for kind, n in causes.most_common():
        print(f"  {n:>3}  {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

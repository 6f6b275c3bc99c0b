"""Does a die's top say it lies flat? Its shading and its frog's foreshortening measured on the twin (issue 24, round 16).

Two cues of a die's top that need no outline (round 15's outline at the working scale told the flagged flat dice
from the leaning ones no better than chance):

- **shading** (``--cue shade``): a flat top is horizontal like the floor, so in the light-corrected frame its body
  (the violet print around the frog) is as bright as calibration's body colour; a top tilted towards or away from a
  lamp is brighter or darker by the cosine law. Measured: the mean L of the lit top's body pixels over the profile's
  body L, as a linear brightness ratio (log), plain and over the median of the frame's unflagged dice;
- **the frog's foreshortening** (``--cue frog``): the frog printed on a face is a known shape; a top seen square-on
  shows it at its full size in both directions, a tilted top squashes it along the tilt. Measured on the
  full-resolution frame (the die's crop with its place's light correction, labelled with the profile's colour table
  as the reader's full-resolution count does): the frog pixels within 0.45 die sides of the die's centre, their
  count and the square roots of their covariance's eigenvalues (die sides), against the median of the frame's
  unflagged dice of the same face (what a reader could use: there is no frog reference in the profile).

``dump`` reads twin turns as ``scripts/frog_crops.py`` does (the second look off: the reader's own flags) and keeps
every die read with its truth (flat or cocked, the true tilt, its top's normal, the die's centre and the camera's place), both cues and
:func:`rig.vision.dice_upright.side_faces` (the most shade beyond an edge over the flat sweep, the predicted side
face least seen). ``report`` prints the tables of docs/vision.md (round 16).

    .venv/bin/python scripts/top_cues.py dump --sets 8000:12,8200:12 --out ~/.cache/rig/dice/r16/c
    .venv/bin/python scripts/top_cues.py dump --sets 5000:24 --propped --out ~/.cache/rig/dice/r16/c
    .venv/bin/python scripts/top_cues.py report --dir ~/.cache/rig/dice/r16/c --sets 5000p:24,8000:12
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: the frog pixels counted: those within this many die sides of the die's centre
FROG_REACH = 0.45
#: the measures' bounds tried (log ratio to the frame's reference) and the side-face guards (die sides missing)
TOLERANCES = (0.01, 0.02, 0.03, 0.05)
GUARDS = (None, 0.08, 0.05)


def _luminance(l8: float) -> float:
    """Linear luminance of an 8-bit OpenCV Lab L."""
    return ((l8 * 100 / 255 + 16) / 116) ** 3


def frog_moments(obs, work) -> dict | None:
    """The frog of a die on the full-resolution frame: its pixel count over the die side squared (``n``) and the
    square roots of its covariance's eigenvalues in die sides (``eig``, least first); None without one."""
    import cv2

    from rig.vision.colour_table import colour_lut
    from rig.vision.dice_frames import label_pixels
    from rig.vision.pixel_classes import AMBIG, BLUE, PINK, YELLOW

    f, s = work.factor, work.side * work.factor
    H, W = work.frame.shape[:2]
    r = 0.9 * s
    X0, Y0 = max(0, int(obs.x - r)), max(0, int(obs.y - r))
    X1, Y1 = min(W, int(obs.x + r) + 1), min(H, int(obs.y + r) + 1)
    gh, gw = work.gain.shape[:2]
    g = work.gain[min(gh - 1, int(obs.y / f)), min(gw - 1, int(obs.x / f))]
    crop = cv2.multiply(work.frame[Y0:Y1, X0:X1], tuple(float(v) for v in g) + (0.0,), dtype=cv2.CV_8U)
    lab = label_pixels(crop, work.lut if work.lut is not None else colour_lut(work.profile))
    frog = np.isin(lab, (BLUE, PINK, YELLOW, AMBIG)).astype(np.uint8)
    n, cc, stats, centres = cv2.connectedComponentsWithStats(frog, connectivity=8)
    near = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 3
            and math.hypot(centres[i][0] - (obs.x - X0), centres[i][1] - (obs.y - Y0)) < FROG_REACH * s]
    ys, xs = np.nonzero(np.isin(cc, near))
    if len(xs) < 10:
        return None
    w = np.linalg.eigvalsh(np.cov(np.vstack([xs, ys]).astype(np.float64)))
    if w[0] <= 0:
        return None
    return {"n": len(xs) / s**2, "eig": [float(math.sqrt(w[0])) / s, float(math.sqrt(w[1])) / s]}


def shading(obs, work, others) -> dict | None:
    """The mean Lab L of the die's lit top and of its body pixels (working scale, light corrected)."""
    import cv2

    from rig.vision.dice_cocked import _around
    from rig.vision.dice_upright import lit_top
    from rig.vision.pixel_classes import BODY

    around = _around(obs, work, others)
    found = lit_top(around)
    if found is None:
        return None
    lit, lab, x0, y0 = found[0], around[6], around[4], around[5]
    L = cv2.cvtColor(work.small[y0 : y0 + lab.shape[0], x0 : x0 + lab.shape[1]], cv2.COLOR_BGR2LAB)[..., 0]
    body = lit & (lab == BODY)
    return {"lit": float(L[lit].mean()), "body": float(L[body].mean()) if np.count_nonzero(body) >= 3 else None}


def dump(sets: str, propped: bool, out: Path) -> None:
    import rig.vision.dice_second_look as second
    from rig.twin.optics import camera_pose
    from rig.twin.physics import NORMALS
    from rig.vision.dice_upright import side_faces
    from twin_turns import dump_tables, truth_poses

    def row(seed, table, profile, die_px, drift, shot, k, work, truth, reading):
        pose = truth_poses(truth, reading.dice, shot, die_px)
        seen = []
        for i, o in enumerate(reading.dice):
            e = {"x": o.x, "y": o.y, "face": o.face, "cocked": bool(o.cocked), "state": "none"}
            if i in pose:
                d, p = pose[i]
                normals = NORMALS @ np.asarray(p.rotation).T  # the top's normal in the tray's frame
                e.update(state="cocked" if d.cocked else "flat", tface=d.face, tilt=p.tilt_deg,
                         centre=[float(v) for v in p.centre],
                         up=[float(v) for v in normals[int(np.argmax(normals[:, 2]))]])
            sf = side_faces(o, work, reading.dice)
            e.update(shade=shading(o, work, reading.dice), frog=frog_moments(o, work),
                     sf=None if sf is None else [float(v) for v in sf])
            seen.append(e)
        return {"seed": seed, "drift": drift, "turn": k, "side": work.side * work.factor,
                "bodyL": float(profile.body.mean[0]), "cam": [float(v) for v in camera_pose(table)[0]],
                "reasons": [str(r) for r in reading.reasons], "seen": seen}

    second.ENABLED = False  # the reader's own flags
    dump_tables(sets, propped, out, row)


def load(folder: Path, spec: str) -> list:
    from twin_turns import dumped

    return list(dumped(folder, spec))


def _group(d: dict) -> str:
    return f"{d['state']} {'flagged' if d['cocked'] else 'unflagged'}"


def _pct(v) -> str:
    return " / ".join(f"{x:+.2f}" for x in np.percentile(v, (5, 25, 50, 75, 95))) if len(v) else "-"


def frog_flat(d: dict, line: dict, tol: float) -> bool | None:
    """Whether a die's frog measures as the frame's unflagged dice of its face do, within ``tol`` (log ratio of
    each eigenvalue's root, twice it for the count); None without such a die in the frame or a frog."""
    refs = [e["frog"] for e in line["seen"] if e is not d and not e["cocked"] and e["face"] == d["face"] and e["frog"]]
    if not refs or not d["frog"]:
        return None
    a, b, n = (float(np.median([r["eig"][0] for r in refs])), float(np.median([r["eig"][1] for r in refs])),
               float(np.median([r["n"] for r in refs])))
    lo, hi = math.log(d["frog"]["eig"][0] / a), math.log(d["frog"]["eig"][1] / b)
    return max(abs(lo), abs(hi)) <= tol and abs(math.log(d["frog"]["n"] / n)) <= 2 * tol


def report(folder: Path, sets: str) -> None:
    lines = load(folder, sets)
    print(f"{sets}: {len(lines)} turn-lights")
    print("\nshading: log(top body luminance / calibration's body), and over the frame's unflagged dice' median")
    print("| die | n | against calibration (5/25/50/75/95th pct) | against the frame |\n| --- | --- | --- | --- |")
    cal, frame = {}, {}
    for line in lines:
        ok = [_luminance(e["shade"]["body"]) for e in line["seen"] if not e["cocked"] and e["shade"] and e["shade"]["body"]]
        for d in line["seen"]:
            if d["state"] == "none" or not d["shade"] or not d["shade"]["body"]:
                continue
            y = _luminance(d["shade"]["body"])
            cal.setdefault(_group(d), []).append(math.log(y / _luminance(line["bodyL"])))
            if len(ok) >= 2:
                frame.setdefault(_group(d), []).append(math.log(y / float(np.median(ok))))
    for g in sorted(cal):
        print(f"| {g} | {len(cal[g])} | {_pct(cal[g])} | {_pct(frame.get(g, []))} |")
    print("\nthe frog against the frame's unflagged dice of its face; guard: the side face the flat sweep puts towards "
          "the nadir missing at most this many die sides")
    print("| bound | guard | flagged flat freed | flagged cocked freed | flagged, no frog or none of its face unflagged in the frame | "
          "cocked freed (table turn light tilt, view angle) |\n| --- | --- | --- | --- | --- | --- |")
    for tol in TOLERANCES:
        for guard in GUARDS:
            c, bad = Counter(), []
            for line in lines:
                for d in line["seen"]:
                    if d["state"] == "none" or not d["cocked"]:
                        continue
                    flat = frog_flat(d, line, tol)
                    if flat is None:
                        c[d["state"], "none"] += 1
                        continue
                    freed = flat and (guard is None or (d["sf"] is not None and d["sf"][1] <= guard))
                    c[d["state"], freed] += 1
                    if freed and d["state"] == "cocked":
                        v = np.array(line["cam"]) - np.array(d["centre"])
                        view = math.degrees(math.acos(v[2] / np.linalg.norm(v)))
                        bad.append(f"{line['seed']} {line['turn']} {line['drift']} {d['tilt']:.0f}°, {view:.0f}°")
            cells = [f"{c[s, True]} / {c[s, True] + c[s, False]}" for s in ("flat", "cocked")]
            print(f"| {tol} | {guard if guard is not None else '-'} | {' | '.join(cells)} | "
                  f"{c['flat', 'none']} flat, {c['cocked', 'none']} cocked | {'; '.join(bad[:6])}{' …' if len(bad) > 6 else ''} |")


def turns(folder: Path, sets: str, tol: float, guard: float | None) -> None:
    """Turns read fully right (every die read, its face right, none leaning) and flagged, before the second look: how
    many the frog would free whole (every reason a "cocked die" flag at a die :func:`frog_flat` frees)."""
    from rig.vision.dice_flag import Flag

    c = Counter()
    for line in load(folder, sets):
        seen = line["seen"]
        if not line["reasons"] or len(seen) != 6 or any(d["state"] != "flat" or d["face"] != d["tface"] for d in seen):
            continue
        c["needless"] += 1
        freed = [d for d in seen if d["cocked"] and frog_flat(d, line, tol)
                 and (guard is None or (d["sf"] is not None and d["sf"][1] <= guard))]
        left = [t for t in line["reasons"] if not ((flag := Flag.parse(t)) is not None and flag.kind == "cocked die"
                and any(math.hypot(flag.at[0] - d["x"], flag.at[1] - d["y"]) < 0.5 * line["side"] for d in freed))]
        c["freed whole"] += not left
        c["a die freed"] += bool(freed)
    print(f"{sets}, bound {tol}, guard {guard}: {dict(c)}")


def main() -> None:
    from twin_turns import study_parser

    ap, r = study_parser(__doc__)
    r.add_argument("--sets", required=True)
    r.add_argument("--turns", type=float, nargs=2, metavar=("BOUND", "GUARD"), help="the turn count at one bound and guard (a guard of 9 or more: none)")
    a = ap.parse_args()
    if a.cmd == "dump":
        dump(a.sets, a.propped, a.out)
    elif a.turns:
        turns(a.dir, a.sets, a.turns[0], a.turns[1] if a.turns[1] < 9 else None)
    else:
        report(a.dir, a.sets)


if __name__ == "__main__":
    main()

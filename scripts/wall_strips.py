"""The strip beyond each outward side of every die read flat on the twin, as ``dice_wallside`` sees it (issue 24, round 23).

For each die read flat and not cocked: its box in die sides, whether the twin says it is truly cocked, and for each
outward side with no neighbour ahead (:func:`rig.vision.dice_wallside.outward_sides`, the lamp-side check's
``neighbour_on_side``) the strip's die-body share (``dice_wallside``'s test, the kept empty picture), its dark share
(``dice_lampside``'s) and the die-body share column by column from the box outward. ``table`` then prints what a
lower ``FACE`` would add in the turns the reader leaves ``ok`` (truly cocked turn-lights gained, needless ones added),
and the strips just under ``FACE`` with their columns. Only a flag is added by ``dice_wallside``, so these are the
turns a lower ``FACE`` would change.

    .venv/bin/python scripts/wall_strips.py probe --sets 10600:12,10000:12 --out ~/.cache/rig/lean/r23/strips.jsonl
    .venv/bin/python scripts/wall_strips.py table ~/.cache/rig/lean/r23/strips.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: the thresholds ``table`` tries for ``FACE``
FACES = (0.40, 0.38, 0.36, 0.34, 0.32, 0.30)


def strip_masks(frame, empty_ab, empty_lum, box, name: str, side: float, body_ab):
    """The strip beside side ``name`` of ``box`` as (die body, dark) masks, oriented with columns running from the
    box outward; None where the strip leaves the frame."""
    import cv2

    from rig.vision.dice_lampside import DARK, strips
    from rig.vision.dice_wallside import NEARER

    rect = strips(box, side, frame.shape[:2]).get(name)
    if rect is None:
        return None
    y0, y1, x0, x1 = rect
    part = np.ascontiguousarray(frame[y0:y1, x0:x1])
    ab = cv2.cvtColor(part, cv2.COLOR_BGR2Lab)[..., 1:].astype(np.float32)
    to_body = np.min([np.linalg.norm(ab - c, axis=2) for c in body_ab], axis=0)
    body = to_body + NEARER < np.linalg.norm(ab - empty_ab[y0:y1, x0:x1], axis=2)
    dark = part.astype(np.float32).sum(axis=2) < DARK * empty_lum[y0:y1, x0:x1]
    turn = {"L": lambda m: m[:, ::-1], "R": lambda m: m, "T": lambda m: m[::-1].T, "B": lambda m: m.T}[name]
    return turn(body), turn(dark)


def probe(spec: str, out: Path, propped: bool) -> None:
    from twin_turns import each_turn, seeds

    from rig.vision.card_empty import kept
    from rig.vision.dice_lampside import neighbour_on_side, empty_lightness
    from rig.vision.dice_wallside import empty_chroma, outward_sides
    from rig.vision.errors import VisionError

    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a") as lines:
        for first, n in seeds(spec):
            for seed in range(first, first + n):
                try:
                    for profile, die_px, drift, _shot, k, work, truth, reading in each_turn(seed, 4, 8, propped):
                        frame, side, empty = work.frame, work.side * work.factor, kept(profile)
                        empty_ab = empty_chroma(empty.lab, frame.shape[:2])
                        empty_lum = empty_lightness(empty.lab, frame.shape[:2])
                        body_ab = np.array([profile.body.mean[1:], profile.edge.mean[1:]], np.float32)
                        for d in reading.dice:
                            if d.cocked:
                                continue
                            t = min(truth, key=lambda t: np.hypot(t.x - d.x, t.y - d.y))
                            sides = {}
                            for name in outward_sides(d.x, d.y, frame.shape[:2]):
                                masks = (
                                    None
                                    if neighbour_on_side(d, reading.dice, name, side)
                                    else strip_masks(frame, empty_ab, empty_lum, d.box, name, side, body_ab)
                                )
                                if masks is not None:
                                    body, dark = masks
                                    sides[name] = {
                                        "body": round(float(body.mean()), 3),
                                        "dark": round(float(dark.mean()), 3),
                                        "columns": [round(float(v), 2) for v in body.mean(axis=0)],
                                    }
                            lines.write(
                                json.dumps(
                                    {
                                        "seed": seed,
                                        "drift": drift,
                                        "turn": k,
                                        "status": reading.status,
                                        "x": d.x,
                                        "y": d.y,
                                        "face": d.face,
                                        "size": [min(d.box[2:]) / side, max(d.box[2:]) / side],
                                        "cocked": bool(t.cocked)
                                        and float(np.hypot(t.x - d.x, t.y - d.y)) < 0.6 * die_px,
                                        "sides": sides,
                                    }
                                )
                                + "\n"
                            )
                except VisionError as exc:
                    print(f"{seed}: calibration refused ({exc})", flush=True)
                print(seed, flush=True)


def table(path: Path) -> None:
    from rig.vision.dice_wallside import TOP_SIZE

    turns = defaultdict(list)
    for line in path.open():
        d = json.loads(line)
        turns[(d["seed"], d["drift"], d["turn"])].append(d)
    ok = {key: dice for key, dice in turns.items() if dice[0]["status"] == "ok"}

    def fits(d) -> bool:
        return TOP_SIZE[0] <= d["size"][0] and d["size"][1] <= TOP_SIZE[1]

    print(f"{len(turns)} turn-lights with a die read flat, {len(ok)} read ok")
    print("FACE   cocked gained (same/drift)  needless added (same/drift)  turn-lights")
    for face in FACES:
        gained, needless, which = [0, 0], [0, 0], []
        for key, dice in sorted(ok.items()):
            hit = [d for d in dice if fits(d) and any(s["body"] >= face for s in d["sides"].values())]
            if not hit:
                continue
            drifted = int(key[1] != "same")
            tag = f"{key[0]} t{key[2]} {key[1]}"
            if any(d["cocked"] for d in hit):
                gained[drifted] += 1
                which.append(tag + " (cocked)")
            elif not any(d["cocked"] for d in dice):
                needless[drifted] += 1
                which.append(tag)
        print(f"{face:<6} {gained[0]:>3} / {gained[1]:<20} {needless[0]:>3} / {needless[1]:<20} {', '.join(which)}")
    print("\noutward strips 0.25-0.4 die body in ok turns (box within TOP_SIZE): columns from the box outward")
    rows = []
    for key, dice in ok.items():
        for d in dice:
            for name, s in d["sides"].items():
                if fits(d) and 0.25 <= s["body"] < 0.4:
                    solid = next((i for i, v in enumerate(s["columns"]) if v < 0.9), len(s["columns"]))
                    rows.append(
                        (
                            s["body"],
                            "COCKED" if d["cocked"] else "flat",
                            f"{key[0]} t{key[2]} {key[1]}",
                            name,
                            solid,
                            " ".join(f"{v:.2f}" for v in s["columns"]),
                        )
                    )
    for body, truth, tag, name, solid, columns in sorted(rows, reverse=True):
        print(f"{body:.3f} {truth:<6} {tag:<22} {name} solid {solid:>2}  {columns}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("probe", help="read the sets' turns and write one line per die read flat")
    p.add_argument("--sets", required=True, help="first:count,... as twin_turns.py takes them")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--propped", action="store_true", help="the tables' propped turns instead of the thrown ones")
    t = sub.add_parser("table", help="what a lower FACE would add, from the lines")
    t.add_argument("lines", type=Path)
    args = ap.parse_args()
    if args.what == "probe":
        import cv2

        cv2.setNumThreads(1)
        probe(args.sets, args.out.expanduser(), args.propped)
    else:
        table(args.lines.expanduser())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

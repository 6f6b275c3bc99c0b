"""The pip twin's frames read fully right yet flagged, by their reasons (issue 25, round 36).

    RIG_TWIN_VARIANT=... .venv/bin/python scripts/pip_twin_flag_reasons.py --first-table 12400 [--tables 12] [--out F.pickle]

Reads the twin tables as ``rig bench vision --game pips --twin`` does (its three ways; renders cached in
~/.cache/rig/twin, never rendering a set that is not there) and, per way: frames whose every die lying flat is found
and read right with no extra die and no cocked die, yet flagged; per reason (numbers left out) the frames it is on and
those it alone flags, and the dice it flags read right, wrong and extra. A frame's own reasons (the dice count, "a die
may be missing") count as reasons too. Given ``--out``, every frame's dice (box, pips, status, reasons, kind) are pickled.
"""

from __future__ import annotations

import pickle
import re
from collections import Counter, defaultdict


def norm(r: str) -> str:
    r = re.sub(r"^die at \(\d+, \d+\): ", "", r)
    return re.sub(r"[-+]?\d+(\.\d+)?", "#", r)


def kinds(truth, reading, match_dice) -> tuple[list[str], bool]:
    """Each found die's kind (right, wrong, extra, cocked) and whether the frame is read fully right."""
    hits = match_dice(truth, reading.dice)
    kind = ["extra"] * len(reading.dice)
    whole = True
    for j, d in enumerate(truth):
        i = hits.get(j)
        if d.cocked:
            whole = False
            if i is not None:
                kind[i] = "cocked"
            continue
        if i is None:
            whole = False
            continue
        kind[i] = "right" if reading.dice[i].pips == d.value else "wrong"
    return kind, whole and all(k == "right" for k in kind)


def main() -> int:
    import cv2

    from rig.bench.pip_twin import match_dice, tables_parser, thrown_tables, twin_frame
    from rig.vision.anydie import read_pip_dice
    from rig.vision.pips import PipParams
    from rig.vision.readers import DieSize

    ap = tables_parser(__doc__.splitlines()[0])
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    params = PipParams.load()
    ways = ("no size known", "size learned on table", "no size, no dice count")
    rows = []
    for table, shots in thrown_tables(args.first_table, args.tables, args.turns):
        size = DieSize(params, table.dice_count())
        for k, shot in enumerate(shots):
            frame = twin_frame(table, shot, k, args.spp)
            truth = table.pip_truth(shot)
            expected = (len(shot.dice),)
            reads = (lambda f: read_pip_dice(f, params.anydie, expected=expected),
                     lambda f: size.read(f, lambda g, q: read_pip_dice(g, q.anydie, expected=expected)),
                     lambda f: read_pip_dice(f, params.anydie))
            for way, read in zip(ways, reads):
                reading = read(frame)
                kind, whole = kinds(truth, reading, match_dice)
                dice = [(d.box, d.pips, d.count.confidence, d.count.status, d.count.reasons, kd)
                        for d, kd in zip(reading.dice, kind)]
                frame_reasons = tuple(r for r in reading.reasons if not r.startswith("die at "))
                rows.append((way, table.seed, k, reading.status, frame_reasons, dice, whole))
    for way in ways:
        mine = [r for r in rows if r[0] == way]
        whole = [r for r in mine if r[6]]
        asked = [r for r in whole if r[3] != "ok"]
        print(f"== {way}: {len(mine)} frames, flagged {sum(r[3] != 'ok' for r in mine)}, fully right {len(whole)}, "
              f"fully right yet flagged {len(asked)}")
        on, alone, per = Counter(), Counter(), defaultdict(Counter)
        for _, seed, k, status, frame_reasons, dice, _ in mine:
            for d in dice:
                if d[3] != "ok":
                    for r in {norm(x) for x in d[4]}:
                        per[r][d[5]] += 1
        for _, seed, k, status, frame_reasons, dice, _ in asked:
            rs = {norm(x) for d in dice if d[3] != "ok" for x in d[4]} | {norm(x) for x in frame_reasons}
            for r in rs:
                on[r] += 1
            if len(rs) == 1:
                alone[next(iter(rs))] += 1
        for r, n in on.most_common():
            c = per[r]
            print(f"   {n:3d} frames (alone {alone[r]:2d})  {r}   dice: right {c['right']}, wrong {c['wrong']}, "
                  f"extra {c['extra']}, cocked {c['cocked']}")
        for r in sorted(set(per) - set(on)):
            c = per[r]
            print(f"   (not on right frames) {r}   dice: right {c['right']}, wrong {c['wrong']}, extra {c['extra']}, "
                  f"cocked {c['cocked']}")
    if args.out:
        with open(args.out, "wb") as f:
            pickle.dump(rows, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

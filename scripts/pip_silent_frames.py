"""The pip twin's frames wrong and said ``ok`` with no dice count (issue 25, round 31): each die missed with the
finder's candidates from ``[anydie] faint_keep`` near it, the level chosen, and each extra die.

    RIG_TWIN_VARIANT=... .venv/bin/python scripts/pip_silent_frames.py --first-table 9984 --tables 12

Read as the twin bench's "no size, no dice count" line (``rig bench vision --game pips --twin``, renders cached in
~/.cache/rig/twin; never renders a set that is not there).
"""

from __future__ import annotations


import cv2


def main() -> int:
    from rig.bench.pip_twin import Tally, match_dice, tables_parser, thrown_tables, twin_frame
    from rig.vision.anydie import read_pip_dice
    from rig.vision.dicenet import FIND_DIE, default_dicenet
    from rig.vision.pips import PipParams

    ap = tables_parser(__doc__.splitlines()[0])
    args = ap.parse_args()
    cv2.setNumThreads(1)
    p, nets = PipParams.load().anydie, default_dicenet()
    for table, shots in thrown_tables(args.first_table, args.tables, args.turns):
        for k, shot in enumerate(shots):
            frame = twin_frame(table, shot, k, args.spp)
            truth, reading = table.pip_truth(shot), read_pip_dice(frame, p)
            tally = Tally()
            tally.add(truth, reading)
            if not tally.frames_silent:
                continue
            levels = [round(FIND_DIE / s) for _, _, s in nets.normalised(frame, p.faint_keep, {}, p.find_keep)][::-1]
            print(f"{table.seed} throw {k}: {table!r}; {len(truth)} dice, {len(reading.dice)} found, said {reading.status}; "
                  f"level (and second pass) die px {levels}")
            cands = nets.candidates(frame, p.faint_keep, 0.0, p.find_keep)
            hits = match_dice(truth, reading.dice)
            for j, d in enumerate(truth):
                if j in hits:
                    die = reading.dice[hits[j]]
                    print(f"  {d.value} at ({d.x:.0f}, {d.y:.0f}), {d.side_px:.0f} px: read {die.pips} {die.count.status}")
                    continue
                near = [c for c in cands if abs(c.x - d.x) < 0.5 * d.side_px and abs(c.y - d.y) < 0.5 * d.side_px]
                seen = "; ".join(f"finder {c.score:.2f}, {c.side:.0f} px, read {c.pips} ({float(c.probs[c.pips]):.2f}),"
                                 f" no die {float(c.probs[0]):.2f}" for c in near) or "no peak"
                print(f"  {d.value} at ({d.x:.0f}, {d.y:.0f}), {d.side_px:.0f} px{' (cocked)' if d.cocked else ''}: "
                      f"MISSED: {seen}")
            for i, die in enumerate(reading.dice):
                if i not in hits.values():
                    print(f"  extra: read {die.pips} {die.count.status} at {die.box}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The tuning photos' frames read fully right yet flagged, by their flagged dice's reasons (issue 25, round 34).

    .venv/bin/python scripts/pip_flag_reasons.py [coloured|white] [OUT.pickle]

Per scale (x0.4, x0.6, x1, x1.5; the held-out photos never opened), read as ``rig bench vision --game pips --scales``'s
"no size hint" line (dice cut by the frame's edge aside, matched to the labels as the bench matches): the frames
whose every labelled die is found and read right with no extra die, yet flagged; per reason (numbers left out) the
frames it is on and those it alone flags, and the dice it flags read right, wrong and extra (on every frame). Given
``OUT``, every die read is pickled (scale, photo, box, pips, confidence, status, reasons, right/wrong/extra, the
frame read fully right, flagged).
"""
import pickle
import re
import sys
from collections import Counter

import cv2


def norm(r):
    return re.sub(r"[-+]?\d+(\.\d+)?", "#", r)


def main():
    from rig.bench.pip_photos import load_photos
    from rig.bench.pip_scores import match_labelled
    from rig.bench.pips import SCALES, colour_folder, data_folder, off_cut_dice, scaled_frame
    from rig.vision.anydie import read_pip_dice
    from rig.vision.pips import PipParams

    cv2.setNumThreads(1)
    which = sys.argv[1] if len(sys.argv) > 1 else "coloured"
    out = sys.argv[2] if len(sys.argv) > 2 else None
    p = PipParams.load().anydie
    folder, any_name = (colour_folder(None), True) if which == "coloured" else (data_folder(None), False)
    photos = load_photos(folder, any_name=any_name, tuning_only=True)
    images = {ph.path: cv2.imread(str(ph.path)) for ph in photos}
    rows = []
    for factor in SCALES:
        frames = right_frames = right_flagged = 0
        alone, anyr, per = Counter(), Counter(), Counter()
        for ph in photos:
            shown, frame, cut = scaled_frame(ph, images[ph.path], factor)
            reading = read_pip_dice(frame, p)
            dice = off_cut_dice(reading.dice, cut)
            hits = match_labelled(shown.dice, dice)
            kind = ["extra"] * len(dice)
            for lab, h in zip(shown.dice, hits):
                if h is not None:
                    kind[h] = "right" if dice[h].pips == lab.pips else f"wrong({lab.pips})"
            allright = all(h is not None for h in hits) and all(k == "right" for k in kind)
            flagged = len(dice) != len(shown.dice) or any(d.count.status != "ok" for d in dice)
            frames += 1
            right_frames += allright
            for d, k in zip(dice, kind):
                rs = tuple(norm(r) for r in d.count.reasons) if d.count.status != "ok" else ()
                for r in set(rs):
                    per[(r, k.split("(")[0])] += 1
                rows.append((factor, ph.path.name, d.box, d.pips, d.count.confidence, d.count.status, d.count.reasons, k,
                             allright, flagged))
            if allright and flagged:
                right_flagged += 1
                rs = {norm(r) for d in dice if d.count.status != "ok" for r in d.count.reasons}
                for r in rs:
                    anyr[r] += 1
                if len(rs) == 1:
                    alone[next(iter(rs))] += 1
        print(f"== {which} x{factor:g}: {frames} frames, fully right {right_frames}, fully right yet flagged {right_flagged}")
        for r, n in anyr.most_common():
            print(f"   {n:4d} frames (alone {alone[r]:3d})  {r}   dice: right {per[(r, 'right')]}, wrong {per[(r, 'wrong')]}, extra {per[(r, 'extra')]}")
        others = {r for r, _ in per} - set(anyr)
        for r in sorted(others):
            print(f"   (not on right frames) {r}   dice: right {per[(r, 'right')]}, wrong {per[(r, 'wrong')]}, extra {per[(r, 'extra')]}")
        sys.stdout.flush()
    if out:
        with open(out, "wb") as f:
            pickle.dump(rows, f)


if __name__ == "__main__":
    main()

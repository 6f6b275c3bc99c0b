"""The tuning photos' frames read with no dice count, by the frame's own status (issue 25, round 31).

    .venv/bin/python scripts/pip_frame_status.py

``rig bench vision --game pips --scales`` counts a frame flagged when a die is flagged or the labels' count is off; a
frame's own reasons (``PipDiceReading.reasons``: "a die may be missing", :mod:`rig.vision.diemissing`) are not seen
there. Here, per set and scale (x0.4, x0.6, x1, x1.5; the held-out photos never opened), read as the bench's "no size
hint" line: frames flagged as the bench counts them, frames whose reading is not ``ok``, either, and frames asking
for a missing die.
"""

from __future__ import annotations

import cv2


def main() -> int:
    from rig.bench.pip_photos import load_photos
    from rig.bench.pips import SCALES, colour_folder, data_folder, off_cut_dice, scaled_frame
    from rig.vision.anydie import read_pip_dice
    from rig.vision.pips import PipParams

    cv2.setNumThreads(1)
    p = PipParams.load().anydie
    for name, folder, any_name in (("white", data_folder(None), False), ("coloured", colour_folder(None), True)):
        photos = load_photos(folder, any_name=any_name, tuning_only=True)
        images = {ph.path: cv2.imread(str(ph.path)) for ph in photos}
        for factor in SCALES:
            n = bench = status = either = missing = 0
            for ph in photos:
                shown, frame, cut = scaled_frame(ph, images[ph.path], factor)
                reading = read_pip_dice(frame, p)
                dice = off_cut_dice(reading.dice, cut)
                flagged = len(dice) != len(shown.dice) or any(d.count.status != "ok" for d in dice)
                n, bench, status = n + 1, bench + flagged, status + (reading.status != "ok")
                either += flagged or reading.status != "ok"
                missing += any(r.endswith("a die may be missing") for r in reading.reasons)
            print(f"{name} x{factor:g}: {n} frames; flagged as the bench counts {bench}, reading not ok {status}, "
                  f"either {either} ({100 * either / n:.1f} %); 'a die may be missing' {missing}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A die the floor's "glare" hid: found in the frame without that glare taken off (issue 24, round 35).

Calibration models the lamp's reflections as what the empty box shows above a smooth (quadratic) floor
(:func:`rig.vision.calibrate_glare._fit_glare`), and the reader takes that off every frame. A floor lit unevenly by
plain light, not a reflection, can stand above that surface too: twin 11811 (tray floor, lamps of 3846 K and 6220 K),
where the wall cuts one lamp's light off a band across the floor, the strip along the near wall lit beside it stands
60-130 grey levels "above" the floor, and is taken off as glare. Plain light lights a die's top as it lights the
floor, a reflection does not: with those levels taken off a die top there reads as die body in shade and unknown
colour, joined to its own shadow, and is not found at all ("N of the 6 dice thrown seen"; round 34's fresh set: 11811
same light 13 of its 17 wrong dice, in every light).

When a reading is short of the dice thrown, such a die is looked for where the empty box showed at least
:data:`LEVEL` of glare: the frame labelled in its overall light, glare left on. A die-sized square blob of die top
there, clear of the dice read, that the empty box does not show the same (:func:`rig.vision.dice_unchanged.
as_the_empty_box`), is read as a die (its labels, corrected pixels and gain written into the frame's arrays, as :mod:`rig.vision.dice_missed` does)
and always asked about (:data:`REASON`).
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_frames import label_pixels, shrink
from rig.vision.dice_missed import _clear_of, _read_tops, _square
from rig.vision.dice_unchanged import as_the_empty_box
from rig.vision.pixel_classes import _IS_ODD, _K3, BODY, IS_TOP, filled

REASON = "die found with the floor's glare left on"
#: a top under the floor's glare read as one frog colour in its place's light, whose reading in the frame's overall
#: light is at least this share die body (no frog, nothing unknown), is read blank: the glare taken off tinted its body
BARE_BODY = 0.9
#: the empty box's glare (its largest channel, grey levels) under most of a blob looked at: where the reader took
#: that much off the frame (the fit fades residuals under 24 out: the box's print)
LEVEL = 24
#: the least share of a blob's filled top that reads as die top in the frame's overall light
TOP_SHARE = 0.65


def unglared_tops(work, t, dice: list, want: int) -> list[tuple[np.ndarray, int, int, float]]:
    """Up to ``want`` die tops the glare taken off hid (module doc), each as (its mask, x, y: the mask's place at the
    working scale, the overall gain's largest channel), written into ``work``; the most die-like first."""
    if want <= 0 or work.glare is None or work.gain is None:
        return []
    zone = (work.glare.max(axis=2) >= LEVEL).view(np.uint8)
    if cv2.countNonZero(zone) < t.die_area_min * work.top_area:
        return []
    gain = work.overall_gain
    bright = cv2.multiply(shrink(work.frame, work.factor), (*gain.tolist(), 0.0), dtype=cv2.CV_8U)
    labels = label_pixels(bright, work.lut)
    top = cv2.LUT(labels, IS_TOP)
    top |= cv2.morphologyEx(top, cv2.MORPH_CLOSE, _K3) & cv2.LUT(labels, _IS_ODD)
    top &= _clear_of(work, dice)
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(top, 8, cv2.CV_32S, cv2.CCL_GRANA)
    a0, found = work.top_area, []
    unchanged = as_the_empty_box(work, work.profile)
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if not t.die_area_min * a0 <= area <= t.die_area_max * a0:
            continue
        part = filled((cc[y : y + h, x : x + w] == i).view(np.uint8))
        inside = part > 0
        n_in = int(np.count_nonzero(inside))
        if not _square(part, a0, t.die_area_min, t.die_area_max) or 2 * np.count_nonzero(zone[y : y + h, x : x + w][inside]) < n_in:
            continue
        share = np.count_nonzero(top[y : y + h, x : x + w][inside]) / n_in
        if share < TOP_SHARE or (unchanged is not None and unchanged(part, (x, y, w, h))):
            continue
        found.append((share, x, y, part))
    out = []
    for _, x, y, part in sorted(found, key=lambda c: -c[0])[:want]:
        window, take = np.s_[y : y + part.shape[0], x : x + part.shape[1]], part > 0
        np.copyto(work.labels[window], labels[window], where=take)
        np.copyto(work.small[window], bright[window], where=take[..., None])
        np.copyto(work.gain[window], np.broadcast_to(gain, work.gain[window].shape).astype(work.gain.dtype),
                  where=take[..., None])
        out.append(((cv2.LUT(labels[window], IS_TOP) & part).view(np.uint8), x, y, float(gain.max())))
    return out


def unglared_dice(work, profile, dice: list, reasons: list, read, thrown: int | None) -> None:
    """While fewer than ``thrown`` dice are read, read each of :func:`unglared_tops`' tops with ``read`` (the reader's
    ``_die``) and add the die and its reasons, with :data:`REASON` at its place, to ``dice`` and ``reasons``."""
    if thrown is None or len(dice) >= thrown:
        return
    tops = unglared_tops(work, profile.thresholds, dice, thrown - len(dice))
    _read_tops(work, profile, tops, dice, reasons, read, lambda gain: (REASON,))


def bare_body(overall: tuple, shares: tuple, first: list[str]) -> bool:
    """Whether a top under the floor's glare, read as one frog colour (``first``) in its place's light, takes its reading
    in the frame's overall light: blank, that reading (``overall``: ``dice._full_counts``' tuple, ``shares`` its
    shares) no frog colour and at least :data:`BARE_BODY` die body. Twin 11810 (round 34's fresh set, seen since): a
    blank die's violet body, with the floor's glare taken off, read pink (0.13-0.60 of the top) in every light; in the
    overall light it is die body all over (0.95-1.0). Still asked, as :func:`rig.vision.dice_overall.
    past_the_floors_glare`'s dice are; a die with the lamp's own reflection on its top keeps its place's reading."""
    counts, n = overall[:2]
    return len(first) == 1 and not shares[1] and not shares[2] and counts[BODY] >= BARE_BODY * n

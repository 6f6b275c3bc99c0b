"""A die top in a wall's deep shade on a floor of the die's own hue, found by its lightness over the floor round it
(issue 24, round 20).

:func:`rig.vision.dice_missed.shade_tops` finds a top in deep shade by its colour brightened: each dark pixel lifted to
the die body's lightness and labelled. On a floor of the die's own hue (violet dice on a violet felt: twin 10311) the
whole shade band lifted so reads as die colour, one blob the band's length, never a die-sized square; and
:func:`~rig.vision.dice_missed.cut_tops` looks only at blobs the colour table calls die body in shade, while there the
top's shaded part is called floor. The die was lost in every turn of 10311 whose throw left one against the far wall
("5 of the 6 dice thrown seen", "part of a die" said at its lit edge).

What still shows it is its lightness: the top stands a die's height above the floor, nearer the wall's top edge and the
room's light, and in the shade band reads 1.5-3 times as light as the floor round it (10311: the top's shaded part
100-180 against the band's floor 60-95, summed B + G + R over 5 x 5 working pixels). The floor's level round each
pixel is the lightness opened (a least then a most) over a square a little wider than a die (:data:`FLOOR_SPAN`): what
is smaller than that — a die's top — is gone from it. Where that floor lies in deep shade (:data:`SHADE_FLOOR` times
darker than the die body) the pixels at least :data:`RELIEF` times as light as it form blobs; a die-sized square one
clear of every die read and off the frame's edge is read as a top: split into its lit and shaded part when it parts so
(:func:`rig.vision.dice_missed.lit_and_shade`), else brightened whole by one gain per channel; a die top when it then
reads mostly as die top (:data:`~rig.vision.dice_missed.TOP_SHARE`). Asked only when the reading is short of the dice
thrown, after the finders by colour; always flagged as they are (the second look does not take the flag off).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from rig.vision.colour_table import colour_lut
from rig.vision.dice_frames import label_pixels
from rig.vision.dice_missed import (
    CAST,
    MOST,
    SHADE_REASON,
    TOP_SHARE,
    _body_bgr,
    _clear_of,
    _read_tops,
    _square,
    empty_floor,
    keep_tops,
    lit_and_shade,
)
from rig.vision.light import sum3
from rig.vision.pixel_classes import _K3, IS_TOP

#: a pixel at least this many times as light as the floor round it stands above the floor (twin 10311's tops in the
#: far wall's shade: 1.5-3; the floor's own noise over 5 x 5 working pixels stays under it)
RELIEF = 1.5
#: the floor round a pixel: its lightness opened over a square this many die sides wide (wider than a die's top)
FLOOR_SPAN = 1.4
#: ... and looked at only where that floor is at least this many times darker than the die body (a wall's deep shade)
SHADE_FLOOR = 2.5
#: ... and where the empty box's floor (:func:`rig.vision.dice_missed.empty_floor`) is at least this many times darker
#: than the die body: a wall's shade is there without dice, a lit gap among dice's shadows is not (10311's tops: 2.6-2.8;
#: the lit gaps read "blank" on seen twin 9955 and 9960 in the drift lights: 1.3-1.75)
EMPTY_SHADE = 2.0


def relief_tops(work, t, dice, want: int) -> list[tuple[np.ndarray, int, int, float]]:
    """Die tops in a wall's deep shade lighter than the floor round them (see the module's text), at most ``want``,
    the most die-like first, written into ``work`` as :func:`rig.vision.dice_missed.cut_tops` does: (top mask, x, y,
    its largest gain) each at the working scale."""
    body = _body_bgr(work.profile)
    level = float(body.sum())
    lum = cv2.blur(sum3(work.small.reshape(-1, 3).astype(np.float32)).reshape(work.small.shape[:2]), (5, 5))
    span = int(round(FLOOR_SPAN * work.side)) | 1
    floor = cv2.morphologyEx(lum, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (span, span)))
    raised = ((lum >= RELIEF * floor) & (floor * SHADE_FLOOR < level)).view(np.uint8) * 255
    if cv2.countNonZero(raised) < t.die_area_min * work.top_area:
        return []
    blob = cv2.morphologyEx(cv2.morphologyEx(raised, cv2.MORPH_OPEN, _K3), cv2.MORPH_CLOSE, _K3) & _clear_of(work, dice)
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(blob, 8, cv2.CV_32S, cv2.CCL_GRANA)
    a0, (H, W) = work.top_area, blob.shape
    lut = work.lut if work.lut is not None else colour_lut(work.profile)
    found = []
    empty = empty_floor(work.profile, (H, W))
    sized = (stats[:, cv2.CC_STAT_AREA] >= t.die_area_min * a0) & (stats[:, cv2.CC_STAT_AREA] <= t.die_area_max * a0)
    for i in (np.flatnonzero(sized[1:]) + 1).tolist():
        x, y, w, h, area = (int(v) for v in stats[i])
        if x == 0 or y == 0 or x + w == W or y + h == H:
            continue
        if empty is not None and EMPTY_SHADE * empty[y + h // 2, x + w // 2] >= level:
            continue  # the empty box showed lit floor here: the shade round it is the dice's own
        part = (cc[y : y + h, x : x + w] == i).view(np.uint8)
        if not _square(part, a0, t.die_area_min, t.die_area_max):
            continue
        read = lit_and_shade(work, x, y, part, area, body, lut, seam=True) or _whole(work, x, y, part, area, body, lut)
        if read is not None and read[0] >= TOP_SHARE:
            found.append((read[0], x, y, *read[1:]))
    return keep_tops(work, found, want)


def _whole(work, x: int, y: int, part: np.ndarray, area: int, body: np.ndarray, lut) -> tuple | None:
    """A blob brightened whole to the die body's colour by one gain per channel (its median's; at most
    :data:`~rig.vision.dice_missed.MOST` times, cast at most :data:`~rig.vision.dice_missed.CAST`), as
    :func:`~rig.vision.dice_missed.lit_and_shade` gives its reading, or None."""
    h, w = part.shape
    window = np.s_[y : y + h, x : x + w]
    seen = np.median(work.small[window][part > 0].astype(np.float32), axis=0)
    gains = body / np.maximum(seen, 1.0)
    if not 1.0 < float(body.sum()) / max(1.0, float(seen.sum())) <= MOST or gains.max() > CAST * gains.min():
        return None
    gain = np.broadcast_to(gains.astype(np.float32), (h, w, 3)).copy()
    bright = np.clip(work.small[window] * gain, 0, 255).astype(np.uint8)
    relabelled = label_pixels(bright, lut)
    take = (part > 0) & (cv2.LUT(relabelled, IS_TOP) > 0)
    return np.count_nonzero(take) / area, gain, bright, relabelled, take


def relief_dice(work, profile, dice: list, reasons: list, read, thrown: int | None) -> None:
    """When fewer dice were read than ``thrown`` once the finders by colour have looked
    (:func:`rig.vision.dice_missed.shade_dice`), read :func:`relief_tops`' tops with ``read`` (the reader's ``_die``)
    from their relabelled working pixels (as a cut top is read) and add them, flagged
    :data:`~rig.vision.dice_missed.SHADE_REASON` at their place."""
    if thrown is None or len(dice) >= thrown or work.profile is None:
        return
    tops = relief_tops(work, profile.thresholds, dice, thrown - len(dice))
    _read_tops(dataclasses.replace(work, gain=None), profile, tops, dice, reasons, read, lambda gain: (SHADE_REASON,))

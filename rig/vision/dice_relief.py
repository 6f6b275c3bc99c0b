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
from rig.vision.light import lightness
from rig.vision.pixel_classes import _K3, BODY, CLIPPED, IS_TOP, YELLOW, filled

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
    lum = cv2.blur(lightness(work.small), (5, 5))
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
        if read is not None and (read[0] >= TOP_SHARE or frog_holed(read, part, area)):
            found.append((read[0], x, y, *read[1:]))
    return keep_tops(work, found, want)


#: a top brightened by the die body's gain reads at least this share as die top ...
HOLED_LEAST = 0.5


def frog_holed(read: tuple, part: np.ndarray, area: int) -> bool:
    """Whether a relief blob's reading (:func:`~rig.vision.dice_missed.lit_and_shade`'s or :func:`_whole`'s) is a die
    top whose frog the body's gain left unread (round 23): at least :data:`HOLED_LEAST` of it reads as die top and, the
    holes in that top filled (its pixels the gain clipped counted in), :data:`~rig.vision.dice_missed.TOP_SHARE`. Twin
    10611 turn 0 (a yellow die against the near wall in its deep shade; round 22's fresh set) and 10605 turn 3: the
    wall's shade cast the frog's pixels so that, lifted by the body's gain, they read "unknown" (0.56 and 0.62 of the
    blob die top, its frog a hole)."""
    relabelled, take = read[-2], read[-1]
    if read[0] < HOLED_LEAST:
        return False
    rim = (take | (relabelled == CLIPPED)).view(np.uint8)  # (the top's lit part lifted with it clips)
    return np.count_nonzero(filled(rim) & part) >= TOP_SHARE * area


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


#: a die top lit in front of a wall's deep shade (the empty box :data:`EMPTY_SHADE` times darker than the die body
#: there) is at least this share of the die body's lightness (twin 10405's far wall: 1.1-1.4 times it; the band's floor
#: lifted reads the floor's colour, its unlifted noise is far darker)
LIT_TOP = 0.7
#: ... where the empty box is this many times darker than the die body (the empty floor's coarse cells smear the band)
LIT_EMPTY = 1.5
#: ... a pixel there whose green is the least of its channels by this share of the body's mean channel is die body (the
#: tops' sheen pales them: 10405's violet tops toned to the body's lightness read 135, 100, 124 against 164, 72, 125)
VIOLET = 0.12
#: ... its median a paled die body: the body's share of it (the rest the lamp's white sheen) ...
SHEEN_BODY = (0.3, 1.2)
#: ... fitting the median within this many levels a channel
SHEEN_FIT = 12.0
#: a blob of at least this share of a top seeds the search: its sheen is fitted on it, and the box round it, grown by
#: :data:`GROW` die sides, read again without the sheen (10405 t2's lit half: 116 px of a 318 px top)
SEED_PART = 0.25
GROW = 0.3
#: ... and its blob may be squashed by the view to this aspect (10405's far wall: 0.65)
LIT_ASPECT = 0.6


def lit_tops(work, t, dice, want: int) -> list[tuple[np.ndarray, int, int, float]]:
    """Die tops lit in front of a wall's deep shade, lighter than the die body as calibrated (nearer the lamp, higher
    than the floor: twin 10405's far wall, its tops called floor or clipped), found by their colour with the lightness
    taken out: each pixel there brought to the die body's lightness and labelled; a die-sized square blob of die top
    clear of the dice read is taken (at most ``want``, the most die-like first), written into ``work`` as
    :func:`relief_tops` writes its tops (issue 24, round 21)."""
    empty = empty_floor(work.profile, work.labels.shape)
    if empty is None:
        return []
    body = _body_bgr(work.profile)
    level = float(body.sum())
    small = work.small.astype(np.float32)
    lum = np.maximum(lightness(small), 1.0)
    near = (LIT_EMPTY * empty < level) & (lum >= LIT_TOP * level)
    if work.deep is not None:  # the band's floor lifted many times: its noise, any colour
        near &= work.deep == 0
    near = near.view(np.uint8) * 255
    if cv2.countNonZero(near) < t.die_area_min * work.top_area:
        return []
    scale = (level / lum)[..., None]
    lut = work.lut if work.lut is not None else colour_lut(work.profile)
    toned = small * scale
    toned = np.clip(toned, 0, 255, out=toned).astype(np.uint8)  # (clipped in place: a fifth of the time)
    relabelled = label_pixels(toned, lut)
    b, g, r = cv2.split(toned.astype(np.int16))
    violet = (np.minimum(b, r) - g >= VIOLET * level / 3) & (relabelled != YELLOW)  # a pale body: green the least
    relabelled[violet & (cv2.LUT(relabelled, IS_TOP) == 0)] = BODY
    top = cv2.LUT(relabelled, IS_TOP) & near
    clear = _clear_of(work, dice)
    blob = cv2.morphologyEx(cv2.morphologyEx(top, cv2.MORPH_OPEN, _K3), cv2.MORPH_CLOSE, _K3) & clear
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(blob, 8, cv2.CV_32S, cv2.CCL_GRANA)
    a0, (H, W) = work.top_area, blob.shape
    found = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if x == 0 or y == 0 or x + w == W or y + h == H:
            continue
        if area < SEED_PART * a0:
            continue
        seed = (cc[y : y + h, x : x + w] == i).view(np.uint8)
        # its sheen from the pixels read as body; then the box round it, grown, read again without the sheen: a frog's
        # pixels, too pale for the colour table before, read as frog and join the top
        fit = _unsheened(toned[y : y + h, x : x + w], seed, body, lut)
        if fit is None:
            continue
        g = int(round(GROW * work.side))
        x, y = max(1, x - g), max(1, y - g)
        w, h = min(W - 1, x + w + 2 * g) - x, min(H - 1, y + h + 2 * g) - y
        window = np.s_[y : y + h, x : x + w]
        grown = _unsheened(toned[window], None, body, lut, fit[3])
        bright, labels, a = grown[:3]
        top = cv2.LUT(labels, IS_TOP) & near[window] & clear[window]
        top = cv2.morphologyEx(top, cv2.MORPH_CLOSE, _K3)
        m, cc2, stats2, _ = cv2.connectedComponentsWithStatsWithAlgorithm(top, 8, cv2.CV_32S, cv2.CCL_GRANA)
        if m < 2:
            continue
        j = 1 + int(np.argmax(stats2[1:, cv2.CC_STAT_AREA]))
        part = filled((cc2 == j).view(np.uint8))  # a frog's unread pixels: a hole
        area = int(np.count_nonzero(part))
        if not _square(part, a0, t.die_area_min, t.die_area_max, aspect=LIT_ASPECT):  # (squashed by the view)
            continue
        take = (part > 0) & (cv2.LUT(labels, IS_TOP) > 0)
        gain = np.broadcast_to(scale[window] / a, (h, w, 3)).astype(np.float32)
        found.append((np.count_nonzero(take) / area, x, y, gain, bright, labels, take))
    return keep_tops(work, [f for f in found if f[0] >= TOP_SHARE], want)


def _unsheened(toned: np.ndarray, part, body: np.ndarray, lut, fit=None) -> tuple | None:
    """A top's pixels (``toned`` to the body's lightness) with the lamp's sheen taken off: its median is the die body
    paled, ``a`` body + ``s`` white (10405's far wall: 140, 97, 122 = 0.47 x (164, 73, 124) + 63), each pixel brought
    back as (pixel - s) / a and labelled: (pixels, labels, a), or None when the median is no paled body."""
    if fit is None:
        seen = np.median(toned[part > 0].astype(np.float32), axis=0)
        model = np.stack([body, np.ones(3, np.float32)], axis=1)
        (a, sheen), *_ = np.linalg.lstsq(model, seen, rcond=None)
        if not SHEEN_BODY[0] <= a <= SHEEN_BODY[1] or sheen < 0 or np.abs(model @ (a, sheen) - seen).max() > SHEEN_FIT:
            return None
        fit = (float(a), float(sheen))
    a, sheen = fit
    bright = np.clip((toned.astype(np.float32) - sheen) / a, 0, 255).astype(np.uint8)
    return bright, label_pixels(bright, lut), a, fit


def relief_dice(work, profile, dice: list, reasons: list, read, thrown: int | None) -> None:
    """When fewer dice were read than ``thrown`` once the finders by colour have looked
    (:func:`rig.vision.dice_missed.shade_dice`), read :func:`relief_tops`' tops with ``read`` (the reader's ``_die``)
    from their relabelled working pixels (as a cut top is read) and add them, flagged
    :data:`~rig.vision.dice_missed.SHADE_REASON` at their place."""
    if thrown is None or len(dice) >= thrown or work.profile is None:
        return
    relabelled, flags = dataclasses.replace(work, gain=None), lambda gain: (SHADE_REASON,)  # (the tops' pixels written in)
    _read_tops(relabelled, profile, relief_tops(work, profile.thresholds, dice, thrown - len(dice)), dice, reasons, read,
               flags)
    if len(dice) < thrown:  # a top lit in front of the shade, lighter than the body (round 21)
        _read_tops(relabelled, profile, lit_tops(work, profile.thresholds, dice, thrown - len(dice)), dice, reasons, read,
                   flags)

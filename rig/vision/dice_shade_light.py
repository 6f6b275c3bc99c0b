"""A die top in a wall's deep shade, lit brighter than the shaded floor, read in its own body's light (issue 24,
round 36).

Calibration's shade map (:mod:`rig.vision.calibrate_shade`) lifts a wall's deep shade, per channel, to the open
floor's light: the shade's light is the walls' and the room's. A die's top stands a die's height above that floor
and catches more of it, of another colour: on twin 11910 (printed floor, one 2742 K lamp) the near wall's band
lifts the floor 6-10 times, and a blank die's top there is about (53, 13, 9) BGR — lifted, it clips in blue, so
:func:`rig.vision.dice_frames._lift_shade` leaves it as the frame shows it, and the colour table calls it the
band's near-black floor (the empty box taught calibration that colour as floor). Its cast (blue 3-4 times the red's
gain to the die body) is beyond what :func:`rig.vision.dice_missed.shade_tops` takes, and its blob holds no shade
body, so :func:`rig.vision.dice_missed.cut_tops` does not look at it either: the die is not found.

Every die top in that band lies under the same light, and the die's body is a reference under it: a blue frog
there reads (68, 17, 4), the body beside it (53, 13, 9), as the blue and body models stand to each other in the
open. So, while a reading is short of the dice thrown, a die-sized square of pixels the shade map lifts past
:data:`OVERLIFT` in some channel (over-lifted: lit brighter than the shaded floor), clear of the dice read, is
brightened per channel so that its body comes out the profile's body colour (first its median, then the pixels
that read as body) and read as a die when it then reads mostly as die top; it is always asked
(:data:`rig.vision.dice_missed.SHADE_REASON`).
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_body_light import body_bgr
from rig.vision.dice_frames import label_pixels, shrink
from rig.vision.dice_missed import MOST, SHADE_REASON, TOP_SHARE, _clear_of, _read_tops, _square, shade_edge_parts
from rig.vision.light import lightness, shade_gain
from rig.vision.pixel_classes import _K3, IS_TOP

#: a pixel (a 3 x 3 mean) whose colour, lifted by the shade map, reaches this level in any channel is lit brighter
#: than the shaded floor there can be: a die top standing in the shade
OVERLIFT = 250
#: ... looked for only where the shade map lifts at least this many times (a wall's deep shade)
DEEP = 2.0


def overlifted_tops(work, t, dice, want: int) -> list[tuple[np.ndarray, int, int, float]]:
    """Die-sized square tops in a wall's deep shade that the shade map over-lifts, clear of the ``dice`` read, each
    brightened to the die body's colour in its own light and relabelled in ``work`` (in place): (top mask, x, y,
    largest gain) each, at most ``want``, the most die-like first."""
    profile, a0 = work.profile, work.top_area
    lift = shade_gain(profile, work.labels.shape)
    if lift is None:
        return []
    deep = lift.max(axis=2) >= DEEP
    if np.count_nonzero(deep) < t.die_area_min * a0:
        return []
    raw = shrink(work.frame, work.factor)
    lifted = cv2.blur(raw, (3, 3)).astype(np.float32) * lift * work.overall_gain.astype(np.float32)
    over = (lifted.max(axis=2) >= OVERLIFT) & deep & (_clear_of(work, dice) > 0)
    mask = cv2.morphologyEx(over.view(np.uint8), cv2.MORPH_OPEN, _K3)
    if cv2.countNonZero(mask) < t.die_area_min * a0:
        return []
    body = body_bgr(profile).astype(np.float32)
    level = float(body.sum())
    lut = work.lut
    H, W = mask.shape
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    found = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if x == 0 or y == 0 or x + w == W or y + h == H:
            continue
        part = (cc[y : y + h, x : x + w] == i).view(np.uint8)
        if not _square(part, a0, t.die_area_min, t.die_area_max):
            continue
        window = np.s_[y : y + h, x : x + w]
        inside = part > 0
        seen = raw[window].astype(np.float32)
        if not 1.0 < level / max(1.0, float(lightness(seen)[inside].mean())) <= MOST:
            continue
        gain = np.ones(seen.shape, np.float32)
        for own in _parts(seen, inside, area):  # the shaded part and the part the lamp still lights, each in its light
            gain[own] = _own_light(own, inside, seen, body, work.side)
        bright = np.clip(seen * gain, 0, 255).astype(np.uint8)
        relabelled = label_pixels(bright, lut)
        take = inside & (cv2.LUT(relabelled, IS_TOP) > 0)
        share = np.count_nonzero(take) / area
        if share >= TOP_SHARE:
            found.append((share, x, y, gain, bright, relabelled, take))
    out = []
    for share, x, y, gain, bright, relabelled, take in sorted(found, key=lambda c: -c[0])[:want]:
        window = np.s_[y : y + take.shape[0], x : x + take.shape[1]]
        np.copyto(work.labels[window], relabelled, where=take)
        np.copyto(work.small[window], bright, where=take[..., None])
        np.copyto(work.gain[window], gain, where=take[..., None])
        out.append((take.view(np.uint8), x, y, float(gain.max())))
    return out


def _parts(seen: np.ndarray, inside: np.ndarray, area: int) -> list[np.ndarray]:
    """A top's pixels (``inside`` of ``seen``) as a shaded part and a part the lamp still lights where a wall's shadow
    edge crosses the top (:func:`rig.vision.dice_missed.shade_edge_parts`), else the whole top."""
    split = shade_edge_parts(lightness(seen), inside, area)
    return [inside] if split is None else [split[2], split[1]]


#: a die's frog lies inside the middle of its top: the band along the top's outline this share of a die side wide (a
#: pixel in from it: the rounded edge) is die body
RING = 0.2


def _own_light(own: np.ndarray, inside: np.ndarray, seen: np.ndarray, body: np.ndarray, side: float) -> np.ndarray:
    """The gain per channel that brings the die body among ``own`` pixels of ``seen`` to ``body``: measured on those
    of them along the top's outline (``inside``: the whole top), where no frog lies (:data:`RING`), or on all of them
    when too few lie there."""
    reach = cv2.distanceTransform(inside.view(np.uint8), cv2.DIST_L2, 3)
    ring = own & (reach > 1.0) & (reach <= max(2.0, RING * side))
    pick = ring if np.count_nonzero(ring) >= 12 else own
    return body / np.maximum(np.median(seen[pick], axis=0), 1.0)


def shade_light_dice(work, profile, dice: list, reasons: list, read, thrown: int | None) -> None:
    """While fewer dice than ``thrown`` are read, read :func:`overlifted_tops` with ``read`` (the reader's ``_die``)
    and add them, always asked (:data:`rig.vision.dice_missed.SHADE_REASON`)."""
    if thrown is None or len(dice) >= thrown or work.profile is None or work.gain is None or work.lut is None:
        return
    tops = overlifted_tops(work, profile.thresholds, dice, thrown - len(dice))
    _read_tops(work, profile, tops, dice, reasons, read, lambda gain: (SHADE_REASON,))

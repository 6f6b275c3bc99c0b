"""A die leaning on a lit wall with its top turned to the lens: its near-black side face darkens the wall beyond the
top's outer edge (issue 24, round 32).

Twin 11501 turn 11 (and 15, 19, 23): a blank die leaning on the left wall, which the lamp lights, is read flat and
right, and no check flags it at its place. :mod:`rig.vision.dice_wallside` looks for its side face by hue (die body
beyond the outer edge): here the strip holds 0.05-0.09 die body, the face being near black. What parts it is
lightness: the empty box shows the lit grey wall there; the frame shows a near-black band over it (0.46-0.59 of
the empty box's mean L in the strip, its darkest tenth at L 5-10), and the wall beyond that band as lit as the empty
box shows it. A flat die's shadow is seldom that black, and runs on beyond the strip. Narrow and fitted on one wall:
on the seen twin sets it flags 14 leaning dice (all 11501's) and 15 flat ones (4 of them turns flagged by nothing
else, 11505 turn 14; docs/vision.md, round 32).

Called by :func:`rig.vision.dice.read_labels` after :func:`rig.vision.dice_wallside.wall_side_flags`: it adds a
reason and removes none.
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_lampside import neighbour_on_side, kept_with_frame, strips
from rig.vision.dice_wallside import lab_unlit, cut_by_frame, light_change, outward_sides
from rig.vision.light import profile_map

#: an outward strip (:func:`rig.vision.dice_lampside.strips`) is a lit wall where the empty box shows it at least
#: this light (mean L, OpenCV's 8-bit scale) and about grey: its mean chroma (distance of (a, b) from grey) at most
#: :data:`GREY_WALL`. Twin 11501's lit left wall beside its leaning dice: L 128-134, chroma 2-4
LIT_WALL = 110.0
GREY_WALL = 6.0
#: ... and the frame there, the light change taken out, darker than this share of the empty box's mean L, its darkest
#: tenth at most :data:`NEAR_BLACK` (L) and the strip beyond it as light as the empty box's there (:data:`BEYOND`):
#: a leaning die's near-black side face on the wall, not a flat die's shadow, which is not near black or runs on
#: (twin 11501, every light: 0.46-0.59, darkest tenth 5-10, beyond 1.00-1.02; the nearest flat die, 11301 turn 7
#: at (51, 361): 0.57-0.68, darkest tenth 12-21; probe of 11500-11502, 11504, 11508, 11510-11511, docs/vision.md)
DARKER = 0.62
NEAR_BLACK = 11.0
BEYOND = 0.97
REASON = "cocked die (its side face darkens the lit wall beyond its outer edge)"


def _chromas(lab: np.ndarray) -> np.ndarray:
    """Each pixel's distance of (a, b) from grey (128, 128), float32, of ``lab`` (... x 3, any type)."""
    ab = np.asarray(lab, np.float32)[..., 1:] - 128.0
    return np.sqrt((ab * ab).sum(axis=-1))


def _wall_maps(empty_lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The empty box's picture ``empty_lab`` (uint8 Lab, frame-sized) as its lightness's summed-area table (int32,
    (h + 1) x (w + 1)) and each pixel's :func:`_chromas`; made once a picture (:func:`rig.vision.light.profile_map`;
    issue 24, round 37: each outward strip's were taken anew, about 7 strips a twin frame)."""

    def build() -> tuple[np.ndarray, np.ndarray]:
        return cv2.integral(np.ascontiguousarray(empty_lab[..., 0])), _chromas(empty_lab)

    return profile_map("walldark_maps", empty_lab, empty_lab.shape[:2], build)


def _mean_light(summed: np.ndarray, rect) -> float:
    """The mean of the lightness in ``rect`` (y0, y1, x0, x1) from its summed-area table ``summed``: numpy's mean of
    those uint8 values (their exact sum over their count, in float64), the same number."""
    y0, y1, x0, x1 = rect
    total = int(summed[y1, x1]) - int(summed[y0, x1]) - int(summed[y1, x0]) + int(summed[y0, x0])
    return total / ((y1 - y0) * (x1 - x0))


def _beyond(rect, name: str, shape: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The strip as deep as ``rect`` (y0, y1, x0, x1, beside side ``name`` of a die's box) just beyond it, cut to a
    frame of ``shape``; None where nothing of it is left."""
    y0, y1, x0, x1 = rect
    h, w = shape
    dx, dy = x1 - x0, y1 - y0
    out = {"L": (y0, y1, max(0, x0 - dx), x0), "R": (y0, y1, x1, min(w, x1 + dx)),
           "T": (max(0, y0 - dy), y0, x0, x1), "B": (y1, min(h, y1 + dy), x0, x1)}[name]
    return out if out[1] > out[0] and out[3] > out[2] else None


def wall_dark_dice(frame_bgr: np.ndarray, empty_lab: np.ndarray, dice, side: float, channels=None) -> list:
    """The dice of ``dice`` (not read cocked) with an outward strip, no die ahead of it and whole in the frame, where
    the empty box's picture ``empty_lab`` (uint8 Lab, frame-sized) shows a lit grey wall (:data:`LIT_WALL`,
    :data:`GREY_WALL`) and the frame, the light change ``channels`` taken out, a near-black band over it
    (:data:`DARKER`, :data:`NEAR_BLACK`) with the wall beyond as lit as the empty box shows it (:data:`BEYOND`)."""
    found = []
    shape = frame_bgr.shape[:2]
    for d in dice:
        if d.cocked:
            continue
        for name in outward_sides(d.x, d.y, shape):
            if neighbour_on_side(d, dice, name, side) or cut_by_frame(d.box, name, side, shape):
                continue
            rect = strips(d.box, side, shape)[name]
            if _near_black_band(frame_bgr, empty_lab, rect, _beyond(rect, name, shape), channels):
                found.append(d)
                break
    return found


def _near_black_band(frame_bgr, empty_lab, rect, beyond, channels) -> bool:
    """Whether strip ``rect`` (y0, y1, x0, x1) is a near-black band over a lit grey wall that runs on lit beyond it
    (``beyond``, a strip's rect or None): :func:`wall_dark_dice`'s test."""
    summed, chromas = _wall_maps(empty_lab)
    light = _mean_light(summed, rect)
    if beyond is None or light < LIT_WALL or float(chromas[rect[0] : rect[1], rect[2] : rect[3]].copy().mean()) > GREY_WALL:
        return False
    seen = lab_unlit(frame_bgr, rect, channels)[..., 0]
    if float(seen.mean()) >= DARKER * light or float(np.percentile(seen, 10)) > NEAR_BLACK:
        return False
    return float(lab_unlit(frame_bgr, beyond, channels)[..., 0].mean()) >= BEYOND * _mean_light(summed, beyond)


def wall_dark_flags(work, profile, dice) -> list:
    """:data:`REASON` at each die :func:`wall_dark_dice` finds in ``work``'s frame, as flags; none without the frame
    or the empty box's picture kept for ``profile``."""
    from rig.vision.dice_flag import Flag

    empty = kept_with_frame(work, profile)
    if empty is None:
        return []
    found = wall_dark_dice(work.frame, empty_frame_lab(empty.lab, work.frame.shape[:2]), dice, work.side * work.factor,
                           light_change(work.light))
    return [Flag(REASON, d.x, d.y) for d in found]


def empty_frame_lab(empty_lab: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The empty box's picture (uint8 Lab, any size) at ``shape`` (h, w), uint8; made once a picture and frame size
    (:func:`rig.vision.light.profile_map`)."""

    def build() -> np.ndarray:
        return cv2.resize(empty_lab, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)

    return profile_map("walldark_empty", empty_lab, tuple(shape), build)

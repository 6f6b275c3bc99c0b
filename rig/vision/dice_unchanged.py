"""A die read where the empty box shows the same: no die there, only the light changed (issue 24, round 26).

2D unseen table 49011 (a dark box bottom in a violet-pink room): after the exposure drops to x0.7 the light
correction lifts the table beyond the box's rim, at the frame's top edge, to the dice's violet, and the reader reads
it as a blank die. With two dice thrown nothing else was wrong: turn 9 read a third die, ``ok``. A die changes
what the camera sees: its top is not what the empty box showed at that place. The empty box's picture calibration
keeps beside the profile (:func:`rig.vision.card_empty.kept`), in the frame's measured light (the floor's change per
channel, :attr:`rig.vision.light.Light.channels`), is compared with the middle of each die's top; where they are all
but the same (:data:`UNCHANGED`) the die is flagged. Without the picture (or the full frame) nothing is judged.
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_flag import Flag
from rig.vision.dice_lampside import kept_with_frame
from rig.vision.light import _median0, profile_map, sum3

#: the middle of a die's box compared: this share of its width and height off each side
MARGIN = 0.25
#: the median Lab distance (OpenCV's 8-bit Lab) between the frame and the empty box in its light at a die's top
#: below which the die is flagged: 49011's phantom 3.1-4.2 in every turn at exposure x0.7 (twin 10300, 10905, 10910's
#: dice read on the table beyond the rim after 700 K warmer, flagged already: 3.3-4.2); the real dice read on 40 seen
#: 2D tables (five lights) 16.3 and more, on 47 seen twin tables (four lights) 8.75 and more (round 26's probe)
UNCHANGED = 6.0
REASON = "die top as the empty box shows its place (no die there?)"
#: a blob of die body in shade, once every die thrown is read, is no die hidden in shade when the frame shows its
#: pixels as the empty box does: their median Lab distance (as :data:`UNCHANGED`) under this, and at most
#: :data:`CHANGED_TOPS` of a die's top of them farther than :data:`CHANGED` (a blob may be many tops large: twin
#: 10105's far corner, 17 tops at a median of 2.4-4.1). Twin 11501's far-wall shade: 3.0-3.3 in every light; a die
#: lying in such a blob (seen sets, round 32's probe): 15.8 and more
SHADE_UNCHANGED = 6.0
CHANGED = 12.0
CHANGED_TOPS = 0.25


def empty_bgr(empty_lab: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The empty box's picture (uint8 Lab, any size) as BGR float32 at ``shape`` (h, w), made once a picture and
    frame size."""

    def build() -> np.ndarray:
        bgr = cv2.cvtColor(empty_lab, cv2.COLOR_Lab2BGR)
        return cv2.resize(bgr, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR).astype(np.float32)

    return profile_map("unchanged_empty", empty_lab, tuple(shape), build)


def distance(frame: np.ndarray, empty: np.ndarray, channels, box: tuple[int, int, int, int]) -> float | None:
    """The median Lab distance between ``frame`` (BGR uint8) and ``empty`` (BGR float32, the frame's size) times
    ``channels`` (B, G, R) in the middle of ``box`` (x, y, w, h; frame px); None when that middle is empty."""
    x, y, w, h = box
    x0, x1 = max(0, int(x + MARGIN * w)), min(frame.shape[1], int(x + (1 - MARGIN) * w))
    y0, y1 = max(0, int(y + MARGIN * h)), min(frame.shape[0], int(y + (1 - MARGIN) * h))
    if x1 <= x0 or y1 <= y0:
        return None
    ya, xa = max(0, y0 - 1), max(0, x0 - 1)  # a pixel round it, blurred with it (the sensor's noise)
    seen = cv2.blur(frame[ya : y1 + 1, xa : x1 + 1], (3, 3))[y0 - ya : y1 - ya, x0 - xa : x1 - xa]
    d = _squared_gaps(empty[y0:y1, x0:x1], channels, seen)
    # np.median(np.sqrt(((a - b) ** 2).sum(axis=2))), the same number without numpy's generic machinery (issue 24,
    # round 28: a third of the time)
    return float(_median0(np.sqrt(sum3(d.reshape(-1, 3)))[:, None])[0])


def _squared_gaps(empty: np.ndarray, channels, seen: np.ndarray) -> np.ndarray:
    """Per pixel, the squared Lab differences (h x w x 3, float32) between ``empty`` (BGR float32) times ``channels``
    (B, G, R) and ``seen`` (BGR uint8, the same size): :func:`distance`'s and :func:`as_the_empty_box`'s."""
    # the empty box in the frame's light: numpy's float32 products (OpenCV's multiply gives the same numbers, without
    # numpy's broadcasting over a strided crop: a third of the time; issue 24, round 29)
    lit = cv2.multiply(empty, (*(float(c) for c in np.float32(channels)), 0.0))
    lit = np.clip(lit, 0, 255, out=lit).astype(np.uint8)
    d = cv2.cvtColor(lit, cv2.COLOR_BGR2Lab).astype(np.float32)
    d -= cv2.cvtColor(np.ascontiguousarray(seen), cv2.COLOR_BGR2Lab)
    d *= d
    return d


def unchanged_flags(work, profile, dice) -> list:
    """:data:`REASON` at each of ``dice`` whose top's middle is what the empty box shows there in the frame's light
    (:data:`UNCHANGED`); none without the frame or the empty box's picture kept for ``profile``."""
    kept = kept_with_frame(work, profile)
    if kept is None or not dice:
        return []
    empty = empty_bgr(kept.lab, work.frame.shape[:2])
    channels = work.light.channels if work.light is not None else (1.0, 1.0, 1.0)
    out = []
    for d in dice:
        gap = distance(work.frame, empty, channels, d.box)
        if gap is not None and gap < UNCHANGED:
            out.append(Flag(REASON, d.x, d.y))
    return out


def gaps(work, profile):
    """A measure of pixels in a box (``(inside, box)``: pixels uint8 0/1 in the box, the box x, y, w, h in working px):
    their Lab distances (float32, frame px) to the empty box there in the frame's light, None for a box off the frame;
    None without the frame or the picture."""
    kept = kept_with_frame(work, profile)
    if kept is None:
        return None
    empty = empty_bgr(kept.lab, work.frame.shape[:2])
    channels = work.light.channels if work.light is not None else (1.0, 1.0, 1.0)

    def seen(inside: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray | None:
        (x, y, w, h), f = box, work.factor
        x0, y0 = x * f, y * f
        x1, y1 = min(work.frame.shape[1], (x + w) * f), min(work.frame.shape[0], (y + h) * f)
        if x1 <= x0 or y1 <= y0:
            return None
        at = cv2.resize(inside, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST) > 0
        return np.sqrt(sum3(_squared_gaps(empty[y0:y1, x0:x1], channels, cv2.blur(work.frame[y0:y1, x0:x1], (3, 3)))[at]))

    return seen


def as_the_empty_box(work, profile):
    """A test of a blob of die body in shade (``dice_shade.blob``'s ``unchanged``: its pixels in its box, uint8 0/1,
    and that box, working px): True when the frame shows those pixels as the empty box does in the frame's light (their
    median Lab distance under :data:`SHADE_UNCHANGED`, few changed: :data:`CHANGED_TOPS`), so no die lies there; None
    without the frame or the picture.
    Round 32: twin 11501's violet floor in the far wall's shade, as dark as a die body in shade, in every turn."""
    measure = gaps(work, profile)
    if measure is None:
        return None
    f = work.factor

    def unchanged(inside: np.ndarray, box: tuple[int, int, int, int]) -> bool:
        gap = measure(inside, box)
        if gap is None:
            return False
        return (float(np.median(gap)) < SHADE_UNCHANGED
                and np.count_nonzero(gap > CHANGED) <= CHANGED_TOPS * (work.side * f) ** 2)

    return unchanged

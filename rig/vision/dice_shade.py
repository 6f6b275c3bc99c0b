"""A blob of die body in shade that no die read explains: the reader's "die in shadow or on edge" test (issue 24,
round 18; moved out of :mod:`rig.vision.dice`).

A blob of die body in shade is flagged because a die may lie hidden in it. Once every die thrown is read
(:func:`disc`: the game gives the count) none can, unless a die read is no die; then a blob is flagged only when it is
somewhere about a die's top thick, holding a disc of :data:`CORE` die sides (its farthest pixel from its outline). The
band of a wall's shade along the box's edge, broken by the deep shade lift's noise (twin 10107: 1.1-1.6 die sides wide,
a disc of 0.21-0.31), a flat die's cast shadow or side face beside it (10011 turn 3: 0.27) hold none. Without the
count the flag is as before: a die hidden in the shade leaves a blob broken up as much (10106 turn 3, 10009 turn 2: a
disc of 0.16-0.34 die sides), and the count of dice thrown is what flags those turns then.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from rig.vision.light import prints_at, profile_map
from rig.vision.pixel_classes import _K3

#: die sides: the least radius of the largest disc a blob of die body in shade holds (its farthest pixel from its
#: outline) to be flagged once every die thrown is read; a die's whole top holds one of half a side (round 18). 0.45
#: freed the shade of two walls joined in an L on twin 10105 (0.38-0.43) too, and left propped 5008 turn 1 (lamp x0.8)
#: "ok": its die leaning on the near wall is read flat, flagged in every light only by the print's dark violet disc (0.36)
CORE = 0.3


def disc(seen: int, thrown: int | None) -> float:
    """The disc (die sides) a blob of die body in shade must hold to be flagged, ``seen`` dice read of ``thrown``: 0
    (any blob) unless every die thrown is read."""
    return CORE if thrown is not None and seen >= thrown else 0.0


def off_prints(profile, shape: tuple[int, int], every_die: bool) -> np.ndarray | np.uint8:
    """Where a blob of die body in shade is looked for (255): everywhere but, once every die thrown is read
    (``every_die``), where the empty box itself reads as a die in shade (the profile's ``prints``, round 31: card twin
    4910's maroon disc of the print, flagged in every frame)."""
    prints = prints_at(profile, shape) if every_die else None
    if prints is None:
        return np.uint8(255)
    return profile_map("off prints", profile, shape, lambda: np.where(prints > 0, 0, 255).astype(np.uint8))


def core(labels: np.ndarray, j: int, stats: np.ndarray) -> float:
    """Blob ``j``'s (``labels``, its ``stats`` row) largest inscribed disc's radius, px (L2 distance to its outline)."""
    inside = np.pad(_pixels(labels, j, stats), 1)
    return float(cv2.distanceTransform(inside, cv2.DIST_L2, 5).max())


def _pixels(labels: np.ndarray, j: int, stats: np.ndarray) -> np.ndarray:
    """Blob ``j``'s pixels (``labels``, its ``stats`` row) in its box, uint8 0/1."""
    x, y, w, h = (int(v) for v in stats[:4])
    return (labels[y : y + h, x : x + w] == j).view(np.uint8)


def blob(mask: np.ndarray, least: float, thick: float = 0.0, disc: float = 0.0,
         unchanged: Callable[[np.ndarray, tuple[int, int, int, int]], bool] | None = None) -> tuple[float, float] | None:
    """Centre of the first blob of at least ``least`` px once specks and thin rims are opened away, on average at
    least ``thick`` px wide (area / length: a line along the box's edge is not a die), holding a disc of radius
    ``disc`` px (:func:`core`; 0: not asked) and, given ``unchanged`` (its pixels in its box, uint8 0/1, and that box:
    x, y, w, h), not one it calls unchanged since the empty box (:func:`rig.vision.dice_unchanged.as_the_empty_box`)."""
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
    if cv2.countNonZero(opened) < least:
        return None
    # Grana's algorithm: the same labels, stats and centres as the default one, which took 0.5 ms on a whole frame
    n, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(opened, 8, cv2.CV_32S, cv2.CCL_GRANA)
    area, long_ = stats[:, cv2.CC_STAT_AREA], np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    big = (area >= least) & (area >= thick * long_)  # (every blob's size at once: a frame's shade holds dozens of specks)
    big[0] = False  # the background
    for j in np.flatnonzero(big).tolist():
        if ((disc <= 0 or core(labels, j, stats[j]) >= disc)
                and (unchanged is None or not unchanged(_pixels(labels, j, stats[j]), tuple(stats[j, :4])))):
            return tuple(centres[j])
    return None

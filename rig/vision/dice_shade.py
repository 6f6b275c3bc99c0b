"""A blob of die body in shade that no die read explains: the reader's "die in shadow or on edge" test (issue 24,
round 18; moved out of :mod:`rig.vision.dice`).

A die hidden in a wall's deep shade shows at least its top there, a die-sized square, so the blob of die body in shade
it leaves holds a disc of about half a die side's radius. A band of a wall's shade along the box's edge, a stripe of the
box's print or a flat die's cast shadow can be long and large, and pass the blob's size and mean width, yet hold no
such disc (twin 10107, 10105: the shade of walls along the box's edge, 0.5-0.9 die sides wide; 10008: a dark print
stripe 0.55 die sides thick). :data:`CORE` asks the blob for it once every die thrown is read (:func:`disc`): a die
hidden in the shade would leave the reading a die short, and the flag is what tells of it when the count is not known.
The noise of the deep shade's lift breaks a hidden die's blob up (twin 10106 turn 3, 10009 turn 2: a disc of only 0.16-0.34
die sides) — the count of dice thrown, which the game gives, flags those turns.
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.pixel_classes import _K3

#: die sides: the least radius of the largest disc a blob of die body in shade holds (its farthest pixel from its
#: outline) to be taken for a die hidden in shade; a die's top holds one of half a side (round 18)
CORE = 0.45


def disc(seen: int, thrown: int | None) -> float:
    """The disc (die sides) a blob of die body in shade must hold to be flagged, ``seen`` dice read of ``thrown``: 0
    (any blob) unless every die thrown is read."""
    return CORE if thrown is not None and seen >= thrown else 0.0


def core(labels: np.ndarray, j: int, stats: np.ndarray) -> float:
    """Blob ``j``'s (``labels``, its ``stats`` row) largest inscribed disc's radius, px (L2 distance to its outline)."""
    x, y, w, h = (int(v) for v in stats[:4])
    inside = np.pad((labels[y : y + h, x : x + w] == j).view(np.uint8), 1)
    return float(cv2.distanceTransform(inside, cv2.DIST_L2, 5).max())


def blob(mask: np.ndarray, least: float, thick: float = 0.0, disc: float = 0.0) -> tuple[float, float] | None:
    """Centre of the first blob of at least ``least`` px once specks and thin rims are opened away, on average at
    least ``thick`` px wide (area / length: a line along the box's edge is not a die) and holding a disc of radius
    ``disc`` px (:func:`core`; 0: not asked)."""
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
    if cv2.countNonZero(opened) < least:
        return None
    # Grana's algorithm: the same labels, stats and centres as the default one, which took 0.5 ms on a whole frame
    n, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(opened, 8, cv2.CV_32S, cv2.CCL_GRANA)
    for j in range(1, n):
        area = stats[j, cv2.CC_STAT_AREA]
        if (area >= least and area >= thick * max(stats[j, cv2.CC_STAT_WIDTH], stats[j, cv2.CC_STAT_HEIGHT])
                and (disc <= 0 or core(labels, j, stats[j]) >= disc)):
            return tuple(centres[j])
    return None

"""A flat die's top cut short by shade, called cocked by the top's aspect test: its whole body a top (issue 24, round 31).

The top's aspect test (``dice._die``) calls a die cocked when its lit top is narrower than square. On the twin a flat
die often shows such a top: part of it lies in a wall's or another die's shade (at the near wall's foot, in a shade
band along a side wall). A leaning die shows its top foreshortened, and beside it its side face: the two together run
cos + sin of its tilt along the lean, at least 1.16 die sides for the twin's 10 degrees, so its lit top joined to the
shade of its own hue (:func:`rig.vision.dice_cocked._joined`) is more than a top. A flat die's joined body is its
top: square, and no bigger than a top. The second look (``dice_second_look``) frees the plain "cocked die" flag of a
die the aspect test called cocked when its body is so and its net reads the reader's face surely.

Fitted on the seen twin sets 10000-10005, 10100-10105, 10900-10905, 11200-11211, 11300-11311, 11400-11411 (every
die the aspect test alone flags, all four lights, ``main`` cd55606: 49 truly cocked die-lights, 18 dice; 413 flat):
the truly cocked dice whose joined body is square (30 die-lights) read 1.13-1.65 tops, those of a top or less are not square (0.75
at most: a body cut by the frame's edge); 75 flat die-lights are square and read at most :data:`BODY_TOPS`.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: the joined body's short / long side (what perspective shows of the walls added back) at least this: square
BODY_SQUARE = 0.85
#: ... and its area at most this many tops (a truly cocked die's: 1.13 and more; at 1.1, 11 flat die-lights more)
BODY_TOPS = 1.05


def joined_body(d, work, dice) -> tuple[float, int, float, float] | None:
    """Die ``d``'s (of the reading's ``dice``, frame px) lit top joined to the shade of its own hue that touches it
    (:func:`rig.vision.dice_cocked._joined`): its aspect (short / long side of its least rectangle, what perspective
    shows of the walls added back), its area (working px) and that rectangle's sides; None where nothing joins."""
    from rig.vision.dice_cocked import _around, _joined, _radial

    masks = _joined(d, work, dice, _around(d, work, dice))
    if masks is None:
        return None
    body = masks[1]
    (_, _), (w, h), _ = cv2.minAreaRect(cv2.findNonZero(body.view(np.uint8)))
    aspect = min(w, h) / max(w, h, 1e-6) + work.profile.walls[3] * math.hypot(*_radial(d, work))
    return aspect, np.count_nonzero(body), w, h


def body_a_top(d, work, dice) -> bool:
    """Whether die ``d`` (of the reading's ``dice``, frame px) shows a body no bigger than one square top once its
    lit top is joined to the shade of its own hue that touches it (:data:`BODY_SQUARE`, :data:`BODY_TOPS`)."""
    body = joined_body(d, work, dice)
    return body is not None and body[0] >= BODY_SQUARE and body[1] <= BODY_TOPS * work.top_area

"""A die top joined to die-coloured specks of the floor beside it: the specks cut off before the top is read (issue 24, round 24).

A die's top is one connected blob of die classes; its convex hull is where its colours are counted. Under the floor's
glare, the blue-gray floor of twin 10706 round a die reads blue once the glare is taken off: a lobe of "blue" joined
to a die top's edge grows its hull to twice a die's top (1.9-2.1 of ``top_area``) and the frog's shares are counted
over that hull — a yellow+pink die read blue ("unclear pink/yellow"), a blue+yellow die read blue ("unclear yellow"),
in every light. The blob itself is under ``die_area_max`` (its own pixels 1.4 of a top), so it is not split.

:func:`speckless` takes the die out of such a blob: one die-sized square packed into it, its holes filled
(:func:`rig.vision.dice_blobs.pack`, as for touching dice that do not split), and the blob inside that square is the
top. Only a blob whose hull is more than :data:`HULL_MOST` of a die's top is looked at, and the cut is taken only
when what is left is a die-sized top (its hull at least ``die_area_min``, at most :data:`HULL_KEPT` of a die's top) and
what is cut off reads mostly frog colour (:data:`SPECKS_LEAST`): a leaning die's top joined to its lit side face (die
body) is read whole as before (propped twin 5022 turn 2: cut, a pink die's blue specks read a pink+blue half).
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_blobs import pack
from rig.vision.pixel_classes import BLUE, PINK, YELLOW, filled

#: a blob whose convex hull exceeds this share of a die's top is looked at for specks (the misread combo dice of twin
#: 10706 turns 1 and 3 read 1.9-2.1; round 24's fresh 10810 turn 2's two blank dice, a lobe of blue-lit floor joined
#: to each, their filled hulls 1.36-1.58 over the four lights, read blue at 1.6: round 25). Nothing under it is cut:
#: the cut is kept only at :data:`HULL_KEPT` or less, and only when what it cuts off reads mostly frog colour
HULL_MOST = 1.3
#: the cut is kept when the top left's hull is at most this share of a die's top (a die-sized top)
HULL_KEPT = 1.3
#: ... and when at least this share of what it cuts off reads frog colour: specks of the floor (10706: 0.78-0.97 blue;
#: 10810: 0.96-1.0). A leaning die's lit side face is die body (propped twin 5022 turn 2's pink die: 0.88-0.96 body; cut
#: off, its frog's share grew and its blue specks read a pink+blue half after a drift); propped 5005 turn 0's leaning
#: blank die, its hull 1.40-1.46 tops, would lose a side face's pink icon in its body, 0.52-0.55 frog (round 25: 0.5
#: before, the bound 1.6 kept it from being looked at; cut, its "unclear pink", its only flag, went)
SPECKS_LEAST = 0.7


def speckless(part: np.ndarray, lab: np.ndarray, n_hull: int, top_area: float, least: float) -> np.ndarray | None:
    """``part`` (a die blob's 0/1 mask) cut to the die-sized square it holds, or None when it is not looked at (its
    hull, ``n_hull`` pixels, not over :data:`HULL_MOST` of ``top_area``), holds no die-sized top (the square's
    part's hull under ``least`` or over :data:`HULL_KEPT` of ``top_area``) or what the square leaves is not mostly
    frog colour (under :data:`SPECKS_LEAST` of it, by ``lab``: the blob's pixel classes).

    >>> top = np.zeros((40, 60), np.uint8); top[10:30, 10:30] = 1
    >>> lab = np.full((40, 60), BLUE, np.uint8)   # (every pixel frog blue)
    >>> speckless(top, lab, 400, 400.0, 0.6) is None
    True
    >>> blob = top.copy(); blob[4:16, 30:46] = 1   # a lobe joined to the top's edge: the hull 1.9 tops
    >>> n = int(cv2.contourArea(cv2.convexHull(cv2.findNonZero(blob))))
    >>> cut = speckless(blob, lab, n, 400.0, 0.6)
    >>> int(cut[10:30, 10:30].sum()), int(cut[:, 31:].sum()) < 0.05 * int(blob[:, 31:].sum())
    (400, True)
    >>> speckless(blob, np.ones((40, 60), np.uint8), n, 400.0, 0.6) is None   # the lobe die body: a side face
    True
    """
    if n_hull <= HULL_MOST * top_area:
        return None
    solid = filled(part)
    # one square asked for (the area of one top): the first square packed is the die, the same as among more
    packed = pack(solid, min(int(cv2.countNonZero(solid)), int(top_area)), top_area)
    if packed is None:
        return None
    cut = packed[0][0] & part
    off = lab[(part > 0) & (cut == 0)]
    if np.count_nonzero((off == BLUE) | (off == PINK) | (off == YELLOW)) < SPECKS_LEAST * max(1, off.size):
        return None  # a die body's side face (a leaning die), not specks of the floor
    points = cv2.findNonZero(cut)
    if points is None:
        return None
    area = cv2.contourArea(cv2.convexHull(points))
    if not least * top_area <= area <= HULL_KEPT * top_area:
        return None
    return cut

"""A piece of die colour the frame shows as the empty box does: no part of a die (issue 24, round 33).

The reader flags a piece of die colour that belongs to no die read ("part of a die (glare or hidden?)"): a die may be
hidden there. Once every die thrown is read none is, unless a die read is no die; then a piece whose pixels the frame
shows as the empty box did at that place, in the frame's light, is the box itself (the sensor's noise on a wall's top
read as die colour, twin 11608 under lamp x0.8), not a die. The test is :func:`rig.vision.dice_unchanged.gaps`', the
one round 32 gave the shade blobs, with its own bounds. Its flag is taken off only where it was all the reader flagged
and the reading passes the second look's guard (:func:`the_box_itself`): a piece far from every die flagged three
turns with a leaning die nothing else flagged (round 33's seen twin sets).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rig.vision.dice_second_look import every_die_flat
from rig.vision.dice_unchanged import CHANGED, gaps

PIECE_REASON = "part of a die (glare or hidden?)"
#: the median Lab distance (OpenCV's 8-bit Lab) between a piece's pixels and the empty box there in the frame's light
#: under which the piece is the empty box
PIECE_UNCHANGED = 6.0
#: ... and at most this share of its pixels farther than :data:`rig.vision.dice_unchanged.CHANGED`
PIECE_CHANGED = 0.25


def unchanged_pieces(work, profile, cc: np.ndarray, stats: np.ndarray) -> Callable[[int], bool]:
    """A test of the piece ``i`` of ``cc`` (its ``stats`` row: box in working px): True when the frame shows its pixels
    as the empty box does (:data:`PIECE_UNCHANGED`, :data:`PIECE_CHANGED`); False without the frame or the picture."""
    seen = gaps(work, profile)
    if seen is None:
        return lambda i: False

    def unchanged(i: int) -> bool:
        x, y, w, h = (int(v) for v in stats[i][:4])
        gap = seen((cc[y : y + h, x : x + w] == i).view(np.uint8), (x, y, w, h))
        return gap is not None and float(np.median(gap)) < PIECE_UNCHANGED and np.mean(gap > CHANGED) <= PIECE_CHANGED

    return unchanged


def the_box_itself(work, dice: list, held: list, reasons: list, first: list, kept, excused=frozenset()) -> list:
    """``reasons`` (the second look's) with the piece flagged first (``first``: its flag, or none) replaced by ``kept``
    (the first piece the empty box does not show, or None), where that piece was all the reader flagged (``held``: its
    reasons before the second look) and, were the reading freed whole, the second look's guard passes on ``dice``
    (:func:`rig.vision.dice_second_look.every_die_flat`; ``excused``: dice it does not ask). A piece flag keeps a
    reading from being freed: the second look, which took flags off the dice of readings so kept, was never the last
    word on them (twin 11607 turn 15, lamp x1.2: a yellow die leaning on the left wall read flat, flagged "die top read
    in the frame's overall light", which the net takes off)."""
    if not first or first[0] == kept or set(held) != {first[0]}:
        return reasons
    if kept is None and not every_die_flat(work, dice, excused):
        return reasons
    return [r for r in reasons if r != first[0]] + ([kept] if kept is not None else [])

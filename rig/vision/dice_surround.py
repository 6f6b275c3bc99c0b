"""A combo read where one colour lies round the other: a die body lit into a frog colour, not a frog's second half
(issue 24, round 25).

A two-colour frog is two halves side by side: seen from one half's middle, the other half lies to one side, within
about half a turn. Under a lamp's light a violet body can read blue next to a pink frog: thrown twin 5022 turn 0's pink
die read "pink+blue", status ok, its "blue" a fringe of the body round three sides of the pink frog. A combo one of
whose colours lies round the other (more than :data:`SURROUND_MOST` of the turn round the other's middle, in sectors of
:data:`SECTOR` degrees each holding at least :data:`SECTOR_LEAST` of it) is flagged; the reading stays the reader's best
guess.
"""

from __future__ import annotations

import numpy as np

from rig.vision.pixel_classes import COLOUR_CLASSES

#: the turn (degrees) round one colour's middle that a combo's other colour may fill: two halves side by side fill
#: about half a turn or less (90-150 on the combos of twin 10803-10811 and 5022 turn 0's blue+yellow); 5022 turn 0's
#: pink die's lit body, read blue, 210-240
SURROUND_MOST = 200.0
#: the sectors the turn is cut into, in degrees
SECTOR = 30
#: a sector is filled when it holds at least this share of the colour's pixels (a speck of it elsewhere is not)
SECTOR_LEAST = 0.04


def spread(labels: np.ndarray, mask: np.ndarray, inner: str, outer: str) -> float:
    """Degrees of the turn round ``inner``'s pixels' middle that ``outer``'s pixels fill (within ``mask``): 360 less the
    longest run of sectors holding under :data:`SECTOR_LEAST` of them.

    >>> lab = np.zeros((21, 21), np.uint8); lab[5:16, 5:16] = COLOUR_CLASSES["pink"]
    >>> half = lab.copy(); half[16:20, 5:16] = COLOUR_CLASSES["blue"]           # a blue half below the pink
    >>> spread(half, np.ones_like(lab), "pink", "blue") <= 180
    True
    >>> ring = lab.copy(); ring[1:5, :] = ring[16:20, :] = ring[:, 16:20] = COLOUR_CLASSES["blue"]  # blue round 3 sides
    >>> spread(ring, np.ones_like(lab), "pink", "blue") >= 270
    True
    """
    m = mask > 0
    return _spread(*_offsets(_points(labels, m, inner), _points(labels, m, outer)))


def surrounded(labels: np.ndarray, mask: np.ndarray, colours: list[str]) -> bool:
    """Whether either of a combo's two ``colours`` lies round the other's middle over more than :data:`SURROUND_MOST`
    of the turn (``labels``: the top's pixel classes, ``mask``: the top). Each colour's pixels are found once, and a
    colour lying wholly to one side of the other's middle is not measured: it fills half the turn at most (round 26:
    the same answers as measuring, 20-30 % of the check's time where two halves lie side by side)."""
    a, b = colours
    m = mask > 0
    pa, pb = _points(labels, m, a), _points(labels, m, b)
    return _round(*_offsets(pa, pb)) or _round(*_offsets(pb, pa))


def _points(labels: np.ndarray, m: np.ndarray, colour: str) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of ``colour``'s pixels within the boolean mask ``m``."""
    return np.nonzero(m & (labels == COLOUR_CLASSES[colour]))


def _offsets(inner, outer) -> tuple:
    """``outer``'s pixels' (rows, columns) less ``inner``'s middle, or () where either colour has no pixel."""
    (iy, ix), (oy, ox) = inner, outer
    if iy.size == 0 or oy.size == 0:
        return ()
    return oy - iy.mean(), ox - ix.mean()


def _spread(dy: np.ndarray | None = None, dx: np.ndarray | None = None) -> float:
    """:func:`spread` of the outer colour's offsets ``dy``, ``dx`` from the inner's middle (0.0 without them)."""
    if dy is None:
        return 0.0
    angles = np.degrees(np.arctan2(dy, dx)) % 360
    n = 360 // SECTOR
    counts = np.bincount((angles // SECTOR).astype(int) % n, minlength=n)
    empty = np.concatenate([counts, counts]) < SECTOR_LEAST * dy.size
    run = longest = 0
    for e in empty:
        run = run + 1 if e else 0
        longest = max(longest, run)
    return float(360 - min(n, longest) * SECTOR)


#: an offset farther than this (px) from the middle, in a row's or a column's direction, lies on that side of it for
#: certain in the angle's float sums too (its angle at least ~1e-10 rad from the half-turn's edges, any crop under 1e4 px)
_SIDE_EPS = 1e-6


def _one_side(dy: np.ndarray, dx: np.ndarray) -> bool:
    """Whether every offset lies on one side of a line through the middle (a row's or a column's): its angles then
    fall in one half-turn, at most 180 / :data:`SECTOR` sectors in a row, and the turn it fills is 180 degrees or less
    (whenever :data:`SECTOR` divides 180)."""
    return bool(dy.min() > _SIDE_EPS or dy.max() < -_SIDE_EPS or dx.min() > _SIDE_EPS or dx.max() < -_SIDE_EPS)


def _round(dy: np.ndarray | None = None, dx: np.ndarray | None = None) -> bool:
    """Whether the outer colour's offsets ``dy``, ``dx`` fill more than :data:`SURROUND_MOST` of the turn; a colour to
    one side (:func:`_one_side`) is not measured where that cannot be over it."""
    if dy is None:
        return False
    if SURROUND_MOST >= 180 and 180 % SECTOR == 0 and _one_side(dy, dx):
        return False
    return _spread(dy, dx) > SURROUND_MOST


#: a frog's reach: this share of its pixels lies within it of the top's middle
FROG_REACH = 0.9
#: a colour rings the other when at least this share of its pixels lies beyond the other's reach: 0.89-1.0 on the
#: lit bodies round twin 11308's yellow dice' frog and 11306 turn 2's blue one; 0.36-0.57 where one half of a combo lies
#: beside the other (twin 10005 turn 0's yellow+pink) or the ring is half the frog's colour (11301 turn 3, 11311 turn 2)
RING_BEYOND = 0.8


def ringed(labels: np.ndarray, mask: np.ndarray, colours: list[str]) -> str | None:
    """The one of a combo's two ``colours`` that the other rings, all but wholly beyond it from the top's middle
    (:data:`RING_BEYOND`): the frog, its ring the lit die body; None where neither lies so far outside the other.
    Round 30: twin 11308's yellow dice, their violet bodies lit pink round the frog under a 2713 K lamp on varnished
    wood, read "yellow+pink" in every light; the frog is the colour ringed (the reading is still asked)."""
    m = mask > 0
    ys, xs = np.nonzero(m)
    cy, cx = ys.mean(), xs.mean()
    reach = []
    for c in colours:
        py, px = _points(labels, m, c)
        reach.append(np.hypot(py - cy, px - cx))
    a, b = colours
    if _beyond(reach[1], reach[0]) >= RING_BEYOND:
        return a
    if _beyond(reach[0], reach[1]) >= RING_BEYOND:
        return b
    return None


def _beyond(outer: np.ndarray, inner: np.ndarray) -> float:
    """The share of ``outer``'s distances from the top's middle beyond :data:`FROG_REACH` of ``inner``'s (0.0 where
    either colour has no pixel)."""
    if outer.size == 0 or inner.size == 0:
        return 0.0
    return float((outer > np.quantile(inner, FROG_REACH)).mean())

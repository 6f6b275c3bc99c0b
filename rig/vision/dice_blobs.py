"""Blobs of die-top colour that are more than one die: touching dice split into die-sized parts, or
named for what they are (a card, a large object) when they do not split (split from
:mod:`rig.vision.dice`, which re-exports every name; issue 24, round 10).
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from rig.vision.dice_missed import solid
from rig.vision.pixel_classes import _DISC3, CLASS_NAMES
from rig.vision.profile import DICE_IN_SET


def _split(roi: np.ndarray, value: np.ndarray, area: int, a0: float, side: float) -> list[np.ndarray] | None:
    """Split a blob of touching dice into die-sized parts, or None if it does not split cleanly.

    First cut the dark seam between their rounded edges and erode until die-sized cores fall
    apart; failing that, cluster the blob's pixel positions (k-means, k = area / die top)
    and keep the result only if every part is a die-sized, roughly square top.
    """
    expected = int(round(area / a0))
    if expected < 2 or expected > DICE_IN_SET:
        return None
    level = float(np.median(value[roi > 0]))
    pad = np.pad(roi & (value >= 0.8 * level), 2)
    core = pad
    for step in range(0, max(2, int(side * 0.3)) + 1):
        if step:
            core = cv2.erode(core, _DISC3)
        n, cc, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
        big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 0.1 * a0]
        if not big:
            break
        if len(big) == expected:
            markers = np.zeros(pad.shape, np.int32)
            for k, i in enumerate(big, 1):
                markers[cc == i] = k
            grown = _grow(markers, np.pad(roi, 2), step + 2)
            parts = [(grown == k).view(np.uint8)[2:-2, 2:-2] for k in range(1, len(big) + 1)]
            if _plausible(parts, a0):
                return parts
    ys, xs = np.nonzero(roi)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    cv2.setRNGSeed(expected)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.2)
    _, labels, _ = cv2.kmeans(pts, expected, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    parts = []
    for k in range(expected):
        part = np.zeros_like(roi)
        sel = labels.ravel() == k
        part[ys[sel], xs[sel]] = 1
        parts.append(part)
    return parts if _plausible(parts, a0) else None


def _plausible(parts: list[np.ndarray], a0: float) -> bool:
    for part in parts:
        n = int(part.sum())
        if not 0.7 * a0 <= n <= 1.3 * a0:
            return False
        pts = cv2.findNonZero(part)
        (_, _), (w, h), _ = cv2.minAreaRect(pts)
        if min(w, h) / max(w, h, 1e-6) < 0.75 or solid(part) < 0.7 * w * h:  # a frog's unreadable hole counts
            return False
    return True


def _grow(markers: np.ndarray, mask: np.ndarray, steps: int) -> np.ndarray:
    kernel = np.ones((3, 3), np.uint8)
    out = markers.copy()
    for _ in range(steps + 1):
        grown = cv2.dilate(out.astype(np.float32), kernel).astype(np.int32)
        free = (out == 0) & (mask > 0)
        out[free] = grown[free]
    return out


def held_blob(cc: np.ndarray, stats: np.ndarray, i: int, least: float, most: float) -> bool:
    """Whether blob ``i`` of a frame's die-top blobs (``cc``, ``stats``: OpenCV's connected components) is smaller than
    ``least`` pixels and its centre lies inside the convex hull of another, larger blob of one die (at most ``most``
    pixels: a cluster of touching dice has room between them for a third die's sliver): a die is a solid cube, and a
    blob inside another's top is that top's frog, cut from its body ring by the frog's dark outline — its colours are
    counted over that top's hull already. Twin 10803 turn 0 after a drift (round 24's fresh
    set): a yellow die's frog read as a second yellow die, 0.27 tops, "two dice read on one die's place" (issue 24,
    round 25).

    >>> top = np.zeros((30, 30), np.uint8); top[5:25, 5:25] = 1; top[10:20, 10:20] = 0; top[12:18, 12:18] = 1
    >>> n, cc, stats, _ = cv2.connectedComponentsWithStats(top, connectivity=8)
    >>> [held_blob(cc, stats, k, 200, 500) for k in (1, 2)]   # the ring, the frog inside it
    [False, True]
    >>> held_blob(cc, stats, 2, 200, 250)   # the ring more than one die
    False
    """
    x, y, w, h, area = (int(v) for v in stats[i])
    if area >= least:
        return False
    cx, cy = x + w / 2, y + h / 2
    bx, by, bw, bh, barea = stats[:, :5].T  # (every blob's box tested at once: a frame holds a few hundred specks)
    around = (area < barea) & (barea <= most) & (bx <= cx) & (cx < bx + bw) & (by <= cy) & (cy < by + bh)
    around[[0, i]] = False
    for j in np.flatnonzero(around).tolist():
        bx, by, bw, bh = (int(v) for v in stats[j, :4])
        points = cv2.findNonZero((cc[by : by + bh, bx : bx + bw] == j).view(np.uint8))
        if cv2.pointPolygonTest(cv2.convexHull(points), (cx - bx, cy - by), False) > 0:
            return True
    return False


TOUCHING = "touching dice that cannot be split"
#: a die-sized square packed into a blob that would not split must lie on the blob over this share of it
COVER = 0.7
#: what is left of such a blob once its squares are taken: more than this share of a die top is flagged
LEFT = 0.25
#: the most a square's ring can show of "beyond the blob" (1, its ring's mean never below 0), with room for the
#: rounding of :func:`cv2.filter2D`'s large kernels (a bound: :func:`pack` skips a turn that cannot beat the best)
BEYOND_MOST = 1.001


def _square(side: float, angle: float, size: int) -> np.ndarray:
    """A die top of ``side`` pixels turned by ``angle`` degrees, filled, in a ``size`` x ``size`` kernel."""
    box = cv2.boxPoints(((size / 2 - 0.5, size / 2 - 0.5), (side, side), angle))
    kernel = np.zeros((size, size), np.uint8)
    cv2.fillConvexPoly(kernel, np.round(box * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return kernel


@functools.lru_cache(maxsize=8)
def _kernels(side: float, size: int) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """:func:`pack`'s squares (:func:`_square`, turned 0-84 degrees in steps of 6) and the rings round them, each
    as its mask and as the filter of its mean (its mask over its pixels), made once a die size (one calibration's),
    not once a blob (round 26: ~0.2 ms of a call's ~3.5 ms); read-only."""
    squares = [_square(side, angle, size) for angle in range(0, 90, 6)]
    rings = [cv2.dilate(k, np.ones((5, 5), np.uint8)) - k for k in squares]
    means = [k.astype(np.float32) / k.sum() for k in (*squares, *rings)]
    for k in (*squares, *rings, *means):
        k.setflags(write=False)
    return tuple(squares), tuple(zip(means[: len(squares)], means[len(squares) :]))


def pack(roi: np.ndarray, area: int, a0: float) -> tuple[list[np.ndarray], np.ndarray] | None:
    """A blob of touching dice that :func:`_split` cannot split (no seam, a part of a die hidden under another):
    die-sized squares packed into it one by one (issue 24, round 16) — each where a die's top, at any turn, lies on
    the blob over :data:`COVER` of it and beyond its edges the blob ends (a die at the cluster's end before one in its
    middle); its part is the blob inside it. Returns the parts and the blob left over, or None when no square fits.
    Never more squares than the area holds (rounded up: a blob above ``die_area_max`` is more than one die)."""
    side = math.sqrt(a0)
    size = int(math.ceil(side * 1.5)) | 1
    size += 6
    pad = size // 2 + 1
    left = np.pad(roi, pad).astype(np.float32)
    parts = []
    squares, filters = _kernels(side, size)
    for _ in range(min(DICE_IN_SET, math.ceil(area / a0))):
        best = None
        covers = [cv2.filter2D(left, -1, inside, borderType=cv2.BORDER_CONSTANT) for inside, _ in filters]
        most = [cv2.minMaxLoc(cover)[1] for cover in covers]
        # a turn's score is at most its best cover + half of BEYOND_MOST: the turns taken best cover first, the rings
        # filtered only while a turn can still beat the best score found (ties to the lower turn, as in turn order)
        for k in sorted(range(len(filters)), key=lambda k: -most[k]):
            if most[k] < COVER or (best is not None and most[k] + 0.5 * BEYOND_MOST < best[0]):
                break
            cover = covers[k]
            beyond = 1 - cv2.filter2D(left, -1, filters[k][1], borderType=cv2.BORDER_CONSTANT)
            score = np.where(cover >= COVER, cover + 0.5 * beyond, -1)
            y, x = np.unravel_index(int(np.argmax(score)), score.shape)
            s = float(score[y, x])
            if s > 0 and (best is None or s > best[0] or (s == best[0] and k < best[1])):
                best = (s, k, y, x)
        if best is None:
            break
        _, k, y, x = best
        placed = np.zeros(left.shape, np.uint8)
        h = size // 2
        placed[y - h : y + h + 1, x - h : x + h + 1] = cv2.dilate(squares[k], _DISC3)
        part = (placed > 0) & (left > 0)
        parts.append(part[pad:-pad, pad:-pad].view(np.uint8))
        left[part] = 0
    if not parts:
        return None
    return parts, (left[pad:-pad, pad:-pad] > 0).view(np.uint8)


def _big_blob(lab: np.ndarray, roi: np.ndarray, area: int, a0: float, t) -> str:
    counts = np.bincount(lab[roi > 0], minlength=len(CLASS_NAMES))
    if area >= t.card_area * a0 and counts.max() >= 0.6 * area:
        return "card in view"
    if area > DICE_IN_SET * 1.6 * a0:
        return "large object in view"
    return TOUCHING


def unsplit(lab: np.ndarray, roi: np.ndarray, area: int, a0: float, t) -> tuple[list[np.ndarray], str, tuple[float, float]]:
    """A blob above a die's size that :func:`_split` did not split: the dice :func:`pack` finds in a cluster of
    touching dice, and what to flag where — the blob's name at its middle when nothing is packed (a card, a large
    object, touching dice), "touching dice that cannot be split" where more than :data:`LEFT` of a die is left over
    (a die half hidden under another), nothing when the squares take it all."""
    h, w = roi.shape
    what = _big_blob(lab, roi, area, a0, t)
    packed = pack(roi, area, a0) if what == TOUCHING else None
    if packed is None:
        return [], what, (w / 2, h / 2)
    parts, left = packed
    if cv2.countNonZero(left) <= LEFT * a0:
        return parts, "", (0.0, 0.0)
    m = cv2.moments(left, binaryImage=True)
    return parts, TOUCHING, (m["m10"] / m["m00"], m["m01"] / m["m00"])

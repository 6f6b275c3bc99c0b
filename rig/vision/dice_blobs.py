"""Blobs of die-top colour that are more than one die: touching dice split into die-sized parts, or
named for what they are (a card, a large object) when they do not split (split from
:mod:`rig.vision.dice`, which re-exports every name; issue 24, round 10).
"""

from __future__ import annotations

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


def _big_blob(lab: np.ndarray, roi: np.ndarray, area: int, a0: float, t) -> str:
    counts = np.bincount(lab[roi > 0], minlength=len(CLASS_NAMES))
    if area >= t.card_area * a0 and counts.max() >= 0.6 * area:
        return "card in view"
    if area > DICE_IN_SET * 1.6 * a0:
        return "large object in view"
    return "touching dice that cannot be split"

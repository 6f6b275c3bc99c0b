"""Where a card's print lies (:attr:`rig.vision.card_view.CardReading.mark`): the icon in its coloured field, found as
the field's pixels lighter than the field (on a coloured card: its icon is a light print) or darker (on a gray card),
the centroid of the one shape they make, in full-resolution px. A card laid squarely on one of its colour moves its
pile's top by a few px, often less than its corners read apart from frame to frame with nothing laid (up to 3 % of its
long side); the print's centroid, an average over hundreds of pixels, moves by a few tenths of a px in those frames
(issue 24 part 3, round 18)."""

from __future__ import annotations

import cv2
import numpy as np

#: a pixel of the field this much lighter (darker on a gray card) than the field's median (L, blurred) is print
PRINT_STEP = 12.0
#: the field's middle where the print is looked for: this share of its outline about its centre (its border left out)
PRINT_WINDOW = 0.8
#: a print smaller than this share of that middle: no print found (no mark)
PRINT_MIN = 0.03
#: the card's region is shrunk by the whole factor long side // PRINT_SIDE (a card ~190-230 px long at 640x480: by 1,
#: looked at as it is; ~380-460 px at 1280x960: by 2, OpenCV's fast path, each px the mean of 2 x 2): the print found as at 640x480, where its centroid moves 0.12 % of the long side at most
#: between still frames. Brought to 96 px (shrunk by 2 at 640x480 too) it moved twice as much (0.25 %, round 19's
#: twin 3700-3704 — PRINT_STEADY is 0.2 %)
PRINT_SIDE = 160


def print_mark(frame_bgr: np.ndarray, corners, card: str | None) -> tuple[float, float] | None:
    """The centroid of a card's print, the shape in the middle of its outline ``corners`` (full-resolution px) — the
    whole shape, wherever the outline cuts it (a field's corners read short on one side: twin 3616) —, or ``None``."""
    if corners is None or card is None:
        return None
    quad = np.asarray(corners, np.float32)
    centre = quad.mean(axis=0)
    inner = centre + (quad - centre) * PRINT_WINDOW
    lo, hi = quad.min(axis=0), quad.max(axis=0)  # (the region: the outline's box and half as much again round it)
    x0, y0 = (max(int(v), 0) for v in np.floor(lo - (hi - lo) / 4))
    x1, y1 = int(min(np.ceil(hi[0] + (hi[0] - lo[0]) / 4), frame_bgr.shape[1])), int(min(np.ceil(hi[1] + (hi[1] - lo[1]) / 4), frame_bgr.shape[0]))
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    long_side = max(float(np.hypot(*(quad[1] - quad[0]))), float(np.hypot(*(quad[2] - quad[1]))))
    k = max(1, int(long_side // PRINT_SIDE))
    x1, y1 = x0 + (x1 - x0) // k * k, y0 + (y1 - y0) // k * k
    region = frame_bgr[y0:y1, x0:x1]
    if k > 1:
        region = cv2.resize(region, ((x1 - x0) // k, (y1 - y0) // k), interpolation=cv2.INTER_AREA)
    middle = np.zeros(region.shape[:2], np.uint8)
    cv2.fillConvexPoly(middle, np.int32(np.round((inner - (x0, y0)) / k)), 1)
    middle = middle > 0
    inside_px = int(middle.sum())
    if inside_px * k * k < 64:
        return None
    lum = cv2.cvtColor(cv2.GaussianBlur(region, (7, 7), 0), cv2.COLOR_BGR2Lab)[..., 0]
    level = _median(lum[middle])
    icon = (lum < level - PRINT_STEP) if card == "gray" else (lum > level + PRINT_STEP)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(icon.view(np.uint8), connectivity=8)
    inside = np.bincount(labels[middle], minlength=n)
    inside[0] = 0
    best = int(np.argmax(inside))
    if best == 0 or inside[best] < PRINT_MIN * inside_px:
        return None
    x, y, w, h = (int(v) for v in stats[best, :4])
    if x == 0 or y == 0 or x + w == icon.shape[1] or y + h == icon.shape[0]:
        return None  # (the shape reaches out of the card: its border, the floor, a shade — no print of its own)
    # (a px's centre at i in the region brought to size lies at k i + (k - 1) / 2 in the frame)
    return float(k * centroids[best][0] + (k - 1) / 2 + x0), float(k * centroids[best][1] + (k - 1) / 2 + y0)


def _median(values: np.ndarray) -> float:
    """``np.median`` of 8-bit values, from their histogram (the mean of the two middle ones when they are even)."""
    below = np.cumsum(np.bincount(values, minlength=256))
    n = int(below[-1])
    lo, hi = int(np.searchsorted(below, (n - 1) // 2, side="right")), int(np.searchsorted(below, n // 2, side="right"))
    return (lo + hi) / 2.0

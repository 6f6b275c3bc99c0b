"""A die top cut short along a whole side by shade: the small-top test's flat die at a wall's foot (issue 24, round 25).

The small-top test (``dice._die``: a top under ``die_area_min`` tops is "die partly hidden or on edge") flags a flat die
whose top a wall's shade band, or the die's own shade, cuts: its lit part is a whole die's side long, and the strip
beyond its long side that would complete it to a square is dark in the frame. A die leaning on a wall or on another die
shows its top foreshortened too, but the strip beside it is its side face, lit by the room: on the twin's thrown sets
10000-10711 (fitted) the truly cocked dice the test names have that strip at 0.19-0.70 of the lit part's lightness
(B+G+R, medians), the needless flat ones at a wall's foot 0.04-0.12. :func:`cut_by_shade` measures it; the second look
(``dice_second_look``) frees such a die's flag only when its net reads the reader's face surely too.
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_cut import completing_strips
from rig.vision.pixel_classes import IS_TOP

#: the lit part must be this many die sides long (a whole side: the cut runs straight across the top)
FULL_ALONG = 0.85
#: the strip completing it to a square must be at most this share of the lit part's lightness (the frame's B+G+R,
#: medians): shade, not a side face
DARK_STRIP = 0.12


def _lit_top(obs, work) -> tuple[np.ndarray, tuple[int, int]] | None:
    """The die's lit top (its 8-connected top-colour piece under its box, working scale): its pixels' places in a
    window of the working frame and that window's corner (x, y), or None without one."""
    f = work.factor
    x, y, w, h = (v // f for v in obs.box)
    r = max(2, int(round(0.3 * work.side)))
    H, W = work.labels.shape
    X0, Y0 = max(0, x - r), max(0, y - r)
    lab = work.labels[Y0 : min(H, y + h + r), X0 : min(W, x + w + r)]
    top = cv2.LUT(lab, IS_TOP)
    n, cc, stats, _ = cv2.connectedComponentsWithStats((top > 0).view(np.uint8), connectivity=8)
    if n <= 1:
        return None
    inside = cc[y - Y0 : y - Y0 + h, x - X0 : x - X0 + w]
    counts = np.bincount(inside.ravel(), minlength=n)
    counts[0] = 0
    if counts.max() == 0:
        return None
    return cv2.findNonZero((cc == int(counts.argmax())).view(np.uint8)), (X0, Y0)


def _median_lightness(frame: np.ndarray, corners: np.ndarray) -> float | None:
    """The median of B+G+R over a full-resolution quadrilateral, or None where it holds no pixel of the frame."""
    H, W = frame.shape[:2]
    xa, ya = int(max(0, corners[:, 0].min() - 1)), int(max(0, corners[:, 1].min() - 1))
    xb, yb = int(min(W, corners[:, 0].max() + 2)), int(min(H, corners[:, 1].max() + 2))
    if xb <= xa or yb <= ya:
        return None
    mask = np.zeros((yb - ya, xb - xa), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners - [xa, ya]).astype(np.int32), 1)
    if not mask.any():
        return None
    return float(np.median(frame[ya:yb, xa:xb].astype(np.int32).sum(axis=2)[mask > 0]))


def strip_ratio(obs, work) -> tuple[float, float] | None:
    """A die's lit top's long side in die sides and the darker of the two strips beyond its long sides (each as wide
    as what completes the top to a square of a die's side, or of its long side when longer, 1 px at least:
    :func:`rig.vision.dice_cut.completing_strips`), its median lightness over the lit part's; None without a top or a
    frame."""
    if work.frame is None:
        return None
    top = _lit_top(obs, work)
    if top is None:
        return None
    pts, corner = top
    long_, short, strips = completing_strips(pts, to_side=work.side, least=1.0)
    f = work.factor

    def full(quad):  # working-scale corners in the window -> full-resolution corners
        return (quad.astype(np.float64) + corner + 0.5) * f - 0.5

    lit = _median_lightness(work.frame, full(np.array([*strips[0][:2], *strips[1][1::-1]])))  # (the strips' inner edges)
    if not lit:
        return None
    strips = [_median_lightness(work.frame, full(s)) for s in strips]
    strips = [v for v in strips if v is not None]
    if not strips:
        return None
    return long_ / work.side, min(strips) / lit


def cut_by_shade(obs, work) -> bool:
    """Whether a die's lit top is a whole side long (:data:`FULL_ALONG`) and the strip completing it to a square is
    shade (:data:`DARK_STRIP`)."""
    measured = strip_ratio(obs, work)
    return measured is not None and measured[0] >= FULL_ALONG and measured[1] <= DARK_STRIP

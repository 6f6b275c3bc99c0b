"""A flat die's top cut by the frame's edge, read as a flat die rather than "cocked" (issue 24, round 24).

The top's aspect test (:func:`rig.vision.dice._die`) calls a die cocked when the part read of its top is narrower
than square: a leaning die's top is foreshortened. A flat die lying across the frame's edge shows the same narrow
part, the rest of its top beyond the frame, and was flagged "cocked die" on turns read wholly right (twin 10309
turn 1 in every light, 10008 turn 3: round 24's probe of every die the aspect test calls cocked on the seen frog-twin
sets 10000-10711 and the propped 5000-5023, 5100-5111; no truly cocked die among those whose missing part lies beyond
the frame's edge). Such a part is read as a flat top when what is left of it is a whole top's width along the edge
(:data:`FULL_ALONG`), fills its rectangle (:data:`FILLED`: cut straight, square to the cut edge), holds the top's
centre (:data:`LEFT_MIN`) and shows a frog (a blank read may be a frog beyond the edge), and the strip that would
make it square lies beyond the frame (:data:`BEYOND`).
"""

from __future__ import annotations

import cv2
import numpy as np

#: what is left of the top: its long side this many die sides (a whole top's width along the cut edge) ...
FULL_ALONG = (0.85, 1.15)
#: ... its hull this share of its rectangle at least (cut straight) ...
FILLED = 0.85
#: ... and at least this many die sides across (the top's centre is in view: its frog is read, not guessed)
LEFT_MIN = 0.5
#: the strip that completes the part to a square lies beyond the frame's edge by this share of its area at least
#: (10309 turn 1 and 10008 turn 3: 0.93-0.96; the propped sets' truly cocked dice the aspect test catches: none over 0)
BEYOND = 0.5


def completing_strips(hull: np.ndarray, to_side: float = 0.0, least: float = 0.0) -> tuple[float, float, list]:
    """The part's rectangle (:func:`cv2.minAreaRect` of ``hull``): its long and short sides, and the two strips (4
    corners each, float32) beyond either long side that would make it a square of the long side, or of ``to_side``
    when that is longer, at least ``least`` deep. Each strip's first two corners are its long side of the rectangle:
    the strips' inner edges are the rectangle's corners."""
    rect = cv2.minAreaRect(hull)
    p = cv2.boxPoints(rect).astype(np.float64)
    e1, e2 = p[1] - p[0], p[2] - p[1]  # (e1 along the rectangle's height, e2 along its width)
    n1, n2 = float(np.hypot(*e1)), float(np.hypot(*e2))
    w, h = rect[1]
    if h > w:  # p0-p1 and p3-p2 are the long sides; across runs along e2 (a square: the width is the long side)
        long_, short, across, sides = h, w, e2 / max(n2, 1e-9), ((p[0], p[1]), (p[3], p[2]))
    else:
        long_, short, across, sides = w, h, e1 / max(n1, 1e-9), ((p[0], p[3]), (p[1], p[2]))
    depth = max(max(long_, to_side) - short, least)
    strips = []
    for (a, b), sign in zip(sides, (-1.0, 1.0), strict=True):
        step = sign * across * depth
        strips.append(np.array([a, b, b + step, a + step], np.float32))
    return long_, short, strips


def share_beyond(strip: np.ndarray, shape: tuple[int, int]) -> float:
    """The share of ``strip``'s area (convex, 4 corners) outside a frame of ``shape`` (h, w)."""
    area = cv2.contourArea(strip)
    if area <= 1e-6:
        return 0.0
    h, w = shape
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    inside, _ = cv2.intersectConvexConvex(strip, frame)
    return max(0.0, 1.0 - float(inside) / area)


def cut_by_frame_edge(hull: np.ndarray, x0: int, y0: int, side: float, shape: tuple[int, int], face: str) -> bool:
    """True when the die part ``hull`` (its crop's pixels, the crop at ``x0, y0`` in a frame of ``shape`` (h, w); die
    side ``side`` px) is a flat top the frame's edge cuts, read as ``face``: see the module's text."""
    if face == "blank":
        return False
    long_, short, strips = completing_strips(hull.reshape(-1, 2).astype(np.float32) + np.float32([x0, y0]))
    if not FULL_ALONG[0] * side <= long_ <= FULL_ALONG[1] * side or short < LEFT_MIN * side:
        return False
    if cv2.contourArea(hull) < FILLED * long_ * short:
        return False
    return any(share_beyond(strip, shape) >= BEYOND for strip in strips)

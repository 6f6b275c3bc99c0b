"""A flat die far from the frame's centre whose lit top the top's aspect test calls cocked (issue 24, round 23).

Perspective shows a flat die's side face on the side towards the frame's centre, the farther out the more of it;
lit by the lamp it has the die body's colour and is counted in with the top, so the part is a top stretched along the
radial direction (twin 10006: dice at 0.32-0.35 frame widths out, 1.2-1.3 die sides along it, one die side across,
aspect 0.78-0.81, every light). The table's perspective correction of the aspect test (``walls[3]``, fitted on the
ritual's dice) misses it when the ritual's dice lay near the centre or their side faces in shade.

A leaning die's top is foreshortened along the way it leans, at any angle to the radial direction, and loses width
across it; its part does not grow. So the part is read as stretched by perspective only when it is: as wide across
the radial direction as a whole top, longer along it by no more than perspective shows that far out, its area grown
by that stretch, and square once the stretch is squeezed out along the radial direction.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: the most stretch along the radial direction perspective shows, in die sides per frame width out from the centre
STRETCH_PER_R = 1.0
#: the part's width across the radial direction at least this many die sides: a whole top's
FULL_ACROSS = 0.93
#: the part's area (in tops) grown by at least this share of the stretch: a side face, not a foreshortened top
STRETCH_AREA = 0.6


def perspective_stretch(
    hull: np.ndarray, cx: float, cy: float, side: float, shape: tuple[int, int], area: float, cut: float
) -> bool:
    """Whether a die part's convex ``hull`` (working px, any offset) centred at (``cx``, ``cy``) in a working frame
    of ``shape`` (h, w), with dice ``side`` px wide and ``area`` tops, is a flat die's top with its side face towards
    the centre: its aspect once that stretch is squeezed out at least ``cut`` (the aspect test's)."""
    h, w = shape
    rx, ry = cx + 0.5 - w / 2, cy + 0.5 - h / 2
    rho = math.hypot(rx, ry)
    if rho <= 0 or side <= 0:
        return False
    u = np.array([rx / rho, ry / rho])
    pts = hull.reshape(-1, 2).astype(np.float64)
    along, across = pts @ u, pts @ np.array([-u[1], u[0]])
    long_, wide = float(np.ptp(along)) / side, float(np.ptp(across)) / side
    stretch = long_ - wide
    if not 0 < stretch <= STRETCH_PER_R * rho / w or wide < FULL_ACROSS or area < 1 + STRETCH_AREA * stretch:
        return False
    squeezed = np.stack([along * wide / long_, across], axis=1).astype(np.float32)
    _, (bw, bh), _ = cv2.minAreaRect(squeezed)
    return min(bw, bh) / max(bw, bh, 1e-6) >= cut

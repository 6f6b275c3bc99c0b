"""Earlier rounds' ways of the dice reader, kept as the references the faster ways are compared with."""

from __future__ import annotations

import cv2
import numpy as np


def crop_before_round_17(poly, x0, y0, work):
    """``dice._crop`` before round 17 (rounds 12-16): a top's full-resolution box from its working-scale polygon's
    points as floats, floored and ceiled, and its mask; None when the box is under 4 px either way."""
    f = work.factor
    pts = (poly.reshape(-1, 2) + (x0, y0)) * f + (f - 1) / 2
    X0, Y0 = np.floor(pts.min(axis=0)).astype(int)
    X1, Y1 = np.ceil(pts.max(axis=0)).astype(int) + 1
    H, W = work.frame.shape[:2]
    X0, Y0, X1, Y1 = max(0, X0), max(0, Y0), min(W, X1), min(H, Y1)
    if X1 - X0 < 4 or Y1 - Y0 < 4:
        return None
    mask = np.zeros((Y1 - Y0, X1 - X0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(pts - (X0, Y0)).astype(np.int32), 1)
    return X0, Y0, X1, Y1, mask

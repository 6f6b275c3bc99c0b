"""The calibration's model of the lamp on the empty box: its glare spots above the smooth floor and
the floor's lower envelope (issue 29: split from :mod:`rig.vision.calibrate`, which re-exports every
name).
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.light import LIGHT_BASIS


def _fit_glare(empty: np.ndarray, rows: int = 36, cols: int = 48, clip: int = 250, deep: bool = False):
    """Lamp reflections on the empty box: what stands above the smooth floor, per channel, on a
    grid (None when there is no glare worth removing).

    The floor is a quadratic surface fitted to the inner cells (the walls left out) that stand
    no higher than it: glare only ever adds light. Where the empty box itself is blown out
    the glare's height is unknown; it is extrapolated from the spot's flanks as a Gaussian peak.
    """
    h, w = empty.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    out = []
    for c in range(3):
        ch = empty[..., c]
        surface = cv2.resize(_lower_floor(ch, deep), (w, h), interpolation=cv2.INTER_CUBIC)
        resid = cv2.GaussianBlur(cv2.medianBlur(ch, 5).astype(np.float32) - surface, (0, 0), w / 160)
        blown = cv2.dilate((ch >= clip).view(np.uint8), np.ones((5, 5), np.uint8))
        n, cc = cv2.connectedComponents(blown)
        reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (w // 8 | 1, w // 8 | 1))
        for i in range(1, n):
            spot = cc == i
            ring = (cv2.dilate(spot.view(np.uint8), reach) > 0) & ~spot & (resid > 10)
            if ring.sum() < 20:
                continue
            x, y = xx[ring] / w, yy[ring] / w
            coef, *_ = np.linalg.lstsq(np.column_stack([np.ones_like(x), x, y, x * x + y * y]),
                                       np.log(resid[ring]), rcond=None)
            if coef[3] >= 0:
                continue  # not a peak
            x, y = xx[spot] / w, yy[spot] / w
            peak = np.exp(np.column_stack([np.ones_like(x), x, y, x * x + y * y]) @ coef)
            resid[spot] = np.maximum(resid[spot], np.minimum(peak, 255.0))
        # the box print itself varies by several levels: fade the smallest residuals out
        out.append(np.clip(resid - 8.0 * np.clip((24.0 - resid) / 16.0, 0, 1), 0, None))
    glare = cv2.resize(np.dstack(out), (cols, rows), interpolation=cv2.INTER_AREA)
    if glare.max() < 30:
        return None
    return tuple(tuple(tuple(int(round(v)) for v in px) for px in row) for row in glare)


#: a cell darker than this share of the middle of the box is a wall's deep shade, not the floor's lamp-lit level
DEEP_SHADE = 0.65


def _lower_floor(channel: np.ndarray, deep: bool = False) -> np.ndarray:
    """The glare-free floor brightness on a 12 x 16 grid: a quadratic surface through the inner
    cells that do not stand above it (iterated; glare only adds light, dice and craters darken).

    ``deep``: a wall's deep shade (a cell under :data:`DEEP_SHADE` of the middle's level) left out, unless fewer
    than 30 cells are left. The lower envelope through such a shade can bend down across the lit floor, which
    then stands "above" it as a broad glare (issue 24, round 13: twin 9008, seen — a band of shade along the left
    wall at a third of the floor's level made the lit floor beside it 40-80 grey levels of glare; taken off, the
    dice there read back dark, two blue faces "blank"). Calibration asks for it only in a retry."""
    level = cv2.resize(channel, (16, 12), interpolation=cv2.INTER_AREA).astype(np.float32).ravel() + 1.0
    inner = np.zeros((12, 16), bool)
    inner[1:-1, 1:-1] = True
    inner = inner.ravel()
    if deep:
        lit = inner & (level >= DEEP_SHADE * float(np.median(level.reshape(12, 16)[4:8, 5:11])))
        inner = lit if lit.sum() >= 30 else inner
    keep = inner.copy()
    for _ in range(8):
        coef, *_ = np.linalg.lstsq(LIGHT_BASIS[keep], level[keep], rcond=None)
        fit = LIGHT_BASIS @ coef
        off = (level - fit) / np.median(fit)
        new = inner & (off <= 0.03) & (off >= -0.12)
        if new.sum() < 30 or (new == keep).all():
            break
        keep = new
    return (fit.reshape(12, 16) - 1.0).astype(np.float32)

"""The box bottom's colours at calibration: a few Lab clusters of what the ritual frames show
around the dice and of the empty box (issue 24: on the twin, only where a die can lie when the
table beyond the box, lifted by the evening of the light, would pass for a frog colour)."""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.profile import ColourModel


def in_box(floor_cells, shape: tuple[int, int], grow: bool = True) -> np.ndarray:
    """The box at ``shape`` (h, w): the floor cells' hull grown by a cell (a wall's shade is no floor cell;
    ``grow`` False: the hull alone)."""
    h, w = shape
    grid = cv2.resize(np.asarray(floor_cells, np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    hull = np.zeros((h, w), np.uint8)
    if grid.any():
        cv2.fillConvexPoly(hull, cv2.convexHull(cv2.findNonZero(grid)), 1)
    if not grow:
        return hull > 0
    return cv2.dilate(hull, np.ones((h // 12 * 2 + 1, w // 16 * 2 + 1), np.uint8)) > 0


def fit_background(fr: dict, empty_small: np.ndarray | None, side: float, rng: np.random.Generator,
                   where: np.ndarray | None = None) -> tuple:
    """Up to five Lab colour models of the box bottom (``where``: only these pixels, small scale)."""
    parts = []
    for frame in fr.values():
        fg = np.zeros(frame.small.shape[:2], np.uint8)
        for m in frame.masks:
            fg |= m.view(np.uint8)
        fg = cv2.dilate(fg, np.ones((5, 5), np.uint8))
        parts.append(frame.small[(fg == 0) & (True if where is None else where)])
    if empty_small is not None:
        parts.append(empty_small[True if where is None else where].reshape(-1, 3))
    px = np.concatenate(parts)
    px = px[rng.choice(len(px), min(len(px), 30000), replace=False)]
    lab = cv2.cvtColor(px.reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    k = 5
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    cv2.setRNGSeed(0)
    _, labels, _ = cv2.kmeans(lab, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    models = []
    for i in range(k):
        sel = lab[labels.ravel() == i]
        if len(sel) >= 0.01 * len(lab):
            models.append(ColourModel.fit(sel, l_floor=16.0))
    return tuple(models)

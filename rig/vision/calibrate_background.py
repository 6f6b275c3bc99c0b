"""The box bottom's colours at calibration: a few Lab clusters of what the ritual frames show
around the dice and of the empty box (issue 24: on the twin, only where a die can lie when the
table beyond the box, lifted by the evening of the light, would pass for a frog colour)."""

from __future__ import annotations

import cv2
import numpy as np

from rig.i18n import said
from rig.vision.light import cells, floor_grid
from rig.vision.profile import ColourModel

#: a floor cell of the empty box is of the plain bottom when its Lab a, b lie within this of the middle's median
#: (issue 24, round 19: twin 10210, seen — a gray bottom in a violet tray, its walls and rim a, b ~7 off the
#: bottom's, lifted by the evening of the light to the dice's violet)
PLAIN_CHROMA = 4.0
#: the least share of the floor cells the plain bottom holds to be taken as the floor (below it: no plain bottom to
#: speak of); round 21: 0.4, not a half — card table 3902 (seen; a gray bottom, its near wall, rim and the table beyond
#: at the top and bottom right taken into the floor grid: 177 of 192 cells) has 84 plain cells in one piece, as 10210
PLAIN_SHARE = 0.4


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


def plain_bottom(empty: np.ndarray, floor_cells) -> np.ndarray | None:
    """The floor cells (ROWS x COLS bool) of the box bottom of the colour of its middle: without the walls, rim and
    table beyond that the floor grid takes in when they are lit like it (a tray of another colour than its bottom).
    None when that leaves less than :data:`PLAIN_SHARE` of the floor cells (no plain bottom to speak of)."""
    grid = np.asarray(floor_cells, bool)
    lab = cv2.cvtColor(np.clip(cells(empty), 0, 255).astype(np.uint8), cv2.COLOR_BGR2Lab).astype(np.float32)
    rows, cols = grid.shape
    middle = np.median(lab[rows // 3 : rows - rows // 3, cols // 4 : cols - cols // 4, 1:].reshape(-1, 2), axis=0)
    plain = grid & (np.abs(lab[..., 1:] - middle).max(axis=2) <= PLAIN_CHROMA)
    n, cc = cv2.connectedComponents(plain.view(np.uint8), connectivity=4)  # the bottom, not the table beyond the rim
    if n > 1:
        sizes = np.bincount(cc.ravel())
        sizes[0] = 0
        plain = cc == sizes.argmax()
    return plain if plain.sum() >= PLAIN_SHARE * grid.sum() else None


def walls_advice(colour: str, value: float, bottom: float, least: float) -> str:
    """The refusal of a box whose bottom alone is told from the dice's colours (separation ``bottom``) while the
    whole view is not (``value`` below ``least``): its walls and rim, or the table around it, look like ``colour``
    (round 19: twin 10210, seen — a gray bottom in a violet tray; the advice of a plainer bottom was wrong there)."""
    return said(f"{colour} and background overlap (separation {value:.1f} < {least:.1f}): the box's walls and rim or "
                f"the table around the box look like the dice, not its bottom (the bottom alone: separation "
                f"{bottom:.1f}); give the box walls and a rim of another colour than the dice (line them with card), "
                "or light them more evenly (a lamp above the box)")


def body_advice(colour: str, value: float, least: float, px: float) -> str:
    """The refusal of a frog colour that overlaps the dice's violet (``value`` below ``least``) even fitted on its frog
    pixels' cluster farthest from the violet (round 23: twin 10604, seen — dice ``px`` 38 px wide, dark against a light
    tray: what a rig builder can change is the light on the dice and their size in the frame)."""
    return said(f"body and {colour} overlap (separation {value:.1f} < {least:.1f}): the frog looks like the dice's "
                "violet; check that frame shows every die frog up, then light the dice more brightly (more light on "
                "the box, the exposure as high as its bottom allows) or bring the camera closer, so the dice are "
                f"larger in the frame (now {px:.0f} px)")


def _boxes(floor_cells, empty_raw: np.ndarray, shape: tuple[int, int]):
    """Where the box bottom's colours are fitted again when the whole view's overlap a die's: the floor cells'
    hull grown by a cell, then (issue 24, round 11) the hull, not grown, of the cells of the empty box as shot —
    with its glare off the floor cells can hold the rim and the table beyond (twin 6000, seen: a bright rim
    taken for the lamp's glare above the floor, the grown hull the whole view)."""
    yield in_box(floor_cells, shape)
    yield in_box(floor_grid(empty_raw), shape, grow=False)


def _overlap_advice(a: str, b: str) -> str:
    """What the player can change when two colour classes overlap: a print the colour of a die, or the light."""
    if b != "background":
        return "check each frame shows the right face, and the light (white balance, exposure)"
    what = "the dice's violet" if a == "body" else f"the {a} frog"
    return (f"{what} looks like the box bottom or the table around it; give the box a plainer bottom of another "
            "colour (a mat, a card), or check the light (white balance, exposure)")

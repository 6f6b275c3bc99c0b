"""Where the box's walls stand: the floor's outline found in the empty box's picture (issue 24, round 34).

A die leans only against something: a wall or another die (round 33's needcock: every truly cocked die on the seen
twin sets lay within half a die side of a wall or 1.5 sides of another die). Calibration's floor cells do not place
the walls, so this finds them in the empty box's picture (:class:`rig.vision.card_empty.EmptyBox`, the picture
calibration keeps): going out from the picture's middle, row by row (column by column), the first sharp change of
colour is where the floor ends (a wall's foot, or nearer: a wall's cast shadow, a line of the floor's print); a
straight line fitted through those points on each side is the floor's edge there. Nearer is always the safe side:
a wall placed inward only keeps more dice counted as supported. A side whose wall lies beyond the picture is put
on the picture's edge.
"""

from __future__ import annotations

import cv2
import numpy as np

#: the Lab change (OpenCV's 8-bit Lab, over two pixels of the blurred picture) that marks the floor's end
EDGE_STEP = 6.0
#: the rows (columns) searched: this middle share of the picture's height (width), the corners left out
MIDDLE = 0.7
#: rows (columns) averaged into one profile
BAND = 6
#: a point farther than this many pixels from a side's fitted line is left out of the next fit
OFF_LINE = 3.0
#: a side's slant across the picture at most (the camera tilts a few degrees: its walls' feet lean less than this)
SLANT = 0.05


def _edges(profile: np.ndarray) -> np.ndarray:
    """The change along a profile (bands x n x 3, Lab): the Lab distance between the pixels one before and one after."""
    d = np.zeros(profile.shape[:2], np.float32)
    d[:, 1:-1] = np.linalg.norm(profile[:, 2:] - profile[:, :-2], axis=2)
    return d


def _first_out(change: np.ndarray, start: int) -> np.ndarray:
    """Per band, the first index from ``start`` upward (outward) where ``change`` reaches :data:`EDGE_STEP`; the
    profile's end where none does."""
    n = change.shape[1]
    out = np.full(change.shape[0], n - 1, np.float32)
    hit = change[:, start:] >= EDGE_STEP
    found = hit.any(axis=1)
    out[found] = start + hit[found].argmax(axis=1)
    return out


def _fit(along: np.ndarray, across: np.ndarray) -> tuple[float, float]:
    """``across = a + b * along`` fitted, points far off the line left out twice; the slant at most :data:`SLANT`,
    the line then through the median of what the slant leaves."""
    keep = np.ones(len(along), bool)
    b = 0.0
    for _ in range(3):
        if keep.sum() < 2:
            break
        b, a = np.polyfit(along[keep], across[keep], 1)
        keep = np.abs(across - (a + b * along)) <= OFF_LINE
    b = float(np.clip(b, -SLANT, SLANT))
    return float(np.median(across - b * along)), b


def _side(lab: np.ndarray, outward: bool) -> tuple[float, float]:
    """The floor's edge to the right (``outward``) or left of the picture's middle, row by row: ``x = a + b * y``."""
    h, w = lab.shape[:2]
    y0, y1 = int(h * (1 - MIDDLE) / 2), int(h * (1 + MIDDLE) / 2)
    n = (y1 - y0) // BAND
    bands = lab[y0 : y0 + n * BAND].reshape(n, BAND, w, 3).mean(axis=1)
    if not outward:
        bands = bands[:, ::-1]
    at = _first_out(_edges(bands), w // 2)
    ys = y0 + (np.arange(n) + 0.5) * BAND
    a, b = _fit(ys, at)
    if not outward:  # back from the mirrored profile: x = w - 1 - at
        a, b = w - 1 - a, -b
    return a, b


def floor_outline(empty_lab: np.ndarray) -> np.ndarray:
    """The box floor's outline in the empty box's picture (``empty_lab``: H x W x 3 uint8 Lab): its corners
    (top left, top right, bottom right, bottom left; 4 x 2 float32, the picture's px)."""
    lab = cv2.GaussianBlur(empty_lab, (5, 5), 0).astype(np.float32)
    h, w = lab.shape[:2]
    left, right = _side(lab, False), _side(lab, True)
    turned = lab.transpose(1, 0, 2)  # columns as rows: y = a + b * x
    top, bottom = _side(turned, False), _side(turned, True)

    def corner(vertical, horizontal) -> tuple[float, float]:
        (a1, b1), (a2, b2) = vertical, horizontal  # x = a1 + b1 y, y = a2 + b2 x
        x = (a1 + b1 * a2) / (1 - b1 * b2)
        y = a2 + b2 * x
        return min(max(x, 0.0), w - 1.0), min(max(y, 0.0), h - 1.0)

    return np.array([corner(left, top), corner(right, top), corner(right, bottom), corner(left, bottom)], np.float32)


def inside_by(outline: np.ndarray, x: float, y: float) -> float:
    """How far (``outline``'s px) the point (``x``, ``y``) lies inside the outline; negative outside."""
    return float(cv2.pointPolygonTest(outline.reshape(-1, 1, 2), (float(x), float(y)), True))

"""Where the box bottom lies in a frame, and whether it runs off the picture (for `rig doctor`'s plan check).

The box bottom is one plain surface around the middle of the picture: the pixels close in colour to
the middle's (Otsu's split of the colour distance, brightness counting half), with the dice on it
closed over; the region that holds the middle is the box bottom. A strong lamp fall-off towards a
corner can join the floor to a wall of the same grey: even, diffuse light is what the rig wants anyway. Its
bounding rectangle, and the edges of the picture it touches, are what the plan check compares with
`rig plan` (the box fully in view; its size in px against the planned one).

>>> import numpy as np
>>> frame = np.full((240, 320, 3), 60, np.uint8)
>>> frame[40:200, 50:270] = (128, 121, 113)
>>> seen = find_box_floor(frame)
>>> [round(v) for v in seen.rect], seen.touches
([49, 40, 271, 200], ())
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: the frame is looked at this wide (px)
WORK_WIDTH = 240
#: the floor runs off an edge of the picture when it covers at least this share of that edge ...
EDGE_SHARE = 0.4
#: ... and no wall shows on that side: no brightness step this sharp (share of the middle's brightness over 2 px)
WALL_STEP = 0.10


@dataclass(frozen=True)
class BoxFloor:
    rect: tuple[float, float, float, float]  # x0, y0, x1, y1 in frame px
    touches: tuple[str, ...]  # the picture's edges the floor runs into: "top", "bottom", "left", "right"
    share: float  # the floor's share of the picture

    @property
    def size(self) -> tuple[float, float]:
        return self.rect[2] - self.rect[0], self.rect[3] - self.rect[1]


def find_box_floor(frame: np.ndarray) -> BoxFloor:
    """The box bottom's bounding rectangle in ``frame`` (BGR) and the picture edges it touches."""
    h, w = frame.shape[:2]
    k = WORK_WIDTH / w
    small = cv2.resize(frame, (WORK_WIDTH, max(8, round(h * k))), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    centre = lab[sh * 2 // 5: sh * 3 // 5, sw * 2 // 5: sw * 3 // 5].reshape(-1, 3)
    ref = np.median(centre, axis=0)
    d = lab - ref
    dist = np.sqrt(0.5 * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)  # brightness counts half: the lamp
    scaled = np.clip(dist * 4, 0, 255).astype(np.uint8)
    threshold, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (scaled <= max(threshold, 24)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    size = max(3, sw // 30) | 1  # close over the dice' outlines (a die is about 1/20 of the picture)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    middle = labels[sh * 2 // 5: sh * 3 // 5, sw * 2 // 5: sw * 3 // 5]
    counts = np.bincount(middle.ravel(), minlength=n)
    counts[0] = 0
    label = int(counts.argmax())
    if n <= 1 or counts[label] == 0:
        return BoxFloor((w / 2, h / 2, w / 2, h / 2), (), 0.0)
    x, y, bw, bh, area = stats[label]
    floor = labels == label
    # an edge counts as run into when the floor covers much of it (a corner the lamp joins to a wall does not)
    edges = {"top": floor[:2].any(axis=0), "bottom": floor[-2:].any(axis=0),
             "left": floor[:, :2].any(axis=1), "right": floor[:, -2:].any(axis=1)}
    touches = [name for name, line in edges.items() if line.mean() >= EDGE_SHARE]
    if touches:  # a lamp's fall-off can join floor and wall: a side whose wall step is plain to see is in view
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
        touches = [side for side in touches if _wall_step(grey, side) < WALL_STEP]
    return BoxFloor((x / k, y / k, (x + bw) / k, (y + bh) / k), tuple(touches), float(area) / (sw * sh))


def _wall_step(grey: np.ndarray, side: str) -> float:
    """The sharpest brightness step (over 2 px, relative to the middle's brightness) in the outer 30 % of
    the picture on ``side``, on the median profile across the middle 60 % (dice and print drop out)."""
    h, w = grey.shape
    across = grey[:, w // 5: w * 4 // 5] if side in ("top", "bottom") else grey[h // 5: h * 4 // 5, :].T
    profile = np.median(across, axis=1)
    if side in ("bottom", "right"):
        profile = profile[::-1]
    band = profile[: max(4, int(len(profile) * 0.3))]
    middle = float(np.median(grey[h * 2 // 5: h * 3 // 5, w * 2 // 5: w * 3 // 5])) + 1.0
    return float(np.abs(band[2:] - band[:-2]).max()) / middle

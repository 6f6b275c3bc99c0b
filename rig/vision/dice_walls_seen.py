"""The side walls a flat die shows towards the optical centre, as wide as perspective predicts there: shade that no
hidden die can be (the searches for dice missed in shade leave them)."""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_cocked import _radial
from rig.vision.dice_frames import Work

#: a piece of die colour within this share of a die side beyond a flat die's box, on the side perspective shows
#: (towards the frame's centre), is that die's side face cut from its top by the dark edge between them (2D unseen
#: 44006, 45000: 20-33 px from a 68-84 px die's centre, a turned die's corner face beyond its box)
SIDE_FACE_REACH = 0.3


def _walls_seen(dice: list, work: Work, walls) -> np.ndarray:
    """255 except where the flat dice read show their own side walls (towards the optical
    centre, as wide as perspective predicts there): shade that no hidden die can be."""
    keep = np.full(work.labels.shape, 255, np.uint8)
    for hull in _wall_hulls(dice, work, walls):
        cv2.fillConvexPoly(keep, hull, 0)
    return keep


def _wall_hulls(dice: list, work: Work, walls) -> list[np.ndarray]:
    """Each flat die's top and the side walls it shows (:func:`_walls_seen`) as a polygon (int32, working px)."""
    f = work.factor
    out = []
    for d in dice:
        if d.cocked:
            continue
        x, y, w, h = (v / f for v in d.box)
        rx, ry = _radial(d, work)
        r = float(np.hypot(rx, ry))
        reach = (walls[1] * r + 0.25) * work.side  # the wall's width in working px
        sx, sy = -rx / max(r, 1e-6) * reach, -ry / max(r, 1e-6) * reach  # (scalars: a tenth of the arrays' time)
        corners = [(x - 1, y - 1), (x + w + 1, y - 1), (x + w + 1, y + h + 1), (x - 1, y + h + 1)]
        hull = cv2.convexHull(np.array(corners + [(cx + sx, cy + sy) for cx, cy in corners], np.float32))
        out.append(np.round(hull).astype(np.int32))
    return out


def a_side_face(x: float, y: float, dice: list, work: Work) -> bool:
    """Whether the working-scale point (``x``, ``y``), the centre of a piece of die colour too small for a top, lies
    where a flat die read shows a side face: in its box grown by :data:`SIDE_FACE_REACH` of a die side, on the side
    of its centre towards the frame's centre (the side faces perspective shows; issue 24, round 23)."""
    f = work.factor
    px, py = (x + 0.5) * f, (y + 0.5) * f
    reach = SIDE_FACE_REACH * work.side * f
    for d in dice:
        if d.cocked:
            continue
        bx, by, bw, bh = d.box
        if not (bx - reach <= px <= bx + bw + reach and by - reach <= py <= by + bh + reach):
            continue
        rx, ry = _radial(d, work)  # (the die's offset from the frame's centre: the piece lies back towards it)
        if (px - d.x) * rx + (py - d.y) * ry < 0:
            return True
    return False

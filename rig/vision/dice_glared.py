"""A die top unread under the lamp's glare: its violet rim round a hole where the empty box showed the lamp's
reflection (moved out of :mod:`rig.vision.dice_missed`, unchanged)."""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_frames import glare_for
from rig.vision.light import profile_map
from rig.vision.pixel_classes import _K3, BLOWN, BODY, EDGE

#: a die top under the lamp's glare: at least this share of a die top inside a ring of die body ...
GLARED_AREA = 0.6
#: ... of which at least this share die body (a floor's glare spot shows no violet round it)
GLARED_BODY = 0.1
#: ... and this share its bevel in shade (``edge``: a lilac cloth's speckle beyond the box shows none) ...
GLARED_BEVEL = 0.15
#: ... where the empty box showed the lamp's reflection at least this strong (grey levels)
GLARED_LEVEL = 32
GLARED_REASON = "die colour under the lamp's glare, not read"
_RIM = np.zeros(256, np.uint8)
_RIM[[BLOWN, BODY, EDGE]] = 255


def in_a_die(x: float, y: float, dice: list, factor: int) -> bool:
    """Whether the working-scale point (``x``, ``y``) lies in the box of one of the ``dice`` read (full-size px)."""
    return any(bx <= (x + 0.5) * factor <= bx + bw and by <= (y + 0.5) * factor <= by + bh for bx, by, bw, bh in
               (d.box for d in dice))


def glared_die(work, dice: list) -> tuple[float, float] | None:
    """Where a die top lies unread under a lamp reflection the empty box showed, or None.

    A pink frog under the glare, its red clipped, read as ``blown`` (a die colour and the floor fit alike: neither top
    nor odd) or, once a brighter light was divided out, as the floor: the frog vanished, its die with it, and the turn
    read ok with five dice (2D unseen table 35002 turn 10, round 11's fresh set, in five of its seven lights). What is
    left of it is its violet rim round a hole: blown, body and edge pixels (its bevel), their holes filled, a die
    top's size with some violet in it, clear of every die read, are such a die — flagged, not read (its colours are
    the glare's)."""
    if work.glare is None:
        return None
    labels, a0, f = work.labels, work.top_area, work.factor
    cells, places = _glared_cells(work)
    if places is not None and not places[-1, -1]:
        return None  # the lamp's reflection lies on no floor cell: no place to find such a die
    if cv2.countNonZero((labels == BODY).view(np.uint8)) < GLARED_BODY * GLARED_AREA * a0:
        return None
    rim = cv2.LUT(labels, _RIM)
    mask = cv2.morphologyEx(rim, cv2.MORPH_CLOSE, _K3)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for k in _die_sized(contours, work.side, a0, labels.shape):
        c = contours[k]
        x, y, w, h = cv2.boundingRect(c)
        if any(x * f <= d.x <= (x + w) * f and y * f <= d.y <= (y + h) * f for d in dice):
            continue  # a die read, with its rim and the shade beside it
        if places is not None and not places[y + h, x + w] - places[y, x + w] - places[y + h, x] + places[y, x]:
            continue  # its middle (in its box) can lie on no floor cell under the lamp's reflection: tested below
        filled = np.zeros((h, w), np.uint8)
        cv2.drawContours(filled, [c - (x, y)], -1, 1, cv2.FILLED)
        area = int(filled.sum())
        inside = labels[y : y + h, x : x + w][filled > 0]
        if area < GLARED_AREA * a0 or (inside == BODY).mean() < GLARED_BODY or (inside == EDGE).mean() < GLARED_BEVEL:
            continue  # a die's rim: its violet and its bevel in shade
        m = cv2.moments(filled, binaryImage=True)
        cx, cy = x + m["m10"] / m["m00"], y + m["m01"] / m["m00"]
        gy, gx = min(int(cy), work.glare.shape[0] - 1), min(int(cx), work.glare.shape[1] - 1)
        if work.glare[gy, gx].max() < GLARED_LEVEL:
            continue  # not where the empty box showed the lamp's reflection
        if cells is not None and not cells[min(int(cy * cells.shape[0] / labels.shape[0]), cells.shape[0] - 1),
                                           min(int(cx * cells.shape[1] / labels.shape[1]), cells.shape[1] - 1)]:
            continue  # on the box bottom only: its rim and the table beyond it (a lilac cloth's speckle) are no die
        if not in_a_die(cx, cy, dice, f):
            return float(cx), float(cy)
    return None


def _die_sized(contours, side: float, a0: float, shape: tuple[int, int]) -> list[int]:
    """The indices, in order, of the ``contours`` whose boxes (``cv2.boundingRect``) may hold a glared die top: at most
    two die sides (``side``) long, at least :data:`GLARED_AREA` of ``a0`` in area, not under half as wide as long, not
    touching the frame's edge (``shape``: the table beyond the box). Every box found at once from the contours' points
    joined (a full-resolution twin frame's mask holds ~630 contours: 0.13 against 0.34 ms a call, one ``boundingRect``
    each in Python; issue 24, round 33)."""
    if not contours:
        return []
    sizes = np.fromiter((len(c) for c in contours), np.intp, len(contours))
    starts = np.concatenate(([0], np.cumsum(sizes[:-1])))
    points = np.concatenate(contours).reshape(-1, 2)
    lo, hi = np.minimum.reduceat(points, starts), np.maximum.reduceat(points, starts)
    (x, y), (w, h) = lo.T, (hi - lo + 1).T
    long_ = np.maximum(w, h)
    fits = (long_ <= 2.0 * side) & (w * h >= GLARED_AREA * a0) & (np.minimum(w, h) >= 0.5 * long_)
    fits &= (x != 0) & (y != 0) & (x + w != shape[1]) & (y + h != shape[0])
    return np.flatnonzero(fits).tolist()


def _glared_cells(work) -> tuple:
    """The profile's floor cells (rows x cols bool, or None without them) as :func:`glared_die` looks a place up in
    them, and the places (working pixels) a blob's middle may lie to pass its last two tests — where the empty box
    showed the lamp's reflection (at least :data:`GLARED_LEVEL`) and on a floor cell — as a summed-area table
    ((H + 1) x (W + 1), or None: no such shortcut), built once per profile and frame shape (a profile is frozen:
    its glare and cells never change; another profile is another key; a glare not the profile's is not kept)."""
    profile = work.profile
    if profile is None or profile.floor_cells is None:
        return None, None
    if work.glare is not glare_for(profile, work.labels.shape):
        return np.asarray(profile.floor_cells, bool), None

    def build():
        cells = np.asarray(profile.floor_cells, bool)
        H, W = work.labels.shape
        hot = work.glare.max(axis=2) >= GLARED_LEVEL
        # a middle (cx, cy) is looked up at glare[int(cy), int(cx)] and cells[int(cy * rows / H), int(cx * cols / W)]:
        # for cy in [gy, gy + 1) the cell's row is that of gy or of gy + 1 (rows <= H; rounding keeps the order),
        # the same for columns: a place is taken when any of those four cells is floor (more places, never fewer)
        ry = np.minimum((np.arange(H + 1) * cells.shape[0]) // H, cells.shape[0] - 1)
        rx = np.minimum((np.arange(W + 1) * cells.shape[1]) // W, cells.shape[1] - 1)
        near = np.zeros((H, W), bool)
        for dy in (0, 1):
            for dx in (0, 1):
                near |= cells[ry[dy : H + dy]][:, rx[dx : W + dx]]
        return cells, cv2.integral((hot & near).view(np.uint8))

    return profile_map("glared places", profile, work.labels.shape, build)

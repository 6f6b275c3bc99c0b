"""A die leaning on a wall with its top to the lens, its side face inside its read box beyond a crease (issue 24,
round 26).

A die leaning on a tray wall with its top turned towards the lens shows its wall-side face turned up beyond the top's
**outer** edge (:mod:`rig.vision.dice_wallside`). Where that face is lit as the top is, the reader takes it in with the
top: the read box holds both (twin 10209 turn 1: a box 1.3 die sides long; 10702 turn 3: a die-sized box whose outer
eighth is the side face), and the strip beyond the box shows floor or shade. What the box holds that a flat die's does
not is the edge between the two faces: a line across the box, parallel to its outer side and a little inside it, darker
than the die body on both sides of it, die-body coloured on both sides. A flat die's box ends at its top's outer edge
(its rounded rim darkens there, with no second lit face beyond); the side face perspective shows of a flat die lies
on the top's **inner** side, towards the frame's centre.

The box is read across its middle (:data:`MIDDLE` of its length along the side), row by row (or column by column)
from the outer side inwards: each line's median lightness, and its share of die-body pixels (a, b nearer the die
body's than the empty box's, :data:`rig.vision.dice_wallside.NEARER`).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from rig.vision.dice_lampside import _SIDES, neighbour_on_side

#: the crease lies this far inside the box's outer side (die sides): past the top's rounded rim, within the side
#: face's width (twin 10702 turn 3: 0.13; 10209 turn 1: 0.45)
REACH = (0.08, 0.5)
#: the middle share of the box's length along the side that is read (its corners left out)
MIDDLE = 0.6
#: the crease line is at most this share of the lightness of the lighter of the faces either side of it (the
#: leaning dice of seen thrown sets 10000-10911 read `ok` 0.62-0.735; flat 2D dice under a frame's light change whose
#: frog's edge or rim shows a line there 0.78-0.79: 41000, 45001, 45002) ...
DIP = 0.75
#: ... the outer face (the brightest line between the box's outer side and the crease) at least this share of the
#: top's beside the crease (its brightest line within :data:`INNER` die sides inward: a frog further in is not the
#: die body's lightness, twin 10005 turn 3's yellow) ...
OUTER = 0.8
INNER = 0.15
#: ... and the crease and the outer face's brightest line die body in this share of their pixels at least: a die's
#: edge, die body all across (seen thrown sets 10000-10911, every light: the leaning dice 1.0 but one, 0.85; flat dice
#: whose box shows a dark line there, a frog's edge or a neighbour's shade, at most 0.92)
HUE = 0.95
#: the die lies out towards the tray's wall on that side: its centre at least this share of the half frame from the
#: frame's centre along the side's direction (the leaning dice 0.53-0.83; flat dice with a crease-like line 0.13-0.44,
#: near the view's nadir)
FAR = 0.45
#: a box this many die sides long at most on either side (a leaning die's top and its turned-up face)
BOX_SIZE = (0.8, 1.45)
REASON = "cocked die (its side face inside its box, beyond a crease)"


def _lines(frame: np.ndarray, empty_ab: np.ndarray, box, name: str, depth: int):
    """The box's first ``depth`` lines parallel to its side ``name``, from that side inwards, read across the box's
    middle: the frame's pixels there as Lab (uint8, lines x pixels x 3) and the empty box's (a, b) there (float32,
    lines x pixels x 2); None where the box leaves the frame."""
    bx, by, bw, bh = box
    h, w = frame.shape[:2]
    if bx < 0 or by < 0 or bx + bw > w or by + bh > h or min(bw, bh) < 4:
        return None
    across = bw if name in ("T", "B") else bh
    cut = int(round((1.0 - MIDDLE) / 2 * across))
    rect = {
        "T": (by, by + depth, bx + cut, bx + bw - cut),
        "B": (by + bh - depth, by + bh, bx + cut, bx + bw - cut),
        "L": (by + cut, by + bh - cut, bx, bx + depth),
        "R": (by + cut, by + bh - cut, bx + bw - depth, bx + bw),
    }[name]
    y0, y1, x0, x1 = rect
    lab = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2Lab)
    empty = empty_ab[y0:y1, x0:x1]
    if name in ("L", "R"):  # lines as rows
        lab, empty = lab.transpose(1, 0, 2), empty.transpose(1, 0, 2)
    if name in ("B", "R"):  # from the outer side inwards
        lab, empty = lab[::-1], empty[::-1]
    return lab, empty


def _median(light: np.ndarray) -> np.ndarray:
    """Each line's median of uint8 ``light`` (lines x pixels) as float32: ``np.median(light.astype(np.float32),
    axis=1)``'s numbers (whole numbers and halves, exact) from the bytes' two middle values (one partition)."""
    n = light.shape[1]
    middle = np.partition(light, ((n - 1) // 2, n // 2), axis=1)
    return (middle[:, (n - 1) // 2].astype(np.float32) + middle[:, n // 2]) / np.float32(2)


def _body_shares(lab: np.ndarray, empty: np.ndarray, body_ab, nearer: float) -> np.ndarray:
    """Each line's share of pixels (``lab``: Lab, lines x pixels x 3) whose (a, b) lies ``nearer`` nearer the
    nearest of the die body's colours ``body_ab`` than the empty box's there (``empty``, lines x pixels x 2)."""
    ab = lab[..., 1:].astype(np.float32)
    d_empty = _hypot(ab - empty)
    d_body = functools.reduce(np.minimum, [_hypot(ab - b) for b in np.asarray(body_ab, np.float32)])
    return (d_body + nearer < d_empty).astype(np.float32).mean(axis=1)


def _hypot(d: np.ndarray) -> np.ndarray:
    """The length of each (..., 2) difference, float32: ``np.hypot`` of its two parts."""
    return np.hypot(d[..., 0], d[..., 1])


def crease(frame: np.ndarray, empty_ab: np.ndarray, box, name: str, side: float, body_ab, nearer: float):
    """The crease's numbers beside side ``name`` of ``box``: ``(dip, outer, hue, at)`` -- the darkest line within
    :data:`REACH` over the lighter face beside it, the outer face's brightest line over the top's lightness, the
    smaller die-body share of those two lines, the crease's depth (die sides); None where there is no such line.
    The die-body share of those two lines only is taken (issue 24, round 28: the shares of all lines took two thirds
    of the time)."""
    found = _dip(frame, empty_ab, box, name, side)
    if found is None:
        return None
    dip, outer, k, o, lab, empty = found
    return dip, outer, _hue(lab, empty, k, o, body_ab, nearer), k / side


def _dip(frame: np.ndarray, empty_ab: np.ndarray, box, name: str, side: float):
    """:func:`crease`'s lightness numbers: ``(dip, outer, k, o, lab, empty)``, the crease's line ``k`` and the outer
    face's ``o`` in :func:`_lines`'s ``lab`` and ``empty``; None where there is no such line. The lines are read only
    as deep into the box as the crease and the top beside it reach (issue 24, round 29: a leaning die's box is about
    a die side and a half long, its inner half never looked at)."""
    n = box[3] if name in ("T", "B") else box[2]  # the box's lines along that side
    a, b = max(2, int(round(REACH[0] * side))), min(n // 2, int(round(REACH[1] * side)) + 1)
    reach_in = int(round(INNER * side))
    # the lines used: the crease within REACH, the outer face before it and the top's lines within INNER beyond it
    lines = _lines(frame, empty_ab, box, name, min(n, b + 1 + reach_in)) if b > a else None
    if lines is None:
        return None
    lab, empty = lines
    light = _median(lab[..., 0])
    k = a + int(np.argmin(light[a:b]))
    o = int(np.argmax(light[:k]))
    inner = float(np.max(light[k + 1 : k + 2 + reach_in]))
    if inner <= 0:
        return None
    return float(light[k]) / max(1.0, min(float(light[o]), inner)), float(light[o]) / inner, k, o, lab, empty


def _hue(lab: np.ndarray, empty: np.ndarray, k: int, o: int, body_ab, nearer: float) -> float:
    """The smaller die-body share (:func:`_body_shares`) of the crease's line ``k`` and the outer face's ``o``."""
    return float(_body_shares(lab[[k, o]], empty[[k, o]], body_ab, nearer).min())


def creased(frame, empty_ab, box, name: str, side: float, body_ab, nearer: float) -> bool:
    """Whether the box holds a leaning die's side face beyond a crease on its side ``name`` (the module's text); the
    die-body shares are taken only of a line dark enough between lit faces (round 29: most boxes show none)."""
    found = _dip(frame, empty_ab, box, name, side)
    if found is None:
        return False
    dip, outer, k, o, lab, empty = found
    return dip <= DIP and outer >= OUTER and _hue(lab, empty, k, o, body_ab, nearer) >= HUE


def creased_dice(
    frame_bgr: np.ndarray, empty_ab: np.ndarray, dice, side: float, body_ab, nearer: float, outward, found=()
) -> list:
    """The dice of ``dice`` (not read cocked, not in ``found``: flagged already, box within :data:`BOX_SIZE`) whose
    box holds a side face beyond a crease on an outer side (``outward(x, y, shape)``: the sides facing away from the
    frame's centre, :func:`rig.vision.dice_wallside.outward_sides`, passed in: no import circle) with no die ahead
    there (:func:`creased`)."""
    return [
        d
        for d in dice
        if not d.cocked
        and all(d is not f for f in found)
        and BOX_SIZE[0] * side <= min(d.box[2:]) <= max(d.box[2:]) <= BOX_SIZE[1] * side
        and any(
            not neighbour_on_side(d, dice, name, side)
            and _far(d.x, d.y, name, frame_bgr.shape[:2])
            and creased(frame_bgr, empty_ab, d.box, name, side, body_ab, nearer)
            for name in outward(d.x, d.y, frame_bgr.shape[:2])
        )
    ]


def _far(x: float, y: float, name: str, shape: tuple[int, int]) -> bool:
    """Whether a die at (x, y) lies :data:`FAR` out along side ``name``'s direction in a frame of ``shape`` (h, w).

    >>> _far(600, 240, "R", (480, 640)), _far(400, 240, "R", (480, 640))
    (True, False)
    """
    h, w = shape
    vx, vy = _SIDES[name]
    return vx * (x - w / 2) / (w / 2) + vy * (y - h / 2) / (h / 2) >= FAR

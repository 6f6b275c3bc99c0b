"""A die leaning with its top turned to the lens: its side face, dark, on the side the lamp lights (issue 24, round 21).

A die leaning 25-31 degrees on a wall with its top turned towards the lens looks square and die-sized from above and
passes every test of its top (twin 10400, 10209 and 10103 turn 3). What gives it away is beside the top: its side face
turned from every lamp, a strip far darker than the empty box shows there, on the side of the top **towards** the
lamp. A flat die shows such a strip only on the side away from the lamp (its cast shadow), or where a neighbour's
shadow falls. Which sides the lamp lights is read from the frame's own dice: the sides where their strips are dark
least often. The empty box's picture is the one calibration keeps beside the profile
(:func:`rig.vision.card_empty.kept`); without one nothing is judged.
"""

from __future__ import annotations

import functools
from statistics import median

import cv2
import numpy as np

from rig.vision.light import profile_map

#: the strip looked at beside each side of a die's box: this many die sides wide, a pixel off the box
STRIP = 0.3
#: a strip pixel is dark where the frame shows less than this share of the empty box's lightness there (B + G + R)
DARK = 0.4
#: a side the lamp lights: the frame's dice's strips on it are dark at this share or less (their median) ...
LIT_SIDE = 0.2
#: ... and a die's strip on such a side this dark (share of its pixels) is its side face (twin 10400, 10209, 10103
#: turn 3: 0.66-0.79 in every light; flat dice's strips on the lit side at most 0.6 once a neighbour's shadow is
#: left out, seen sets 10000-10411, propped 5000-5111, every light)
FACE = 0.6
#: another die within this many die sides on that side (and this many across) may shade the strip: not judged
NEIGHBOUR_AHEAD, NEIGHBOUR_ACROSS = 2.0, 1.2
REASON = "cocked die (its side face dark towards the lamp)"

_SIDES = {"L": (-1, 0), "R": (1, 0), "T": (0, -1), "B": (0, 1)}
_OPPOSITE = {"L": "R", "R": "L", "T": "B", "B": "T"}
_ONES = np.ones((1, 3), np.float32)  # B + G + R as cv2.transform's one output channel


def empty_lightness(empty_lab: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The empty box's picture (uint8 Lab, any size) as B + G + R at ``shape`` (h, w), float32; made once a picture
    and frame size (the same for every frame of a calibration: :func:`rig.vision.light.profile_map`, kept by the
    picture)."""

    def build() -> np.ndarray:
        bgr = cv2.cvtColor(empty_lab, cv2.COLOR_Lab2BGR)
        return cv2.resize(bgr, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR).astype(np.float32).sum(axis=2)

    return profile_map("lampside_empty", empty_lab, tuple(shape), build)


def strips(box: tuple[int, int, int, int], side: float, shape: tuple[int, int]) -> dict[str, tuple[int, int, int, int]]:
    """The strip :data:`STRIP` die sides wide a pixel beyond each side of ``box`` (x, y, w, h; frame px) as (y0, y1,
    x0, x1), cut to a frame of ``shape`` (h, w); a strip narrower than 2 px there is left out. Kept for the last boxes
    asked (the side-face checks ask for each die's strips in turn: about 22 times a twin frame; issue 24, round 33):
    read it, never change it.

    >>> strips((10, 10, 20, 20), 20.0, (100, 100))["R"]
    (10, 30, 31, 37)
    """
    return _strips(tuple(box), side, tuple(shape))


@functools.lru_cache(maxsize=64)
def _strips(box: tuple[int, int, int, int], side: float, shape: tuple[int, int]) -> dict[str, tuple[int, int, int, int]]:
    bx, by, bw, bh = box
    s, g = max(3, round(STRIP * side)), 1
    around = {
        "L": (by, by + bh, bx - g - s, bx - g),
        "R": (by, by + bh, bx + bw + g, bx + bw + g + s),
        "T": (by - g - s, by - g, bx, bx + bw),
        "B": (by + bh + g, by + bh + g + s, bx, bx + bw),
    }
    h, w = shape
    out = {}
    for name, (y0, y1, x0, x1) in around.items():
        y0, y1, x0, x1 = max(0, y0), min(h, y1), max(0, x0), min(w, x1)
        if y1 - y0 >= 2 and x1 - x0 >= 2:
            out[name] = (y0, y1, x0, x1)
    return out


def dark_least(empty: np.ndarray) -> np.ndarray:
    """:data:`DARK` times ``empty`` (:func:`empty_lightness`, float32 h x w): the lightness below which a frame's pixel
    is dark, made once a lightness map (the last one's kept: one live calibration), not once a die (issue 24, round
    25). (Kept beside, not among the profile's maps: one more of those would empty their cache sooner.)"""
    hit = _LEAST[0]  # (one pair, taken and replaced whole)
    if hit is None or hit[0] is not empty:
        hit = _LEAST[0] = (empty, DARK * empty)
    return hit[1]


_LEAST: list = [None]


def dark_shares(
    frame: np.ndarray, empty: np.ndarray, box: tuple[int, int, int, int], side: float, least: np.ndarray | None = None
) -> dict[str, float]:
    """The share of dark pixels (:data:`DARK`) in the strip beside each side of ``box`` (x, y, w, h; frame px):
    ``frame`` B, G, R (its lightness B + G + R taken in the strips only), ``empty`` the empty box's lightness
    (``least``: :data:`DARK` times it, :func:`dark_least`, when the caller has it: the same numbers)."""
    cut = strips(box, side, frame.shape[:2])
    if not cut:
        return {}
    # one window round the die holding its strips: B + G + R by one transform (whole numbers in float32: the same
    # sums as light.sum3's), compared with the empty box's once, each strip's dark pixels counted by OpenCV in it
    # (the same share as np.mean of the comparison; one pass a die, not four, ~2.5 times the strips' pixels)
    y0, y1 = min(r[0] for r in cut.values()), max(r[1] for r in cut.values())
    x0, x1 = min(r[2] for r in cut.values()), max(r[3] for r in cut.values())
    # (float32 from empty_lightness; compared in its own type)
    least = DARK * empty[y0:y1, x0:x1] if least is None else least[y0:y1, x0:x1]
    lum = cv2.transform(frame[y0:y1, x0:x1].astype(least.dtype), _ONES.astype(least.dtype, copy=False))
    dark = cv2.compare(lum, least, cv2.CMP_LT)
    return {
        name: cv2.countNonZero(dark[a - y0 : b - y0, c - x0 : d - x0]) / ((b - a) * (d - c))
        for name, (a, b, c, d) in cut.items()
    }


def neighbour_on_side(die, dice, name: str, side: float) -> bool:
    """Whether another of ``dice`` lies on ``die``'s side ``name`` (a key of ``_SIDES``) within the strip a side face
    would show in (``side``: the die's side, px): its colour there is that die's, not a side face's."""
    vx, vy = _SIDES[name]
    for other in dice:
        if other is die:
            continue
        dx, dy = other.x - die.x, other.y - die.y
        if 0 < dx * vx + dy * vy < NEIGHBOUR_AHEAD * side and abs(dx * vy - dy * vx) < NEIGHBOUR_ACROSS * side:
            return True
    return False


def turned_to_lens(frame_bgr: np.ndarray, empty_lab: np.ndarray, dice, side: float) -> list:
    """The dice of ``dice`` (not read cocked) whose side face shows dark on a side the lamp lights."""
    if len(dice) < 3:  # too few dice to tell the lamp's sides
        return []
    empty = empty_lightness(empty_lab, frame_bgr.shape[:2])
    least = dark_least(empty)
    shares = [dark_shares(frame_bgr, empty, d.box, side, least) for d in dice]
    typical = {n: median([s[n] for s in shares if n in s] or [0.0]) for n in _SIDES}
    lit = [n for n in _SIDES if typical[n] < LIT_SIDE and typical[n] <= typical[_OPPOSITE[n]]]
    return [
        d
        for d, s in zip(dice, shares, strict=True)
        if not d.cocked and any(s.get(n, 0.0) >= FACE and not neighbour_on_side(d, dice, n, side) for n in lit)
    ]


def side_face_flags(work, profile, dice) -> list:
    """:data:`REASON` at each die :func:`turned_to_lens` finds in ``work``'s frame, as flags; none without the
    frame or the empty box's picture kept for ``profile``."""
    from rig.vision.dice_flag import Flag

    empty = kept_with_frame(work, profile)
    if empty is None:
        return []
    side = work.side * work.factor
    return [Flag(REASON, d.x, d.y) for d in turned_to_lens(work.frame, empty.lab, dice, side)]


def kept_with_frame(work, profile):
    """The empty box's picture calibration kept beside ``profile`` (:func:`rig.vision.card_empty.kept`), or None
    when there is none or ``work`` holds no full frame to compare it with: the side-face checks judge nothing then."""
    from rig.vision.card_empty import kept

    return kept(profile) if work.frame is not None else None

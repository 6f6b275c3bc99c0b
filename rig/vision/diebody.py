"""A die's body seen whole: the patch of its top's colour around a box found on it (issue 25, round 35).

On the pip twin's big dice the finder often peaks on part of a die's top (a pip, or two): a box of 40-60 px on a
90 px white die (12307), read as the 1 or 2 pips it holds. The die's body around it is one patch of the colour that
fills the box (its median: pips are a minority of any box on a die), set off from the floor: :func:`body_box` finds it
in a window grown until the patch ends inside it, its outline holding its pips. Not seen so: black dice whose shadows
share their colour (12002, 12205: the patch never ends). A white die seen aslant takes its front face too (tuning photo
``two_29``: a patch 1.26 times longer than wide, its 2 read 4, flagged): a box is read again only in a patch as square
as the twin's dice tops (:data:`BODY_REREAD_ELONGATION`; theirs 1.00-1.05).
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from rig.vision.dicecandidate import Candidate
from rig.vision.pips import PipCount, PipDie

#: a box this many frame px or more, unsure, is looked at (smaller dice: the finder's boxes fit them) ...
BODY_FROM = 32.0
#: ... read again in its body's box when that is ``[anydie] body_grow`` times its side or more, that reading replacing
#: its own when it is another count this sure
BODY_SURE = 0.9
#: Lab distance from the box's colour (its median, after a blur) that is still the die's body
BODY_NEAR = 22.0
#: a body colour this near grey (Lab a, b) and dark is a black die's: its lightness is held to :data:`DARK_SHARE` of its
#: own (from :data:`DARK_FLOOR`; never over :data:`BODY_NEAR`), as its shadows and side faces are darker still by a few
#: Lab steps (twin 12502: tops L 20-35, the shadows beside them 1-10)
DARK_CHROMA = 8.0
DARK_SHARE = 0.4
DARK_FLOOR = 6.0
#: the window around the box, in box sides: the first, and the largest it grows to (doubling)
BODY_WINDOW = (3.0, 6.0)
#: the box is seen this many px wide (scaled down, never up)
BODY_PX = 16.0
_DISC3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
#: the patch is a die's top when it fills this much of its smallest rotated rectangle ...
BODY_RECT = 0.8
#: ... and that rectangle is no longer than this many times its width
BODY_ELONGATION = 1.3
#: a box is read again in its body's box only when that rectangle is no longer than this many times its width
BODY_REREAD_ELONGATION = 1.15


def body_box(frame: np.ndarray, x: float, y: float, side: float, elongation: float = BODY_ELONGATION,
             window: tuple[float, float] = BODY_WINDOW) -> tuple[float, float, float] | None:
    """The die's top around the box of ``side`` centred at (``x``, ``y``) (frame px): its centre and the side of its
    upright bounding box, as a die's box is labelled; ``None`` when the patch of the box's colour leaves the largest
    window (``window``: the first and largest, in box sides) or the frame, or is no square (:data:`BODY_RECT`,
    ``elongation``). Seen with the box scaled to :data:`BODY_PX` px (never up)."""
    height, width = frame.shape[:2]
    scale = min(1.0, BODY_PX / max(side, 1.0))
    grow, colour = window[0], None
    while grow <= window[1]:
        half = grow * side / 2
        x0, y0 = int(max(0, math.floor(x - half))), int(max(0, math.floor(y - half)))
        x1, y1 = int(min(width, math.ceil(x + half))), int(min(height, math.ceil(y + half)))
        w, h = max(1, round((x1 - x0) * scale)), max(1, round((y1 - y0) * scale))
        if w < 4 or h < 4:
            return None
        small = cv2.resize(np.ascontiguousarray(frame[y0:y1, x0:x1]), (w, h), interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
        sx, sy = (x1 - x0) / w, (y1 - y0) / h  # frame px per window px
        cx, cy, r = int((x - x0) / sx), int((y - y0) / sy), max(1, int(side * scale / 2))
        if colour is None:
            colour = np.median(lab[max(0, cy - r):cy + r, max(0, cx - r):cx + r].reshape(-1, 3), axis=0)
        _, labels = cv2.connectedComponents(near_colours(lab, [colour]), connectivity=4)
        r //= 2
        middle = labels[max(0, cy - r):cy + r + 1, max(0, cx - r):cx + r + 1]
        ids, counts = np.unique(middle[middle > 0], return_counts=True)
        if not len(ids):
            return None
        part = (labels == ids[int(np.argmax(counts))]).astype(np.uint8)
        if not (part[0].any() or part[-1].any() or part[:, 0].any() or part[:, -1].any()):
            return square_patch(part, x0, y0, sx, sy, elongation)
        if x0 == 0 or y0 == 0 or x1 == width or y1 == height:
            return None
        grow *= 2
    return None


def patch_die(patch: tuple[float, float, float], pips: int, q: float, reason: str) -> PipDie:
    """The die read ``pips`` at ``q`` in the square ``patch`` (its centre x, y and side; frame px), flagged ``reason``
    (a die found by its body's patch: :mod:`rig.vision.diecolour`, :mod:`rig.vision.diebodies`,
    :mod:`rig.vision.diepipgroup`)."""
    x, y, side = patch
    half = side / 2
    box = (int(round(x - half)), int(round(y - half)), int(round(side)), int(round(side)))
    return PipDie(box, PipCount(pips, (), round(q, 3), "uncertain", (reason,)))


def in_patch(point: tuple[float, float], patch: tuple[float, float, float]) -> bool:
    """Whether ``point`` (x, y) lies inside the square ``patch`` (its centre x, y and side)."""
    return abs(point[0] - patch[0]) < patch[2] / 2 and abs(point[1] - patch[1]) < patch[2] / 2


def near_colours(lab: np.ndarray, colours) -> np.ndarray:
    """1 where ``lab`` (float32 Lab) lies within :data:`BODY_NEAR` of any of ``colours`` (a dark grey's lightness held
    closer: :func:`_lightness_near`), its gaps of a pixel closed; else 0 (uint8)."""
    near = np.zeros(lab.shape[:2], np.uint8)
    for colour in colours:
        d = lab - colour
        lightness = _lightness_near(colour)
        if lightness < BODY_NEAR:  # a black die's: its lightness held closer than its hue (above)
            d[..., 0] *= BODY_NEAR / lightness
        near |= (np.sqrt((d * d).sum(axis=2)) < BODY_NEAR).astype(np.uint8)
    return cv2.morphologyEx(near, cv2.MORPH_CLOSE, _DISC3)


def _lightness_near(colour) -> float:
    """How far in Lab lightness (8-bit) a pixel may lie from ``colour`` and still be its body: :data:`BODY_NEAR`, or
    for a dark grey (:data:`DARK_CHROMA`) :data:`DARK_SHARE` of its lightness, from :data:`DARK_FLOOR`."""
    if math.hypot(float(colour[1]) - 128.0, float(colour[2]) - 128.0) >= DARK_CHROMA:
        return BODY_NEAR
    return min(BODY_NEAR, max(DARK_FLOOR, DARK_SHARE * float(colour[0])))


def square_patch(part: np.ndarray, x0: float, y0: float, sx: float, sy: float, elongation: float = BODY_ELONGATION
                 ) -> tuple[float, float, float] | None:
    """A patch (a 0/1 mask whose pixel (0, 0) is frame px (``x0``, ``y0``), ``sx`` x ``sy`` frame px each) as a die's
    top: the centre and side of its upright bounding box (frame px), or ``None`` when it is no square
    (:data:`BODY_RECT`; its smallest rotated rectangle longer than ``elongation`` times its width)."""
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(outline)
    (_, _), (w, h), _ = cv2.minAreaRect(outline)
    if area <= 0 or w * h <= 0 or area < BODY_RECT * w * h or max(w, h) > elongation * min(w, h):
        return None
    bx, by, bw, bh = cv2.boundingRect(outline)
    return x0 + (bx + bw / 2) * sx, y0 + (by + bh / 2) * sy, float(max(bw * sx, bh * sy))


def bodies_grown(cands: list[Candidate], frame: np.ndarray, nets, crop, p) -> list[Candidate]:
    """``cands`` with each one unsure (finder under ``p.find_ok`` or reader under ``p.read_ok``), read as a die in a box
    of :data:`BODY_FROM` px or more, read again in the box of its body (:func:`body_box`, as square as
    :data:`BODY_REREAD_ELONGATION`) when that is ``p.body_grow`` times its own or more (0: never): that reading replaces its own
    (``grown``, flagged; its box as found) when another count, at least :data:`BODY_SURE` sure and more than "no die";
    ``nets`` a :class:`rig.vision.dicenet.DiceNet`, ``crop`` its crops."""
    out = list(cands)
    for i, c in enumerate(cands if p.body_grow else ()):
        pk = float(c.probs[c.pips])
        if c.grown or c.side < BODY_FROM or pk <= float(c.probs[0]) or (c.score >= p.find_ok and pk >= p.read_ok):
            continue
        body = body_box(frame, c.x, c.y, c.side, BODY_REREAD_ELONGATION)
        if body is None or body[2] < p.body_grow * c.side:
            continue
        probs, hidden = nets.read_features([crop(frame, *body, size=nets.crop)])
        k = 1 + int(np.argmax(probs[0, 1:]))
        if k != c.pips and probs[0, k] >= BODY_SURE and probs[0, k] > probs[0, 0]:
            out[i] = replace(c, probs=probs[0], features=None if hidden is None else hidden[0], grown=True)
    return out

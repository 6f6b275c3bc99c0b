"""Reading the LEGO Dice of Lunar Command: the colour of its top face.

The LEGO Dice is a white frame with a coloured tile on each face. Seen from above, the die
is found like any coloured die (:func:`rig.vision.coloured.find_coloured_dice`: it differs from the
box bottom's colour), and the middle of its top face — the tile — is classified against a
palette (nearest colour in Lab). A face without a tile (or a white tile) reads ``white``.
:func:`render_lego` draws one for tests and the virtual table.

>>> frame, truth = render_lego(3, "blue")
>>> reading = read_lego(frame)
>>> reading.face, reading.status
('blue', 'ok')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from rig.vision.coloured import find_coloured_dice, nearest_colour
from rig.vision.pips import PipParams, check_frame
from rig.vision.render_pips import TABLE_BGR, finish_frame, place_dice, draw_die

#: tile colours (BGR) of the rendered die; a real set's are calibrated like the ``[colour]`` palette
LEGO_PALETTE: Mapping[str, tuple[int, int, int]] = {
    "white": (235, 235, 235),
    "red": (40, 40, 200),
    "blue": (190, 90, 30),
    "gray": (150, 150, 150),
    "black": (35, 35, 35),
    "green": (60, 160, 40),
    "yellow": (40, 210, 230),
}
FRAME_BGR = (232, 234, 236)
#: fraction of the die's box (centred) whose median colour is the tile's
TILE_FRACTION = 0.36
MIN_CONFIDENCE = 0.4


@dataclass(frozen=True)
class LegoDie:
    """The die as read: its top face's colour, centre, box, confidence."""

    face: str
    x: float
    y: float
    box: tuple[int, int, int, int]
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        return {"face": self.face, "x": round(self.x, 1), "y": round(self.y, 1), "box": list(self.box),
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class LegoReading:
    """Every die found (one expected), ``status`` ``ok``/``uncertain`` and why."""

    dice: tuple[LegoDie, ...]
    status: str
    reasons: tuple[str, ...] = ()

    @property
    def face(self) -> str | None:
        """The colour of the one die, or ``None`` unless exactly one was found."""
        return self.dice[0].face if len(self.dice) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {"game": "lego", "face": self.face, "status": self.status, "reasons": list(self.reasons),
                "dice": [d.to_dict() for d in self.dice]}


def tile_colour(crop: np.ndarray, palette: Mapping[str, Sequence[int]] = LEGO_PALETTE) -> tuple[str, float]:
    """The palette colour of the middle of a die crop, and a confidence (1 = exactly the palette's)."""
    h, w = crop.shape[:2]
    k = TILE_FRACTION / 2
    middle = crop[int(h * (0.5 - k)):int(math.ceil(h * (0.5 + k))), int(w * (0.5 - k)):int(math.ceil(w * (0.5 + k)))]
    bgr = np.median(middle.reshape(-1, 3), axis=0)
    name, distance = nearest_colour(bgr, palette)
    return name, max(0.0, 1.0 - distance / 50.0)


def read_lego(frame: np.ndarray, params: PipParams | None = None, *,
              palette: Mapping[str, Sequence[int]] = LEGO_PALETTE) -> LegoReading:
    """Read the LEGO Dice in ``frame`` (the box bottom seen from above)."""
    frame = check_frame(frame)
    dice = []
    boxes = [box for box, _mask in find_coloured_dice(frame, params)]
    for x, y, w, h in boxes:
        if any(_inside((x, y, w, h), other) for other in boxes if other != (x, y, w, h)):
            continue  # a dark tile parted from its white frame by the anti-aliased edge
        face, confidence = tile_colour(frame[y:y + h, x:x + w], palette)
        dice.append(LegoDie(face, x + w / 2, y + h / 2, (x, y, w, h), round(confidence, 3)))
    reasons = []
    if len(dice) > 1:  # none is a sure reading too: the box is empty
        reasons.append(f"{len(dice)} dice seen, Lunar Command has one")
    reasons += [f"the {d.face} face at ({d.x:.0f}, {d.y:.0f}) is unsure ({d.confidence:.2f})"
                for d in dice if d.confidence < MIN_CONFIDENCE]
    return LegoReading(tuple(dice), "uncertain" if reasons else "ok", tuple(reasons))


def _inside(box: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def draw_lego(frame: np.ndarray, cx: float, cy: float, size: float, angle: float, face: str,
              palette: Mapping[str, Sequence[int]] = LEGO_PALETTE) -> tuple[int, int, int, int]:
    """Draw the die (white frame, a tile of ``face``'s colour in the middle, four studs) in place."""
    box = draw_die(frame, cx, cy, size, angle, FRAME_BGR)
    tile = palette[face]
    half = 0.3 * size
    c, s = math.cos(angle), math.sin(angle)
    corners = np.array([(cx + half * (u * c - v * s), cy + half * (u * s + v * c))
                        for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))]).round().astype(np.int32)
    cv2.fillConvexPoly(frame, corners, tuple(int(v) for v in tile), cv2.LINE_AA)
    shade = tuple(int(0.8 * v) for v in tile)
    for u, v in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)):
        x, y = cx + half * (u * c - v * s), cy + half * (u * s + v * c)
        cv2.circle(frame, (round(x), round(y)), max(2, round(0.08 * size)), shade, 1, cv2.LINE_AA)
    return box


def render_lego(seed: int, face: str | None = None, *, size: tuple[int, int] = (640, 480), die_px: float = 70,
                noise: float = 4.0, blur: float = 0.8) -> tuple[np.ndarray, dict[str, Any]]:
    """One LEGO Dice on the box bottom, showing ``face`` (default: a random colour of the palette)."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = TABLE_BGR
    frame = finish_frame(frame, rng, 6.0, 0)
    names = list(LEGO_PALETTE)
    face = face or names[int(rng.integers(len(names)))]
    (cx, cy), = place_dice(rng, 1, die_px, (h, w))
    box = draw_lego(frame, cx, cy, die_px, float(rng.uniform(0, math.pi / 2)), face)
    return finish_frame(frame, rng, noise, blur), {"face": face, "box": box}

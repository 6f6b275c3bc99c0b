"""Coloured dice: bodies found by their contrast with the box bottom, colours named from a palette.

The shared toolkit of the games whose dice differ by colour (a game's reader in its package builds
on it). Thresholds and the palette are the ``[colour]`` table of ``calibration/pips.toml``
(:attr:`rig.vision.pips.PipParams.colour`); a die as read is a :class:`ColourDie`.

>>> frame = np.full((240, 320, 3), (95, 110, 120), np.uint8)
>>> _ = cv2.rectangle(frame, (100, 80), (140, 120), (40, 40, 200), -1)
>>> [(box, nearest_colour(frame[100, 120], PALETTE)[0]) for box, _mask in find_coloured_dice(frame)]
[((100, 80, 41, 41), 'red')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from rig.vision.pips import PipParams, check_frame

#: the ``[colour]`` thresholds when the file gives none
DEFAULTS = {"body_contrast": 40.0, "dot_min_area": 0.07, "min_die_area": 0.002, "max_die_area": 0.05,
            "dot_contrast": 45.0}
#: body and dot colours (BGR) when the file gives none: those the rendered dice are drawn in
PALETTE: Mapping[str, tuple[int, int, int]] = {
    "red": (40, 40, 200),
    "orange": (30, 130, 240),
    "yellow": (40, 210, 230),
    "green": (60, 160, 40),
    "blue": (190, 90, 30),
    "black": (35, 35, 35),
    "white": (235, 235, 235),
}
WHITE = "white"


@dataclass(frozen=True)
class ColourDie:
    """One die as read: colour, pips (or ``None``), dot colour (or ``None``), box, confidence."""

    color: str
    pips: int | None
    dot: str | None
    box: tuple[int, int, int, int]
    confidence: float
    reasons: tuple[str, ...] = ()
    x: float = 0.0  # centre, frame px (rig.vision.rolls votes readings by x, y and face)
    y: float = 0.0

    def __post_init__(self) -> None:
        if (self.x, self.y) == (0.0, 0.0) and self.box[2:] != (0, 0):
            bx, by, bw, bh = self.box
            object.__setattr__(self, "x", bx + bw / 2)
            object.__setattr__(self, "y", by + bh / 2)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def face(self) -> str:
        """What the die shows, as one string (``"green:4"``, ``"red:dot=blue"``)."""
        return str(self)

    def __str__(self) -> str:
        return f"{self.color}:{self.pips}" if self.pips is not None else f"{self.color}:dot={self.dot}"

    def to_rules(self) -> dict[str, Any]:
        """The die as a game's rules want it (``{"color", "pips"}`` or ``{"color", "dot"}``)."""
        return {"color": self.color, "pips": self.pips} if self.pips is not None else {"color": self.color, "dot": self.dot}

    def to_dict(self) -> dict[str, Any]:
        return {**self.to_rules(), "x": round(self.x, 1), "y": round(self.y, 1), "box": list(self.box),
                "confidence": round(self.confidence, 3),
                "reasons": list(self.reasons)}


def colour_settings(params: PipParams | None) -> tuple[dict[str, float], dict[str, tuple[int, int, int]]]:
    """The ``[colour]`` thresholds and palette of ``params`` (the defaults where it gives none)."""
    section = dict((params or PipParams()).colour)
    palette = {k: tuple(int(c) for c in v) for k, v in section.pop("colors", PALETTE).items()}
    return {**DEFAULTS, **section}, palette


def lab(bgr: np.ndarray) -> np.ndarray:
    """BGR colours (any shape ending in 3) → Lab rows (float32, one per colour)."""
    return cv2.cvtColor(np.asarray(bgr, np.uint8).reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)


def nearest_colour(bgr: Sequence[float], palette: Mapping[str, Sequence[int]],
                   exclude: Sequence[str] = ()) -> tuple[str, float]:
    """The palette colour nearest to ``bgr`` (Lab distance), and that distance.

    >>> nearest_colour((30, 40, 190), PALETTE)[0]
    'red'
    """
    names = [n for n in palette if n not in exclude]
    refs = lab(np.array([palette[n] for n in names]))
    d = np.linalg.norm(refs - lab(np.array([bgr]))[0], axis=1)
    i = int(d.argmin())
    return names[i], float(d[i])


def find_coloured_dice(frame: np.ndarray, params: PipParams | None = None
                       ) -> list[tuple[tuple[int, int, int, int], np.ndarray]]:
    """Die bodies differing from the table colour: (box, mask of the box) per die."""
    s, _ = colour_settings(params)
    frame_lab = cv2.cvtColor(cv2.GaussianBlur(check_frame(frame), (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    table = np.median(frame_lab.reshape(-1, 3), axis=0)
    mask = (np.linalg.norm(frame_lab - table, axis=2) > s["body_contrast"]).astype(np.uint8)
    h, w = mask.shape
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    found = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if not s["min_die_area"] * h * w <= area <= s["max_die_area"] * h * w:
            continue
        m = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(m)
        cv2.drawContours(filled, contours, -1, 1, -1)
        found.append(((x, y, bw, bh), filled))
    return sorted(found, key=lambda f: (f[0][1] // 40, f[0][0]))


def grey(bgr: Sequence[float]) -> float:
    """The brightness of a BGR colour (ITU-R 601 weights)."""
    b, g, r = bgr
    return 0.114 * b + 0.587 * g + 0.299 * r

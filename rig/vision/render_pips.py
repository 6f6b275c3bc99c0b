"""A small renderer of pip dice seen from above, for tests and benchmarks.

:func:`draw_die` draws one die (any body colour, pips or a colour dot) at a place, size and angle;
:func:`place_dice` scatters dice that do not touch; :func:`finish_frame` adds blur and noise. A game
renders its own throws with them (``rig/games/<name>/render.py``). :func:`render_pip_dice` draws
plain white dice with black pips. Renders return ``(frame_bgr, truth)``, reproducible from a seed.

>>> frame, truth = render_pip_dice(7)
>>> frame.shape, len(truth)
((480, 640, 3), 4)
>>> sorted(truth[0].to_dict())
['box', 'color', 'pips']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import cv2
import numpy as np

#: the box bottom the rendered dice lie on (BGR)
TABLE_BGR = (95, 110, 120)

# Pip positions on a unit face ([-1, 1] square), the usual layouts.
_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


@dataclass(frozen=True)
class RenderedDie:
    """The truth about one rendered die: body colour, pips or dot colour, box (x, y, w, h)."""

    color: str
    pips: int | None
    dot: str | None
    box: tuple[int, int, int, int]
    angle: float = 0.0

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2, y + h / 2)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"color": self.color, "box": list(self.box)}
        d.update({"pips": self.pips} if self.pips is not None else {"dot": self.dot})
        return d


def pip_colour(body_bgr: Sequence[int]) -> tuple[int, int, int]:
    """Pips contrast with the body: black on light bodies, white on dark ones."""
    b, g, r = body_bgr
    return (20, 20, 20) if 0.114 * b + 0.587 * g + 0.299 * r > 130 else (240, 240, 240)


def _corners(cx: float, cy: float, half: float, angle: float, u: float, v: float) -> tuple[float, float]:
    c, s = math.cos(angle), math.sin(angle)
    return (cx + half * (u * c - v * s), cy + half * (u * s + v * c))


def draw_die(frame: np.ndarray, cx: float, cy: float, size: float, angle: float, body: Sequence[int],
             *, pips: int | None = None, dot: Sequence[int] | None = None) -> tuple[int, int, int, int]:
    """Draw one die (top face) in place; return its bounding box."""
    half = size / 2
    # a rounded square: the square shrunk a little plus a circle at each corner
    r = 0.18 * size
    inner = half - r
    poly = np.array([_corners(cx, cy, half, angle, u, v) for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    shadow = (poly + np.array([0.06 * size, 0.08 * size])).round().astype(np.int32)
    cv2.fillConvexPoly(frame, shadow, tuple(int(0.6 * c) for c in TABLE_BGR), cv2.LINE_AA)
    for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = _corners(cx, cy, inner, angle, u, v)
        cv2.circle(frame, (round(x), round(y)), round(r), tuple(int(c) for c in body), -1, cv2.LINE_AA)
    for a, b in (((-1, -half / inner), (1, half / inner)), ((-half / inner, -1), (half / inner, 1))):
        pts = np.array([_corners(cx, cy, inner, angle, u, v)
                        for u, v in ((a[0], a[1]), (b[0], a[1]), (b[0], b[1]), (a[0], b[1]))])
        cv2.fillConvexPoly(frame, pts.round().astype(np.int32), tuple(int(c) for c in body), cv2.LINE_AA)
    if pips is not None:
        colour = pip_colour(body)
        for u, v in _LAYOUT[pips]:
            x, y = _corners(cx, cy, 0.27 * size, angle, u, v)
            cv2.circle(frame, (round(x), round(y)), max(2, round(0.09 * size)), colour, -1, cv2.LINE_AA)
    if dot is not None:
        cv2.circle(frame, (round(cx), round(cy)), round(0.2 * size), tuple(int(c) for c in dot), -1, cv2.LINE_AA)
    xs, ys = poly[:, 0], poly[:, 1]
    x0, y0 = int(math.floor(xs.min())), int(math.floor(ys.min()))
    return (x0, y0, int(math.ceil(xs.max())) - x0, int(math.ceil(ys.max())) - y0)


def place_dice(rng: np.random.Generator, n: int, size: float, shape: tuple[int, int]) -> list[tuple[float, float]]:
    h, w = shape
    spots: list[tuple[float, float]] = []
    limit = 1.6 * size
    for _ in range(5000):
        if len(spots) == n:
            break
        x = rng.uniform(size, w - size)
        y = rng.uniform(size, h - size)
        if all(math.hypot(x - a, y - b) > limit for a, b in spots):
            spots.append((x, y))
    if len(spots) < n:
        raise ValueError(f"cannot place {n} dice of {size:.0f} px in {w}x{h}")
    return spots


def finish_frame(frame: np.ndarray, rng: np.random.Generator, noise: float, blur: float) -> np.ndarray:
    if blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    if noise > 0:
        frame = np.clip(frame.astype(np.float32) + rng.normal(0, noise, frame.shape), 0, 255).astype(np.uint8)
    return frame


def render_pip_dice(seed: int, *, size: tuple[int, int] = (640, 480), n: int = 4, die_px: float = 50,
                    noise: float = 5.0, blur: float = 1.0) -> tuple[np.ndarray, tuple[RenderedDie, ...]]:
    """White dice with black pips on a wooden-looking table (like the real photographs)."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = (150, 180, 200)
    stripes = (np.sin(np.arange(h) / 3.0 + rng.uniform(0, 6)) * 8).astype(np.int16)
    frame = np.clip(frame.astype(np.int16) + stripes[:, None, None], 0, 255).astype(np.uint8)
    truth = []
    for cx, cy in place_dice(rng, n, die_px, (h, w)):
        pips = int(rng.integers(1, 7))
        angle = float(rng.uniform(0, math.pi / 2))
        box = draw_die(frame, cx, cy, die_px * float(rng.uniform(0.85, 1.15)), angle, (225, 232, 238), pips=pips)
        truth.append(RenderedDie("white", pips, None, box, angle))
    return finish_frame(frame, rng, noise, blur), tuple(truth)

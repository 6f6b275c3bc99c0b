"""A rendered Banana Moon start roll, for tests, benchmarks and the doctests of its reader."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from rig.vision.render_pips import TABLE_BGR, draw_die, finish_frame, place_dice


def render_start_roll(seed: int, *, size: tuple[int, int] = (640, 480), die_px: float = 60,
                      white: int | None = None, black: int | None = None, noise: float = 4.0,
                      blur: float = 0.8) -> tuple[np.ndarray, dict[str, Any]]:
    """The Banana Moon start roll: a dark die with white pips and a light die with black pips."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = TABLE_BGR
    values = {"white": white or int(rng.integers(1, 7)), "black": black or int(rng.integers(1, 7))}
    bodies = {"white": (45, 40, 40), "black": (225, 232, 238)}  # pip_colour() picks the contrast
    truth: dict[str, Any] = dict(values)
    for kind, (cx, cy) in zip(("white", "black"), place_dice(rng, 2, die_px, (h, w))):
        truth[f"{kind}_box"] = draw_die(frame, cx, cy, die_px, float(rng.uniform(0, math.pi / 2)),
                                        bodies[kind], pips=values[kind])
    return finish_frame(frame, rng, noise, blur), truth

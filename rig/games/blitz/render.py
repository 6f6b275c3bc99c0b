"""A rendered Würfelblitz throw, for tests, benchmarks and the doctests of its reader.

>>> frame, truth = render_blitz(7)
>>> frame.shape, len(truth)
((480, 640, 3), 8)
>>> sorted(truth[0].to_dict())
['box', 'color', 'pips']
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from rig.vision.coloured import PALETTE
from rig.vision.render_pips import TABLE_BGR, RenderedDie, draw_die, finish_frame, place_dice

#: the six coloured dice of a throw (the others are white)
COLOURED = ("red", "orange", "yellow", "green", "blue", "black")


def render_blitz(seed: int, *, size: tuple[int, int] = (640, 480), die_px: float = 56,
                 white_dice: int = 2, palette: Mapping[str, Sequence[int]] = PALETTE,
                 dot_chance: float = 1 / 6, noise: float = 4.0, blur: float = 0.8
                 ) -> tuple[np.ndarray, tuple[RenderedDie, ...]]:
    """A Würfelblitz throw: six coloured dice (pips, or their colour dot) and white dot dice."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = TABLE_BGR
    frame = finish_frame(frame, rng, 6.0, 0)  # the box bottom is not perfectly flat in colour
    n = len(COLOURED) + white_dice
    spots = place_dice(rng, n, die_px, (h, w))
    truth = []
    for i, (cx, cy) in enumerate(spots):
        colour = COLOURED[i] if i < len(COLOURED) else "white"
        others = [c for c in COLOURED if c != colour]
        if colour == "white" or rng.random() < dot_chance:
            pips, dot = None, others[int(rng.integers(len(others)))]
        else:
            pips, dot = int(rng.integers(1, 7)), None
        angle = float(rng.uniform(0, math.pi / 2))
        s = die_px * float(rng.uniform(0.92, 1.08))
        box = draw_die(frame, cx, cy, s, angle, palette[colour], pips=pips,
                       dot=None if dot is None else palette[dot])
        truth.append(RenderedDie(colour, pips, dot, box, angle))
    return finish_frame(frame, rng, noise, blur), tuple(truth)

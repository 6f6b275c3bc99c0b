"""Issue 24, round 23: the side-face check's strips read from one window a die, the shade lift's take by one look-up
of a pixel's two classes: the same numbers as before.

The corpus check (every reading of 256 frames the same before and after, the empty box's picture kept) is
``scripts/speed_corpus.py`` on ``~/.cache/rig/speed/corpus22``."""

import cv2
import numpy as np

from rig.vision.dice_lampside import _ONES, DARK, dark_shares, strips


def _round22_shares(frame, empty, box, side):
    """Round 22's dark_shares: each strip transformed, compared and counted on its own."""
    out = {}
    for name, (y0, y1, x0, x1) in strips(box, side, frame.shape[:2]).items():
        least = DARK * empty[y0:y1, x0:x1]
        lum = cv2.transform(frame[y0:y1, x0:x1].astype(least.dtype), _ONES.astype(least.dtype, copy=False))
        out[name] = cv2.countNonZero(cv2.compare(lum, least, cv2.CMP_LT)) / ((y1 - y0) * (x1 - x0))
    return out


def test_dark_shares_from_one_window_are_round_22s():
    rng = np.random.default_rng(23)
    for trial in range(30):
        frame = rng.integers(0, 256, (90, 120, 3), dtype=np.uint8)
        lum = frame.astype(np.float32).sum(axis=2)
        # ties (the empty box's lightness exactly where the frame's is DARK of it) on odd trials
        empty = (lum / np.float32(DARK)) if trial % 2 else (rng.random((90, 120)) * 765).astype(np.float32)
        for _ in range(30):  # boxes in the open, at the corners (one or two strips left) and beyond the frame
            box = (
                int(rng.integers(-30, 125)),
                int(rng.integers(-30, 95)),
                int(rng.integers(1, 40)),
                int(rng.integers(1, 40)),
            )
            side = float(rng.uniform(4, 40))
            assert dark_shares(frame, empty, box, side) == _round22_shares(frame, empty, box, side)


def test_dark_shares_without_a_strip_in_the_frame():
    frame = np.zeros((40, 40, 3), np.uint8)
    assert dark_shares(frame, np.ones((40, 40), np.float32), (60, 60, 10, 10), 10.0) == {}


def test_lift_shades_take_by_look_up_is_round_22s_formula_for_every_class_pair():
    from rig.vision.dice_frames import _LIFT_FLOOR, _LIFT_TOP
    from rig.vision.pixel_classes import BG, BLOWN, BLUE, BODY, CLASS_NAMES, IS_TOP, PINK, YELLOW

    n = len(CLASS_NAMES)
    was, seen = (a.astype(np.uint8).ravel() for a in np.meshgrid(np.arange(n), np.arange(n), indexing="ij"))
    for new_top in (False, True):
        for standing in (False, True):
            for shaded in (False, True):
                top = IS_TOP[was] > 0  # round 22's _lift_shade, per pixel
                frog = ((seen == BLUE) | (seen == PINK) | (seen == YELLOW)) & new_top
                old = shaded & (was != BLOWN) & ~standing & ((~top & (new_top | (seen == BG))) | ((was == BODY) & frog))
                pair = (was << 4) | seen
                new = shaded & ~standing & ((_LIFT_FLOOR[pair] > 0) | (new_top & (_LIFT_TOP[pair] > 0)))
                assert (new == old).all()

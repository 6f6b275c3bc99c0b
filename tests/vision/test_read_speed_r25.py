"""Round 25's speed steps give round 24's numbers (issue 24): the same distances, the same shares."""

from __future__ import annotations

import cv2
import numpy as np


def _round24_distances(frame, empty_ab, rect, body_ab):
    """Round 24's body_share / band_ends distances: np.linalg.norm over the (a, b) axis."""
    y0, y1, x0, x1 = rect
    ab = cv2.cvtColor(np.ascontiguousarray(frame[y0:y1, x0:x1]), cv2.COLOR_BGR2Lab)[..., 1:].astype(np.float32)
    to_empty = np.linalg.norm(ab - empty_ab[y0:y1, x0:x1], axis=2)
    return to_empty, np.min([np.linalg.norm(ab - c, axis=2) for c in body_ab], axis=0)


def test_wallside_distances_are_round_24s():
    from rig.vision.dice_wallside import _distances

    rng = np.random.default_rng(24)
    for trial in range(80):
        h, w = int(rng.integers(30, 120)), int(rng.integers(30, 120))
        frame = rng.integers(0, 256, (h, w, 3), np.uint8)
        empty_ab = rng.uniform(80, 180, (h, w, 2)).astype(np.float32)
        if trial % 2:
            empty_ab = np.rint(empty_ab)  # (whole numbers, as the empty box's Lab: ties with the body's)
        body_ab = rng.uniform(100, 170, (int(rng.integers(1, 4)), 2)).astype(np.float32 if trial % 3 else np.float64)
        y0, x0 = int(rng.integers(0, h - 2)), int(rng.integers(0, w - 2))
        rect = (y0, int(rng.integers(y0 + 2, h + 1)), x0, int(rng.integers(x0 + 2, w + 1)))
        got, want = _distances(frame, empty_ab, rect, body_ab), _round24_distances(frame, empty_ab, rect, body_ab)
        for a, b in zip(got, want, strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)


def test_dark_shares_with_the_least_made_once_are_the_same():
    from rig.vision.dice_lampside import DARK, dark_least, dark_shares, empty_lightness

    rng = np.random.default_rng(7)
    empty_lab = rng.integers(0, 256, (60, 80, 3), np.uint8)
    shape = (120, 160)
    empty = empty_lightness(empty_lab, shape)
    least = dark_least(empty)
    assert dark_least(empty) is least and np.array_equal(least, DARK * empty)
    assert dark_least(empty.copy()) is not least  # (another map: made again)
    least = dark_least(empty)
    frame = rng.integers(0, 120, (*shape, 3), np.uint8)
    for _ in range(200):
        side = float(rng.uniform(6, 30))
        box = (
            int(rng.integers(-10, 160)),
            int(rng.integers(-10, 120)),
            int(rng.integers(2, 40)),
            int(rng.integers(2, 40)),
        )
        assert dark_shares(frame, empty, box, side, least) == dark_shares(frame, empty, box, side)

"""Issue 24, round 24: read_dice's per-die and per-frame steps made cheaper give the same numbers as before.

The corpus check (every reading of 256 frames the same before and after, the empty box's picture kept) is
``scripts/speed_corpus.py`` on ``~/.cache/rig/speed/corpus22``."""

from types import SimpleNamespace

import cv2
import numpy as np

from rig.vision.dice import _crop
from rig.vision.dice_overall import _column_medians, overall_gain


def _round23_crop(poly, x0, y0, work):
    """Round 23's _crop: the points' full-resolution places as floats, rounded by numpy."""
    f = work.factor
    pts = (poly.reshape(-1, 2) + (x0, y0)) * f + (f - 1) / 2
    x, y, w, h = cv2.boundingRect(poly)
    H, W = work.frame.shape[:2]
    X0, Y0 = max(0, (x + x0) * f + (f - 1) // 2), max(0, (y + y0) * f + (f - 1) // 2)
    X1, Y1 = min(W, (x + w - 1 + x0) * f + f // 2 + 1), min(H, (y + h - 1 + y0) * f + f // 2 + 1)
    if X1 - X0 < 4 or Y1 - Y0 < 4:
        return None
    mask = np.zeros((Y1 - Y0, X1 - X0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(pts - (X0, Y0)).astype(np.int32), 1)
    return X0, Y0, X1, Y1, mask


def test_crop_in_whole_numbers_is_round_23s():
    """Every factor 1-4 (an even one puts a working pixel's centre half-way between full-resolution ones), tops
    in the open, at the frame's edges and beyond them, tiny ones (None): the same box and mask."""
    rng = np.random.default_rng(24)
    for f in (1, 2, 3, 4):
        work = SimpleNamespace(factor=f, frame=np.zeros((480, 640, 3), np.uint8))
        for _ in range(300):
            centre = rng.uniform(-10, 650 / f, 2)
            radius = rng.uniform(0.5, 30)
            angles = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(3, 12))))
            pts = centre + radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)
            poly = cv2.convexHull(np.round(pts).astype(np.int32)).reshape(-1, 2)
            x0, y0 = rng.integers(-20, 60, 2)  # numpy ints on odd draws (int64 offsets), Python ints on even ones
            x0, y0 = (x0, y0) if len(pts) % 2 else (int(x0), int(y0))
            got, want = _crop(poly, x0, y0, work), _round23_crop(poly, x0, y0, work)
            assert (got is None) == (want is None)
            if got is not None:
                assert got[:4] == want[:4] and np.array_equal(got[4], want[4])


def test_the_views_median_correction_from_one_copy_is_numpys_median():
    """The gain's every fourth pixel copied once into its channels' rows: np.median's numbers (an odd and an even
    count of points, ties, float32 and float64), as round 23's n x 3 copy gave them."""
    rng = np.random.default_rng(24)
    for h, w in ((240, 320), (120, 160), (9, 13), (4, 4), (1, 1), (5, 8)):
        for dtype in (np.float32, np.float64):
            grid = (rng.random((12, 16, 3)) + 0.5).astype(dtype)
            gain = cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR)
            gain[rng.random(gain.shape) < 0.2] = 1.0  # ties
            points = gain[::4, ::4].reshape(-1, 3)
            want = np.median(points, axis=0)
            for got in (overall_gain(gain), _column_medians(gain[::4, ::4]), _column_medians(points)):
                assert got.dtype == want.dtype and np.array_equal(got, want)

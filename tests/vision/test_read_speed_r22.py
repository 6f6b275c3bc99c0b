"""Issue 24, round 22: the side-face check's strips counted by OpenCV, the same shares as before.

The corpus check (every reading of 256 frames the same before and after, the empty box's picture kept) is
``scripts/speed_corpus.py`` on ``~/.cache/rig/speed/corpus22``."""

import numpy as np

from rig.vision.dice_lampside import DARK, dark_shares, strips
from rig.vision.light import sum3


def _round21_shares(frame, empty, box, side):
    """Round 21's dark_shares: B + G + R by light.sum3 in float32, np.mean of the comparison."""
    out = {}
    for name, (y0, y1, x0, x1) in strips(box, side, frame.shape[:2]).items():
        lum = sum3(frame[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)).reshape(y1 - y0, x1 - x0)
        out[name] = float(np.mean(lum < DARK * empty[y0:y1, x0:x1]))
    return out


def test_dark_shares_are_round_21s_on_seeded_frames_with_ties():
    rng = np.random.default_rng(22)
    for trial in range(40):
        frame = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
        lum = frame.astype(np.float32).sum(axis=2)
        if trial % 2:  # ties: the empty box's lightness exactly where the frame's is DARK of it
            empty = (lum / np.float32(DARK)).astype(np.float32)
        else:
            empty = (rng.random((120, 160)) * 765).astype(np.float32)
        for _ in range(20):
            box = (
                int(rng.integers(-5, 150)),
                int(rng.integers(-5, 110)),
                int(rng.integers(1, 40)),
                int(rng.integers(1, 40)),
            )
            side = float(rng.uniform(4, 40))
            assert dark_shares(frame, empty, box, side) == _round21_shares(frame, empty, box, side)
            wide = empty.astype(np.float64)  # (a float64 lightness compared in float64, as numpy did)
            assert dark_shares(frame, wide, box, side) == _round21_shares(frame, wide, box, side)

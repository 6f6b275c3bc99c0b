"""read_dice made faster with the same readings (issue 24, round 17).

The corpus check (every reading of 256 frames the same before and after) is ``scripts/speed_corpus.py``.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rig.vision import dice
from rig.vision.colour_table import colour_lut
from rig.vision.dice_frames import label_pixels
from rig.vision.pixel_classes import _IS_ODD, CLASS_NAMES, CLIPPED, UNKNOWN
from tests.vision.dice_references import crop_before_round_17
from tests.vision.dice_twin import frame_and_profile

#: committed twin frames (seen): dice read at full resolution, in their place's light and in the frame's overall one
FRAMES = [("t8002r9-turn2-warm.jpg", "t8002r9"), ("t8105-turn2-warm.jpg", "t8105"), ("t8303-turn1.jpg", "t8303"),
          ("t9711-turn3-bright.jpg", "t9711"), ("t8710-turn1.jpg", "t8710"), ("t101-turn1.jpg", "t101")]


def _full_counts_before(crop, centre, work, t, gain=None):
    """Round 16's ``dice._full_counts`` (the reference): the band found by a float blur, two counts."""
    if crop is None:
        return None
    f = work.factor
    X0, Y0, X1, Y1, mask = crop
    gh, gw = work.gain.shape[:2]
    g = work.gain[min(gh - 1, max(0, int(centre[1]))), min(gw - 1, max(0, int(centre[0])))] if gain is None else gain
    crop = cv2.multiply(work.frame[Y0:Y1, X0:X1], tuple(float(v) for v in g) + (0.0,), dtype=cv2.CV_8U)
    labels = label_pixels(crop, work.lut if work.lut is not None else colour_lut(work.profile))
    odd = cv2.LUT(labels, _IS_ODD) & mask
    k = max(5, int(round(0.09 * work.side * f)) | 1)
    dense = cv2.blur(odd.astype(np.float32), (k, k)) > 0.5
    thin = (odd > 0) & ~dense
    counts = np.bincount(labels[mask > 0], minlength=len(CLASS_NAMES))
    band = np.bincount(labels[thin], minlength=len(CLASS_NAMES))
    for cls in (UNKNOWN, CLIPPED):
        counts[cls] = max(0, counts[cls] - int(band[cls]))
    n = int(counts.sum())
    return (counts, n, labels, mask) if n >= 16 else None


def _same_counts(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return np.array_equal(a[0], b[0]) and a[1] == b[1] and np.array_equal(a[2], b[2]) and a[3] is b[3]


@pytest.fixture(scope="module")
def counted():
    """Every ``_full_counts`` call reading the committed frames makes (a die's place's light, or the overall gain)."""
    calls = []
    real = dice._full_counts

    def spy(*a, **k):
        calls.append((a, k))
        return real(*a, **k)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dice, "_full_counts", spy)
        for jpg, table in FRAMES:
            dice.read_dice(*frame_and_profile(jpg, table), thrown=6)
    return calls


def test_a_tops_counts_at_full_resolution_are_as_round_16s(counted):
    overall = sum(1 for _, k in counted if k.get("gain") is not None)
    assert len(counted) >= 20 and overall >= 3
    for a, k in counted:
        assert _same_counts(dice._full_counts(*a, **k), _full_counts_before(*a, **k))


def test_the_frogs_outline_band_is_counted_whole_not_blurred_in_floats(monkeypatch, counted):
    def boom(*a, **k):
        raise AssertionError("a float blur")

    monkeypatch.setattr(cv2, "blur", boom)
    for a, k in counted:
        dice._full_counts(*a, **k)


def test_the_band_counted_whole_is_the_float_blurs_on_random_tops():
    # a window is dense where more than half of it is odd: the float blur's mean > 0.5 is the count > k * k // 2
    rng = np.random.default_rng(17)
    for _ in range(300):
        h, w = (int(v) for v in rng.integers(4, 60, 2))
        k = int(rng.choice([5, 7, 9, 11]))
        odd = (rng.random((h, w)) < rng.random()).astype(np.uint8)
        dense = cv2.blur(odd.astype(np.float32), (k, k)) > 0.5
        whole = cv2.compare(cv2.boxFilter(odd, cv2.CV_16U, (k, k), normalize=False), k * k // 2, cv2.CMP_LE) & odd
        assert np.array_equal(whole > 0, (odd > 0) & ~dense)


def test_a_tops_full_resolution_box_is_as_round_16s(monkeypatch):
    # the box from the working-scale polygon's whole-number bounds (no float points floored and ceiled), every shrink
    # factor, at and past the frame's edges
    from types import SimpleNamespace

    def boom(*a, **k):
        raise AssertionError("the points' floats floored")

    rng = np.random.default_rng(171)
    for _ in range(500):
        f = int(rng.integers(1, 6))
        work = SimpleNamespace(factor=f, frame=np.zeros((int(rng.integers(40, 200)), int(rng.integers(40, 200)), 3), np.uint8))
        poly = rng.integers(-3, 30, (int(rng.integers(3, 9)), 1, 2)).astype(np.int32)
        x0, y0 = (int(v) for v in rng.integers(-5, 50, 2))
        want = crop_before_round_17(poly, x0, y0, work)
        with monkeypatch.context() as mp:
            mp.setattr(np, "floor", boom)
            got = dice._crop(poly, x0, y0, work)
        assert (got is None) == (want is None)
        if got is not None:
            assert tuple(int(v) for v in got[:4]) == tuple(int(v) for v in want[:4]) and np.array_equal(got[4], want[4])

"""read_dice made faster with the same readings (issue 24, round 21).

The corpus check (every reading of 256 frames the same before and after) is ``scripts/speed_corpus.py``; here each
changed function against round 20's (kept below as the reference) on the committed twin frames and seeded inputs.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rig.vision import dice, dice_frames, light
from rig.vision.dice_frames import _LEVELS, _censored, _times, prepare
from rig.vision.light import LIGHT_BASIS, _PLANE, Light, _commonest, _median0, fit_surface, max3, sum3
from tests.vision.dice_twin import frame_and_profile

#: committed twin frames (seen): t8603, t8303 and t10004 reach no censor level at the working scale, t101 no clip level
FRAMES = [("t10009-turn2.jpg", "t10009"), ("t10106-turn3.jpg", "t10106"), ("t8603-turn0.jpg", "t8603"),
          ("t8710-turn1.jpg", "t8710"), ("t8800-turn1.jpg", "t8800"), ("t8303-turn1.jpg", "t8303"),
          ("t101-turn1.jpg", "t101"), ("t10004-turn1.jpg", "t10004"), ("t8002r9-turn2-warm.jpg", "t8002r9"),
          ("t10205-turn1.jpg", "t10205")]


def _measure_before(small, model, covered=None):
    """Round 20's ``light.measure`` (the reference)."""
    here = cv2.resize(small, (16, 12), interpolation=cv2.INTER_AREA).astype(np.float32).reshape(-1, 3) + 1.0
    ratio = here / model.floor
    grey = sum3(ratio) / 3
    bare = model.mask
    if covered is not None:
        free = ~covered.ravel()
        if (bare & free).sum() >= 12:
            bare = bare & free
        elif free.sum() >= 24:
            bare = free
    keep = bare.copy()
    log_ratio = np.log(ratio)
    floor_cells = log_ratio[keep]
    centre = (_commonest(np.floor(floor_cells / 0.12).astype(np.int32)) + 0.5) * 0.12
    group = floor_cells[max3(np.abs(floor_cells - centre)) <= 0.15]
    typical = max3(np.abs(log_ratio - _median0(group))) <= 0.22
    if (keep & typical).sum() >= 12:
        keep &= typical
    start = keep.copy()
    fit = fitted_on = None
    for _ in range(4):
        if keep.sum() < 12:
            break
        surface, fitted_on = fit_surface(grey, keep, _PLANE if keep.sum() < 40 else LIGHT_BASIS), keep
        fit = np.maximum(surface, 1e-3)
        shift = _median0(ratio[keep] / fit[keep, None])
        off = max3(np.abs(ratio / (fit[:, None] * shift) - 1))
        new = bare & (off <= 0.08)
        if (new == keep).all():
            break
        keep = new
    seen = float(keep.sum()) / max(1, int(model.mask.sum()))
    if keep.sum() < 12:
        keep = start
    basis = _PLANE if keep.sum() < 40 else LIGHT_BASIS
    level = np.clip(surface if keep is fitted_on else fit_surface(grey, keep, basis), 0.2, 5.0)
    colour = _median0(ratio[keep] / level[keep, None])
    change = level[:, None] * colour[None, :]
    med = _median0(ratio[keep])
    return Light(float(np.exp(np.log(np.maximum(med, 1e-3)).mean())), float(med[2] / max(med[0], 1e-3)), seen,
                 tuple(round(float(v), 4) for v in med)), change


def _censored_before(small, glare, level):
    hot = cv2.compare(small, (level,) * 3, cv2.CMP_GE) & cv2.compare(glare, (4,) * 3, cv2.CMP_GE)
    return cv2.transform(hot, np.array([[1, 2, 4]], np.float32) / 255)


def _times_before(image, channels):
    return cv2.LUT(image, cv2.multiply(_LEVELS, tuple(channels) + (0.0,), dtype=cv2.CV_8U))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def test_cells_are_the_area_resize_on_seeded_images():
    rng = np.random.default_rng(21)
    for k in range(1500):
        bh, bw = int(rng.integers(1, 42)), int(rng.integers(1, 42))
        h, w = 12 * bh + (k % 5 == 0) * int(rng.integers(1, 12)), 16 * bw  # a fifth not of whole cells
        lo, span = int(rng.integers(0, 250)), int(rng.choice([2, 3, 4, 256]))  # few levels: many halves to round
        img = np.clip(rng.integers(lo, lo + span, (h, w, 3)), 0, 255).astype(np.uint8)
        assert _same(light.cells(img), cv2.resize(img, (16, 12), interpolation=cv2.INTER_AREA).astype(np.float32))
    img = rng.integers(0, 256, (24, 32, 3), dtype=np.uint8)  # 2 x 2 cells: OpenCV's halving rounds a half up
    assert _same(light.cells(img), cv2.resize(img, (16, 12), interpolation=cv2.INTER_AREA).astype(np.float32))


def test_cells_of_a_working_frame_take_no_resize(monkeypatch):
    img = np.random.default_rng(1).integers(0, 256, (240, 320, 3), dtype=np.uint8)
    want = cv2.resize(img, (16, 12), interpolation=cv2.INTER_AREA).astype(np.float32)
    monkeypatch.setattr(cv2, "resize", lambda *a, **k: pytest.fail("resized"))
    assert _same(light.cells(img), want)


@pytest.fixture(scope="module")
def measure_calls():
    """Every ``measure`` call reading the committed frames makes, its arguments as they were."""
    calls = []
    real = dice_frames.measure

    def spy(small, model, covered=None):
        calls.append((small.copy(), model, covered))
        return real(small, model, covered)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dice_frames, "measure", spy)
        for jpg, table in FRAMES:
            dice.read_dice(*frame_and_profile(jpg, table), thrown=6)
    return calls


def test_measure_is_round_20s(measure_calls):
    rng = np.random.default_rng(2)
    assert len(measure_calls) >= len(FRAMES)
    for small, model, covered in measure_calls:
        noisy = np.clip(small.astype(np.int16) + rng.integers(-40, 40, small.shape), 0, 255).astype(np.uint8)
        for img, cov in ((small, covered), (noisy, None), (small, rng.random((12, 16)) < 0.5),
                         (noisy, rng.random((12, 16)) < 0.9)):
            (a, ca), (b, cb) = light.measure(img, model, cov), _measure_before(img, model, cov)
            assert (a.exposure, a.warm, a.floor_seen, a.channels) == (b.exposure, b.warm, b.floor_seen, b.channels)
            assert type(a.floor_seen) is float and type(a.exposure) is float
            assert _same(ca, cb)


def test_censored_bits_are_round_20s_and_unclipped_frames_take_no_pass(monkeypatch):
    rng = np.random.default_rng(3)
    for k in range(1500):
        h, w = int(rng.integers(1, 50)), int(rng.integers(1, 50))
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8) // (1 + k % 2)
        glare = rng.integers(0, 9, (h, w, 3), dtype=np.uint8)
        level = int(rng.integers(200, 256))
        assert _same(_censored(img, glare, level), _censored_before(img, glare, level))
    img, glare = rng.integers(0, 244, (240, 320, 3), dtype=np.uint8), rng.integers(0, 9, (240, 320, 3), dtype=np.uint8)
    want = _censored_before(img, glare, 244)
    monkeypatch.setattr(cv2, "transform", lambda *a, **k: pytest.fail("bits transformed"))
    assert _same(_censored(img, glare, 244), want)


def test_glare_in_the_frames_light_is_round_20s_without_a_three_channel_table(monkeypatch):
    rng = np.random.default_rng(4)
    cases = [(rng.integers(0, 256, (int(rng.integers(1, 60)), int(rng.integers(1, 60)), 3), dtype=np.uint8),
              tuple(float(v) for v in rng.uniform(0.3, 2.5, 3))) for _ in range(500)]
    want = [_times_before(img, ch) for img, ch in cases]
    real, tables = cv2.LUT, []

    def spy(src, table, *a, **k):
        tables.append(np.asarray(table).shape)
        return real(src, table, *a, **k)

    monkeypatch.setattr(cv2, "LUT", spy)
    for (img, ch), w in zip(cases, want):
        assert _same(_times(img, ch), w)
        assert _same(_times(img, ch), cv2.multiply(img, ch + (0.0,), dtype=cv2.CV_8U))
    assert tables and all(len(s) < 3 or s[-1] == 1 for s in tables)  # one-channel tables only


def _inranged_3ch(monkeypatch):
    real, seen = cv2.inRange, []

    def spy(src, lo, hi, *a, **k):
        seen.append(np.asarray(src).shape)
        return real(src, lo, hi, *a, **k)

    monkeypatch.setattr(cv2, "inRange", spy)
    return seen


@pytest.mark.parametrize("jpg,table", FRAMES)
def test_prepare_marks_the_same_blown_pixels(monkeypatch, jpg, table):
    frame, profile = frame_and_profile(jpg, table)
    prepare(frame, profile)  # the profile's maps made
    seen = _inranged_3ch(monkeypatch)
    work = prepare(frame, profile)
    f = work.factor
    brightest = int(cv2.resize(frame, (frame.shape[1] // f, frame.shape[0] // f), interpolation=cv2.INTER_AREA).max())
    if brightest < profile.thresholds.clip_level:  # no channel that bright: no blown mask made
        assert not [s for s in seen if s[:2] == work.labels.shape]
    real = cv2.minMaxLoc
    monkeypatch.setattr(cv2, "minMaxLoc", lambda a, *r: (*real(a, *r)[:1], 255.0, *real(a, *r)[2:]))
    every = prepare(frame, profile)  # the mask made on every frame, as round 20 made it
    assert _same(work.labels, every.labels) and _same(work.small, every.small) and _same(work.gain, every.gain)

"""read_dice made faster without changing a reading (issue 24, round 10): each faster way against the way it replaced.

The corpus check (every reading of 128 virtual and 192 twin frames the same before and after) is
``scripts/speed_corpus.py``; these tests keep the pieces honest where CI can run them.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rig.vision import colour_table, dice_frames, light
from rig.vision.dice_cocked import _steps
from rig.vision.pixel_classes import BG, BLOWN, BLUE, BODY, IS_TOP, PINK, YELLOW, _K3
from tests.vision.dice_twin import frame_and_profile


def test_the_commonest_row_is_uniques_first_commonest_row():
    rng = np.random.default_rng(24)
    for spread in (1, 3, 30, 200):  # narrow spans are counted with bincount, wide ones with unique
        for _ in range(200):
            rows = rng.integers(-spread, spread + 1, (int(rng.integers(1, 190)), 3)).astype(np.int32)
            bins, counts = np.unique(rows, axis=0, return_counts=True)
            assert np.array_equal(light._commonest(rows), bins[int(np.argmax(counts))])


def test_the_grid_helpers_give_numpys_numbers():
    rng = np.random.default_rng(10)
    for n in (1, 2, 3, 12, 151, 192):
        for dtype in (np.float32, np.float64):
            a = (rng.random((n, 3)) * 5 + 0.01).astype(dtype)
            a[rng.random((n, 3)) < 0.2] = 1.0  # ties
            assert np.array_equal(light._median0(a), np.median(a, axis=0))
            assert light._median0(a).dtype == np.median(a, axis=0).dtype
            assert np.array_equal(light.sum3(a), a.sum(axis=1)) and np.array_equal(light.sum3(a) / 3, a.mean(axis=1))
            assert np.array_equal(light.max3(a), a.max(axis=1))


def test_the_offsets_around_a_die_are_ogrids():
    rng = np.random.default_rng(5)
    for _ in range(500):
        y0, n, c = int(rng.integers(0, 300)), int(rng.integers(1, 60)), float(rng.random() * 300)
        x0, m, d = int(rng.integers(0, 300)), int(rng.integers(1, 60)), float(rng.random() * 300)
        yy, xx = np.ogrid[y0 - c : y0 + n - c, x0 - d : x0 + m - d]  # as _around made them
        assert np.array_equal(_steps(y0 - c, y0 + n - c)[:, None], yy)
        assert np.array_equal(_steps(x0 - d, x0 + m - d)[None, :], xx)


def test_grana_finds_the_components_the_default_finds():
    rng = np.random.default_rng(7)
    for _ in range(150):
        h, w = int(rng.integers(1, 120)), int(rng.integers(1, 160))
        mask = (rng.random((h, w)) < rng.choice([0.05, 0.3, 0.6, 0.9])).astype(np.uint8) * 255
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
        want = cv2.connectedComponentsWithStats(mask, connectivity=8)
        got = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
        assert want[0] == got[0] and np.array_equal(want[1], got[1]) and np.array_equal(want[2], got[2])
        assert np.array_equal(want[3], got[3], equal_nan=True)  # (a mask with no background: its centre is NaN)


def test_only_the_unbuilt_patterns_a_frame_meets_are_built():
    censored = np.zeros((40, 50), np.uint8)
    censored[3, 4], censored[10, 10], censored[20, 30] = 2, 5, 5
    assert dice_frames._met(censored, [True] * 8) == []
    assert dice_frames._met(censored, [True, False, False, True, True, False, True, True]) == [2, 5]
    assert dice_frames._met(np.zeros((40, 50), np.uint8), [True] + [False] * 7) == []
    assert dice_frames._met(censored[censored > 0], [True] * 2 + [False] * 6) == [2, 5]  # a 1-D pick too
    assert dice_frames._met(censored[:0], [True] + [False] * 7) == []


def _prepare_as_before(frame, profile):
    """prepare() as it was before round 10: the light corrected twice when it had changed, the censored
    channels marked twice, the lifted shade's pixels picked out one by one."""
    t = profile.thresholds
    die_px = profile.die_side * frame.shape[1]
    f = 1 << max(0, int(round(np.log2(max(1.0, die_px / t.work_die_px)))))
    small = raw = dice_frames.shrink(frame, f)
    glare = dice_frames.glare_for(profile, small.shape[:2])
    blown = cv2.inRange(small, (t.clip_level,) * 3, (255, 255, 255)) & cv2.inRange(glare, (12,) * 3, (255,) * 3)
    censored = dice_frames._censored(small, glare, t.censor_level)
    model = light.floor_model(profile)
    small, seen, gain = light.correct(cv2.subtract(small, glare), model)
    if seen.changed:
        scaled = cv2.multiply(glare, seen.channels + (0.0,), dtype=cv2.CV_8U)
        censored = dice_frames._censored(raw, scaled, t.censor_level)
        small, seen, gain = light.correct(cv2.subtract(raw, scaled), model)
    lut = colour_table.colour_lut(profile)
    labels = dice_frames.label_pixels(small, lut, censored)
    deep = None
    lift = light.shade_gain(profile, small.shape[:2])
    if lift is not None and dice_frames._shade_patch(lift) is not None:
        (y0, y1, x0, x1), up, shaded, deeper = dice_frames._shade_patch(lift)
        lifted = cv2.multiply(small[y0:y1, x0:x1], up, dtype=cv2.CV_8U)
        was = labels[y0:y1, x0:x1]
        again = was.copy()
        again[shaded] = dice_frames.label_pixels(lifted[shaded], lut, censored[y0:y1, x0:x1][shaded])
        top = cv2.LUT(was, IS_TOP) > 0
        new_top = cv2.morphologyEx(cv2.LUT(again, IS_TOP), cv2.MORPH_OPEN, _K3) > 0
        frog = ((again == BLUE) | (again == PINK) | (again == YELLOW)) & new_top
        white = cv2.inRange(lifted, (dice_frames.STANDING,) * 3, (255, 255, 255)) > 0  # round 21: lit over the band
        standing = cv2.morphologyEx((white & shaded).view(np.uint8), cv2.MORPH_OPEN, _K3) > 0
        take = shaded & (was != BLOWN) & ~standing & ((~top & (new_top | (again == BG))) | ((was == BODY) & frog))
        mask = take.view(np.uint8)
        cv2.copyTo(lifted, mask, small[y0:y1, x0:x1])
        np.copyto(was, again, where=take)
        cv2.copyTo(cv2.multiply(gain[y0:y1, x0:x1], up), mask, gain[y0:y1, x0:x1])
        deep = np.zeros(labels.shape, np.uint8)
        deep[y0:y1, x0:x1] = mask & deeper
    labels[blown > 0] = BLOWN
    return small, labels, gain, deep, seen


@pytest.mark.parametrize("name", ["t8105-turn2-warm", "t8002-turn2-warm", "t8403-turn1", "t8303-turn1"])
def test_a_frame_is_prepared_as_before(name):
    frame, profile = frame_and_profile(f"{name}.jpg", name.split("-")[0])
    assert profile.glare is not None
    work = dice_frames.prepare(frame, profile)
    small, labels, gain, deep, seen = _prepare_as_before(frame, profile)
    assert work.light == seen and (work.light.changed or "warm" not in name)  # changed: measured again, glare off
    assert np.array_equal(work.small, small) and np.array_equal(work.labels, labels)
    assert np.array_equal(work.gain, gain)
    assert (work.deep is None) == (deep is None) and (deep is None or np.array_equal(work.deep, deep))


def test_the_lifted_shade_reads_its_censored_pixels_as_before_and_builds_no_other_block():
    from tests.vision.dice_twin import profile_of

    profile = profile_of("t8105")  # known glare: eight colour-table blocks, built as frames meet them
    colour_table._LUTS.clear()
    colour_table._BY_TABLE.clear()
    lut = colour_table.colour_lut(profile)
    builder = colour_table._BY_TABLE[id(lut)]
    rng = np.random.default_rng(11)
    lab = np.uint8([[np.round(profile.background[0].mean)]])
    floor = cv2.cvtColor(lab, cv2.COLOR_Lab2BGR).astype(np.float32)  # the floor's colour, in the shade / 2.5
    small = np.clip(floor / 2.5 + rng.normal(0, 2, (60, 80, 3)), 0, 255).astype(np.uint8)
    censored = np.zeros((60, 80), np.uint8)
    censored[45:55, 20:40] = rng.integers(0, 2, (10, 20)) * 2  # green clipped here and there in the shade
    censored[32:38, 15:25] = 4  # red clipped only outside it (inside the box the shade's corner spans)
    labels = dice_frames.label_pixels(small, lut, censored * (censored == 2))
    lift = np.ones((60, 80, 3), np.float32)
    lift[40:, 10:70] = 2.5  # a wall's deep shade along the bottom, and up a wall at its right end
    lift[30:40, 60:70] = 2.5
    (y0, y1, x0, x1), up, shaded, _ = dice_frames._shade_patch(lift)
    lifted = cv2.multiply(small[y0:y1, x0:x1], up, dtype=cv2.CV_8U)
    again = labels[y0:y1, x0:x1].copy()  # as the shaded pixels were read before round 10, one by one
    again[shaded] = dice_frames.label_pixels(lifted[shaded], lut, censored[y0:y1, x0:x1][shaded])
    seen, out, _, _ = dice_frames._lift_shade(small.copy(), labels.copy(), np.ones((60, 80, 3), np.float32), lift,
                                              lut, censored)
    assert builder.built[2] and not builder.built[4]  # red's block: met only outside the shade, not built
    taken = np.any(seen != small, axis=2)[y0:y1, x0:x1]  # where the lifted reading was taken
    assert taken.any() and np.array_equal(out[y0:y1, x0:x1][taken], again[taken])
    # the box read whole, censored only in the shade, reads every shaded pixel as picking them out did
    whole = dice_frames.label_pixels(lifted, lut, censored[y0:y1, x0:x1] * shaded)
    assert np.array_equal(whole[shaded], again[shaded])

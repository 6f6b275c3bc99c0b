"""read_dice made faster with the same readings (issue 24, round 20).

The corpus check (every reading of 256 frames the same before and after) is ``scripts/speed_corpus.py``.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from rig.vision import dice, dice_missed, dice_upright
from rig.vision.dice_frames import Work
from rig.vision.dice_hue import MIN_CHROMA, hue_gap
from rig.vision.dice_missed import _NOT_FLOOR, _clear_of, _square
from rig.vision.pixel_classes import _IS_EDGE, _K3
from tests.vision.dice_twin import frame_and_profile

#: committed twin frames (seen): five with a blob of die body in shade found clear of the dice (dark_tops, cut_tops),
#: the others with none
FRAMES = [("t10009-turn2.jpg", "t10009"), ("t10106-turn3.jpg", "t10106"), ("t8603-turn0.jpg", "t8603"),
          ("t8710-turn1.jpg", "t8710"), ("t8800-turn1.jpg", "t8800"), ("t8303-turn1.jpg", "t8303"),
          ("t101-turn1.jpg", "t101"), ("t10004-turn1.jpg", "t10004"), ("t8002r9-turn2-warm.jpg", "t8002r9"),
          ("t10205-turn1.jpg", "t10205")]


def _shade_blobs_before(work, t, dice_, least, share, inside=False):
    """Round 19's ``dice_missed._shade_blobs`` (the reference): every frame's components labelled."""
    labels, a0 = work.labels, work.top_area
    edge = cv2.LUT(labels, _IS_EDGE)
    if cv2.countNonZero(edge) < least * t.die_area_min * a0:
        return
    blob = cv2.morphologyEx(edge | cv2.LUT(labels, _NOT_FLOOR), cv2.MORPH_OPEN, _K3)
    H, W = labels.shape
    clear = _clear_of(work, dice_)
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(blob, 8, cv2.CV_32S, cv2.CCL_GRANA)
    areas = stats[:, cv2.CC_STAT_AREA]
    for i in np.flatnonzero((areas >= t.die_area_min * a0) & (areas <= t.die_area_max * a0)).tolist():
        if i == 0:
            continue
        x, y, w, h, area = (int(v) for v in stats[i])
        if inside and (x == 0 or y == 0 or x + w == W or y + h == H):
            continue
        part = (cc[y : y + h, x : x + w] == i).view(np.uint8)
        if np.count_nonzero(edge[y : y + h, x : x + w][part > 0]) < share * area:
            continue
        if np.count_nonzero(clear[y : y + h, x : x + w][part > 0] == 0) or not _square(part, a0, t.die_area_min, t.die_area_max):
            continue
        yield x, y, w, h, area, part


def _copied(args):
    """A call's arguments as they were then: the frame's arrays and the dice list are changed later in the read."""
    return tuple(dataclasses.replace(a, labels=a.labels.copy(), small=a.small.copy(),
                                     gain=None if a.gain is None else a.gain.copy()) if isinstance(a, Work)
                 else list(a) if isinstance(a, list) else a for a in args)


@pytest.fixture(scope="module")
def shade_calls():
    """Every ``_shade_blobs`` call reading the frames makes (dark_tops' and cut_tops'), its arguments as they were."""
    calls = []
    real = dice_missed._shade_blobs

    def spy(*a, **k):
        calls.append((_copied(a), k))
        return real(*a, **k)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dice_missed, "_shade_blobs", spy)
        for jpg, table in FRAMES:
            dice.read_dice(*frame_and_profile(jpg, table), thrown=6)
    return calls


def _same_blobs(a, b) -> bool:
    return len(a) == len(b) and all(p[:5] == q[:5] and np.array_equal(p[5], q[5]) for p, q in zip(a, b))


def test_the_shade_blobs_found_are_round_19s(shade_calls):
    found = [list(_shade_blobs_before(*a, **k)) for a, k in shade_calls]
    assert len(shade_calls) >= 10 and sum(1 for f in found if f) >= 5 and sum(1 for f in found if not f) >= 5
    for (a, k), before in zip(shade_calls, found):
        assert _same_blobs(list(dice_missed._shade_blobs(*a, **k)), before)


def test_no_components_are_labelled_where_too_little_shade_lies_clear_of_the_dice(monkeypatch, shade_calls):
    none = [(a, k) for a, k in shade_calls if not list(_shade_blobs_before(*a, **k))]
    assert len(none) >= 5

    def boom(*a, **k):
        raise AssertionError("components labelled")

    monkeypatch.setattr(cv2, "connectedComponentsWithStatsWithAlgorithm", boom)
    stopped = 0
    for a, k in none:
        try:
            assert list(dice_missed._shade_blobs(*a, **k)) == []
            stopped += 1
        except AssertionError as exc:
            assert "components labelled" in str(exc)
    assert stopped >= 3  # (main labels every frame's components: none stops)


@pytest.fixture(scope="module")
def labelled():
    """The masks ``_one_frog`` and ``_lit`` label reading the frames (8-connected)."""
    masks = []
    real = cv2.connectedComponentsWithStatsWithAlgorithm

    def spy(image, connectivity, ltype, ccltype):
        masks.append(image.copy())
        return real(image, connectivity, ltype, ccltype)

    with pytest.MonkeyPatch.context() as mp:
        for module in (dice, dice_upright):
            mp.setattr(module.cv2, "connectedComponentsWithStatsWithAlgorithm", spy)
        for jpg, table in FRAMES:
            dice.read_dice(*frame_and_profile(jpg, table), thrown=6)
    return masks


def _as_default(mask) -> bool:
    a = cv2.connectedComponentsWithStats(mask, connectivity=8)
    b = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return a[0] == b[0] and np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])


def test_grana_labels_and_stats_are_the_defaults(labelled):
    assert len(labelled) >= 50
    assert all(_as_default(m) for m in labelled)
    rng = np.random.default_rng(20)
    for i in range(3000):
        h, w = (int(v) for v in rng.integers(1, 60, 2))
        m = (rng.random((h, w)) < rng.uniform(0.05, 0.9)).view(np.uint8)
        if i % 3 == 0:
            m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        assert _as_default(m)


def test_one_frog_and_lit_label_by_grana(monkeypatch):
    real = cv2.connectedComponentsWithStats

    def boom(image, connectivity=8, *a, **k):
        if connectivity == 8:  # (a blob split in four-connected parts keeps the default: another scan, other labels)
            raise AssertionError("the default labelling")
        return real(image, connectivity, *a, **k)

    monkeypatch.setattr(cv2, "connectedComponentsWithStats", boom)
    for jpg, table in FRAMES[:4]:  # (main's _one_frog and _lit call the default)
        dice.read_dice(*frame_and_profile(jpg, table), thrown=6)


def _hue_gap_before(ab, model_ab):
    """Round 19's ``dice_hue.hue_gap`` (the reference): numpy's functions on scalars."""
    if np.hypot(*ab) < MIN_CHROMA or np.hypot(*model_ab) < MIN_CHROMA:
        return None
    turn = np.arctan2(ab[1], ab[0]) - np.arctan2(model_ab[1], model_ab[0])
    return round(float(np.degrees(abs(np.arctan2(np.sin(turn), np.cos(turn))))), 1)


def test_hue_gap_is_round_19s():
    rng = np.random.default_rng(24)
    pairs = np.concatenate([rng.normal(0, 40, (20000, 4)), rng.normal(0, 8, (5000, 4)),
                            rng.integers(-128, 128, (5000, 4)).astype(np.float64)])
    for p in pairs:
        assert hue_gap(p[:2], p[2:]) == _hue_gap_before(p[:2], p[2:])


def test_hue_gap_takes_no_numpy_function_on_scalars(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("numpy on scalars")

    monkeypatch.setattr(np, "arctan2", boom)
    assert hue_gap(np.array([27.0, -10.0]), np.array([5.0, 34.0])) == 102.0  # (main's calls np.arctan2)

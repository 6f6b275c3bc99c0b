"""read_dice made faster without changing a reading (issue 24, round 12): each faster way against the way it replaced,
and the per-profile shortcut never served to another profile.

The corpus check (every reading of 256 frames the same before and after) is ``scripts/speed_corpus.py``.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from rig.vision import dice, dice_frames, dice_missed, light
from rig.vision.colour_table import colour_lut
from rig.vision.pixel_classes import _IS_ODD, _K3, BODY, CLASS_NAMES, CLIPPED, EDGE, UNKNOWN
from tests.vision.dice_references import crop_before_round_17
from tests.vision.dice_twin import frame_and_profile

FRAMES = [("t8105-turn2-warm.jpg", "t8105"), ("t8002-turn2-warm.jpg", "t8002"), ("t8403-turn1.jpg", "t8403"),
          ("t8303-turn1.jpg", "t8303"), ("t8707-turn1.jpg", "t8707"), ("t8603-turn0.jpg", "t8603")]


def _index_as_before(image):
    q = image >> 2
    idx = q[..., 0].astype(np.int32) << 12
    idx |= q[..., 1].astype(np.int32) << 6
    idx |= q[..., 2]
    return idx


def test_the_colour_index_is_the_shifted_channels_for_every_colour_and_crop():
    rng = np.random.default_rng(12)
    every = np.arange(1 << 18)  # every index, each with random low bits (the two bits the index drops)
    image = np.stack([(every >> 12) << 2, ((every >> 6) & 63) << 2, (every & 63) << 2], -1)
    image = (image + rng.integers(0, 4, image.shape)).astype(np.uint8).reshape(512, 512, 3)
    assert np.array_equal(dice_frames._index(image), every.reshape(512, 512))
    assert np.array_equal(dice_frames._index(image), _index_as_before(image))
    for h, w in [(0, 5), (5, 0), (1, 1), (1, 7), (7, 1)] + [tuple(rng.integers(1, 90, 2)) for _ in range(100)]:
        y, x = rng.integers(0, 400, 2)
        for crop in (image[y : y + h, x : x + w], image[y : y + 2 * h : 2, x : x + 2 * w : 2]):  # views, strided too
            for pixels in (crop, crop.reshape(-1, 3), crop[crop[..., 0] > 100]):  # pixels picked out too (n x 3)
                got, want = dice_frames._index(pixels), _index_as_before(pixels)
                assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)


def test_labels_with_nothing_censored_are_the_labels_without_censoring():
    frame, profile = frame_and_profile(*FRAMES[0])
    lut = colour_lut(profile)
    small = dice_frames.shrink(frame, 2)
    censored = np.zeros(small.shape[:2], np.uint8)
    plain = np.take(lut, _index_as_before(small))
    assert np.array_equal(dice_frames.label_pixels(small, lut, censored), plain)
    censored[10:20, 30:50] = 4  # red clipped there: that block (built as the frame meets it), as before
    got = dice_frames.label_pixels(small, lut, censored)
    assert np.array_equal(got, np.take(lut, _index_as_before(small) | censored.astype(np.int32) << 18))
    assert dice_frames._any(censored) and not dice_frames._any(censored[:5]) and not dice_frames._any(censored[:0])
    assert dice_frames._any(censored.astype(bool)) and dice_frames._any(censored[censored > 0])  # other arrays: numpy


def test_the_censored_bits_are_the_split_channels_bits():
    rng = np.random.default_rng(3)
    for _ in range(200):
        h, w = rng.integers(1, 60, 2)
        small = rng.integers(200, 256, (h, w, 3), dtype=np.uint8)
        glare = rng.integers(0, 9, (h, w, 3), dtype=np.uint8)
        hot = cv2.compare(small, (240,) * 3, cv2.CMP_GE) & cv2.compare(glare, (4,) * 3, cv2.CMP_GE)
        b, g, r = cv2.split(hot)
        got, want = dice_frames._censored(small, glare, 240), (b & 1) | (g & 2) | (r & 4)
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)


def _full_counts_as_before(poly, x0, y0, centre, work, t, gain=None):
    """dice._full_counts as it was before round 12: the crop and its mask made for each reading, the band's pixels
    counted class by class."""
    f = work.factor
    if work.glare is not None and gain is None:
        xs, ys = poly.reshape(-1, 2).T + np.array([[x0], [y0]])
        under = work.glare[max(0, ys.min()) : ys.max() + 1, max(0, xs.min()) : xs.max() + 1]
        if under.size == 0 or under.max() >= 4:
            return None
    crop = crop_before_round_17(poly, x0, y0, work)
    if crop is None:
        return None
    X0, Y0, X1, Y1, mask = crop
    gh, gw = work.gain.shape[:2]
    g = work.gain[min(gh - 1, max(0, int(centre[1]))), min(gw - 1, max(0, int(centre[0])))] if gain is None else gain
    crop = cv2.multiply(work.frame[Y0:Y1, X0:X1], tuple(float(v) for v in g) + (0.0,), dtype=cv2.CV_8U)
    labels = dice_frames.label_pixels(crop, work.lut)
    odd = cv2.LUT(labels, _IS_ODD) & mask
    k = max(5, int(round(0.09 * work.side * f)) | 1)
    dense = cv2.blur(odd.astype(np.float32), (k, k)) > 0.5
    thin = (odd > 0) & ~dense
    counts = np.bincount(labels[mask > 0], minlength=len(CLASS_NAMES))
    for cls in (UNKNOWN, CLIPPED):
        counts[cls] = max(0, counts[cls] - int(np.count_nonzero(thin & (labels == cls))))
    n = int(counts.sum())
    return (counts, n, labels, mask) if n >= 16 else None


@pytest.mark.parametrize("scale", [1, 2])
def test_a_dies_two_readings_count_as_before_with_its_crop_made_once(monkeypatch, scale):
    calls, made = [], {}  # (the crops kept alive here: their ids stay unique)
    faster, crop_of = dice._full_counts, dice._crop

    def crop(poly, x0, y0, work):
        got = crop_of(poly, x0, y0, work)
        made[id(got)] = (got, poly, x0, y0)
        return got

    def both(crop, centre, work, t, gain=None):
        got = faster(crop, centre, work, t, gain=gain)
        if crop is not None:
            _, poly, x0, y0 = made[id(crop)]
            want = _full_counts_as_before(poly, x0, y0, centre, work, t, gain=gain)
            assert (got is None) == (want is None)
            if got is not None:
                assert all(np.array_equal(a, b) for a, b in zip(got, want)) and got[1] == want[1]
        calls.append((crop, gain is None, got is not None))
        return got

    monkeypatch.setattr(dice, "_crop", crop)
    monkeypatch.setattr(dice, "_full_counts", both)
    for frame, table in FRAMES:
        frame, profile = frame_and_profile(frame, table)
        frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)  # x2: read at 2x2 px
        dice.read_dice(frame, profile)
    assert any(not first for _, first, _ in calls)  # the frame's overall light was asked for too
    assert scale == 1 or sum(first and read for _, first, read in calls) > 0  # (dice under the glare: read apart)
    assert len(calls) > 10  # (each counted as before; one crop a die for both readings: the next test)


def test_a_dies_crop_is_made_once_and_handed_to_both_its_readings(monkeypatch):
    events = []
    crop_of, counts, die = dice._crop, dice._full_counts, dice._die

    def crop(*a):
        events.append(("crop", got := crop_of(*a)))
        return got

    monkeypatch.setattr(dice, "_crop", crop)
    monkeypatch.setattr(dice, "_full_counts", lambda c, *a, gain=None: events.append(("read", c)) or counts(c, *a, gain=gain))
    monkeypatch.setattr(dice, "_die", lambda *a, **k: events.append(("die", None)) or die(*a, **k))
    monkeypatch.setattr(dice, "under_glare", lambda *a: True)  # every die read again in the overall light
    for frame, table in FRAMES[:3]:
        dice.read_dice(*frame_and_profile(frame, table))
    dies = []  # each die's crops made and readings, in turn
    for kind, c in events:
        if kind == "die":
            dies.append([])
        elif dies:
            dies[-1].append((kind, c))
    assert len(dies) > 10
    both = 0
    for mine in dies:
        made = [c for kind, c in mine if kind == "crop"]
        read = [c for kind, c in mine if kind == "read"]
        assert len(made) <= 1 and all(c is made[0] for c in read)  # one crop a die, the same object for each reading
        both += len(read) == 2
    assert both  # dice read in their place's light and in the overall light, with one crop


def test_a_crop_is_made_anew_for_each_call_and_kept_nowhere():
    # round 12 kept the last die's crop in a module-level cache keyed by the poly's and the work's identity: hidden
    # state that held the last frame (its Work) in memory; round 13 hands the crop from _die to both readings
    frame, profile = frame_and_profile(*FRAMES[0])
    frame = cv2.resize(frame, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    work = dice_frames.prepare(frame, profile)
    poly = np.array([[10, 10], [30, 10], [30, 30], [10, 30]], np.int32)
    first = dice._crop(poly, 5, 6, work)
    again = dice._crop(poly, 5, 6, work)  # the same die asked again: made anew, the same numbers
    assert again is not first and again[:4] == first[:4] and np.array_equal(again[4], first[4])
    assert dice._crop(poly, 6, 6, work)[0] == first[0] + work.factor
    assert not hasattr(dice, "_CROP")


def test_a_reading_leaves_no_reference_to_its_frames_work(monkeypatch):
    import gc
    import weakref

    made = []
    prepare = dice.prepare
    monkeypatch.setattr(dice, "prepare", lambda *a: made.append(weakref.ref(w := prepare(*a))) or w)
    frame, profile = frame_and_profile(*FRAMES[0])
    dice.read_dice(cv2.resize(frame, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR), profile)
    gc.collect()
    assert len(made) == 1 and made[0]() is None  # nothing holds the frame's Work (its frame, labels) once read


def _glared_die_as_before(work, dice_read):
    """dice_missed.glared_die as it was before round 12 (every blob's middle looked up, the cells made each frame)."""
    if work.glare is None:
        return None
    labels, a0, f = work.labels, work.top_area, work.factor
    if cv2.countNonZero((labels == BODY).view(np.uint8)) < dice_missed.GLARED_BODY * dice_missed.GLARED_AREA * a0:
        return None
    rim = cv2.LUT(labels, dice_missed._RIM)
    cells = None if work.profile is None or work.profile.floor_cells is None else np.asarray(work.profile.floor_cells, bool)
    contours, _ = cv2.findContours(cv2.morphologyEx(rim, cv2.MORPH_CLOSE, _K3), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        if max(w, h) > 2.0 * work.side or w * h < dice_missed.GLARED_AREA * a0 or min(w, h) < 0.5 * max(w, h):
            continue
        if x == 0 or y == 0 or x + w == labels.shape[1] or y + h == labels.shape[0]:
            continue
        if any(x * f <= d.x <= (x + w) * f and y * f <= d.y <= (y + h) * f for d in dice_read):
            continue
        filled = np.zeros((h, w), np.uint8)
        cv2.drawContours(filled, [c - (x, y)], -1, 1, cv2.FILLED)
        area = int(filled.sum())
        inside = labels[y : y + h, x : x + w][filled > 0]
        if area < dice_missed.GLARED_AREA * a0 or (inside == BODY).mean() < dice_missed.GLARED_BODY or (
                inside == EDGE).mean() < dice_missed.GLARED_BEVEL:
            continue
        m = cv2.moments(filled, binaryImage=True)
        cx, cy = x + m["m10"] / m["m00"], y + m["m01"] / m["m00"]
        gy, gx = min(int(cy), work.glare.shape[0] - 1), min(int(cx), work.glare.shape[1] - 1)
        if work.glare[gy, gx].max() < dice_missed.GLARED_LEVEL:
            continue
        if cells is not None and not cells[min(int(cy * cells.shape[0] / labels.shape[0]), cells.shape[0] - 1),
                                           min(int(cx * cells.shape[1] / labels.shape[1]), cells.shape[1] - 1)]:
            continue
        if not dice_missed.in_a_die(cx, cy, dice_read, f):
            return float(cx), float(cy)
    return None


def _places_as_looked_up(work):
    """Every working pixel some middle (cx, cy) in it passes glared_die's last two tests at, found the slow way."""
    cells = np.asarray(work.profile.floor_cells, bool)
    H, W = work.labels.shape
    out = np.zeros((H, W), bool)
    for frac in (0.0, 0.25, 0.5, 0.999999):
        cy, cx = np.mgrid[0:H, 0:W] + frac
        hot = work.glare[np.minimum(cy.astype(int), H - 1), np.minimum(cx.astype(int), W - 1)].max(axis=2) >= 32
        on = cells[np.minimum((cy * cells.shape[0] / H).astype(int), cells.shape[0] - 1),
                   np.minimum((cx * cells.shape[1] / W).astype(int), cells.shape[1] - 1)]
        out |= hot & on
    return out


def test_the_glared_places_hold_every_place_a_middle_passes_at():
    for frame, table in FRAMES:
        frame, profile = frame_and_profile(frame, table)
        light._MAPS.clear()  # (full, the maps kept are all dropped: a glare made anew is no longer the frame's)
        work = dice_frames.prepare(frame, profile)
        cells, places = dice_missed._glared_cells(work)
        assert np.array_equal(cells, np.asarray(profile.floor_cells, bool))
        summed = places[1:, 1:] - places[:-1, 1:] - places[1:, :-1] + places[:-1, :-1]  # back from the sums
        assert not np.any(_places_as_looked_up(work) & (summed == 0))


def test_a_die_under_the_glare_is_found_where_it_was_and_nowhere_else():
    for frame, table in FRAMES:
        frame, profile = frame_and_profile(frame, table)
        work = dice_frames.prepare(frame, profile)
        for read in ([], list(dice.read_labels(work, profile).dice)):  # with no die read, every blob is looked at
            assert dice_missed.glared_die(work, read) == _glared_die_as_before(work, read)


def test_a_changed_profile_is_never_given_another_profiles_places():
    frame, profile = frame_and_profile(*FRAMES[0])
    light._MAPS.clear()
    work = dice_frames.prepare(frame, profile)
    _, places = dice_missed._glared_cells(work)
    assert places[-1, -1] > 0  # the lamp's reflection lies on the floor here
    rows, cols = np.asarray(profile.floor_cells).shape
    shape = work.labels.shape

    def read_with(changed):  # the frame as read with the changed profile (its own glare map)
        return dataclasses.replace(work, profile=changed, glare=dice_frames.glare_for(changed, shape))

    bare = dataclasses.replace(profile, floor_cells=((False,) * cols,) * rows)  # no floor cell: no place at all
    cells, none = dice_missed._glared_cells(read_with(bare))
    assert not cells.any() and none[-1, -1] == 0
    cool = dataclasses.replace(profile, glare=np.minimum(np.asarray(profile.glare), 20))  # no reflection that strong
    assert dice_missed._glared_cells(read_with(cool))[1][-1, -1] == 0
    assert dice_missed._glared_cells(work)[1] is places  # the first profile keeps its own
    own = dataclasses.replace(work, glare=work.glare.copy())  # a glare not the profile's: nothing kept is used
    assert dice_missed._glared_cells(own)[1] is None
    assert dice_missed.glared_die(own, []) == _glared_die_as_before(own, [])


def test_the_views_median_correction_is_numpys_median():
    from rig.vision.dice_overall import _column_medians

    rng = np.random.default_rng(24)
    for n in (1, 2, 3, 4, 5, 100, 101, 19200):
        for dtype in (np.float32, np.float64):
            for _ in range(10):
                a = (rng.random((n, 3)) * 3).astype(dtype)
                a[rng.random((n, 3)) < 0.3] = 1.0  # ties
                want, got = np.median(a, axis=0), _column_medians(a)
                assert got.dtype == want.dtype and np.array_equal(got, want)
    gain = cv2.resize((rng.random((12, 16, 3)) + 0.5).astype(np.float32), (640, 480), interpolation=cv2.INTER_LINEAR)
    assert np.array_equal(_column_medians(gain[::4, ::4].reshape(-1, 3)), np.median(gain[::4, ::4].reshape(-1, 3), axis=0))


def _walls_seen_as_before(dice_read, work, walls):
    H, W = work.labels.shape
    keep = np.full((H, W), 255, np.uint8)
    f = work.factor
    for d in dice_read:
        if d.cocked:
            continue
        x, y, w, h = (v / f for v in d.box)
        rx, ry = dice._radial(d, work)
        r = float(np.hypot(rx, ry))
        reach = (walls[1] * r + 0.25) * work.side
        sx, sy = -rx / max(r, 1e-6) * reach, -ry / max(r, 1e-6) * reach
        corners = [(x - 1, y - 1), (x + w + 1, y - 1), (x + w + 1, y + h + 1), (x - 1, y + h + 1)]
        hull = cv2.convexHull(np.array(corners + [(cx + sx, cy + sy) for cx, cy in corners], np.float32))
        cv2.fillConvexPoly(keep, np.round(hull).astype(np.int32), 0)
    return keep


def test_the_hand_and_shade_masks_leave_out_the_dice_walls_as_before():
    from rig.vision.pixel_classes import _IS_EDGE

    for frame, table in FRAMES:
        frame, profile = frame_and_profile(frame, table)
        work = dice_frames.prepare(frame, profile)
        read = list(dice.read_labels(work, profile).dice)
        walls = _walls_seen_as_before(read, work, profile.walls)
        assert np.array_equal(dice._walls_seen(read, work, profile.walls), walls)
        near = dice_frames._near_floor(profile, work.labels.shape)
        for table_, where in ((_IS_ODD, near), (_IS_EDGE, np.uint8(255))):
            mask = cv2.LUT(work.labels, table_)  # as read_labels makes it now
            if isinstance(where, np.ndarray):
                cv2.bitwise_and(mask, where, dst=mask)
            for hull in dice._wall_hulls(read, work, profile.walls):
                cv2.fillConvexPoly(mask, hull, 0)
            assert np.array_equal(mask, cv2.LUT(work.labels, table_) & walls & where)
        assert isinstance(near, np.ndarray) and near is dice_frames._near_floor(profile, work.labels.shape)  # untouched

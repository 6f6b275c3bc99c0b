"""Round 33's speed steps give round 32's answers (issue 24): ``held_blob``, ``glared_die``'s box test and
``dice_shade.blob`` test every blob's (contour's) box at once, not one by one in Python; a die top's frog colours'
mean Lab is found once for both hue tests; ``dice_lampside.strips`` is kept for the last boxes asked. Each against
round 32's form (copied here) on seeded masks, or counted on a committed twin frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rig.vision import dice, dice_glared, dice_hue, dice_lampside
from rig.vision.dice_blobs import held_blob
from rig.vision.dice_shade import blob, core
from tests.vision.dice_twin import frame_and_profile


def _masks(seed: int, n: int, shape=(120, 160)):
    """Seeded masks (uint8 0/255): squares of several sizes, some with a hole holding a smaller square (a die top's
    frog), lines, and specks."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        m = np.zeros(shape, np.uint8)
        for _ in range(int(rng.integers(1, 8))):
            c, s = rng.uniform(0, shape[::-1]), float(rng.uniform(3, 40))
            box = np.round(cv2.boxPoints(((c[0], c[1]), (s, s * rng.uniform(0.3, 1.2)), rng.uniform(0, 90))))
            cv2.fillConvexPoly(m, box.astype(np.int32), 255)
            if rng.random() < 0.4 and s > 12:  # a frog cut out of the top by its dark outline
                cv2.circle(m, (int(c[0]), int(c[1])), int(s / 4), 0, -1)
                cv2.circle(m, (int(c[0]), int(c[1])), int(s / 8), 255, -1)
        m[rng.random(shape) < rng.uniform(0, 0.05)] = 255
        yield m


def _round32_held_blob(cc, stats, i, least, most):
    x, y, w, h, area = (int(v) for v in stats[i])
    if area >= least:
        return False
    cx, cy = x + w / 2, y + h / 2
    for j in range(1, len(stats)):
        bx, by, bw, bh, barea = (int(v) for v in stats[j])
        if j == i or not area < barea <= most or not (bx <= cx < bx + bw and by <= cy < by + bh):
            continue
        points = cv2.findNonZero((cc[by : by + bh, bx : bx + bw] == j).view(np.uint8))
        if cv2.pointPolygonTest(cv2.convexHull(points), (cx - bx, cy - by), False) > 0:
            return True
    return False


def test_held_blob_by_every_box_at_once_answers_as_round_32():
    held = 0
    for m in _masks(33, 60):
        _, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(m, 8, cv2.CV_32S, cv2.CCL_GRANA)
        for i in range(1, len(stats)):
            for least, most in ((60, 900), (200, 2000), (400, 500)):
                want = _round32_held_blob(cc, stats, i, least, most)
                assert held_blob(cc, stats, i, least, most) == want
                held += want
    assert held > 20  # (frogs inside tops are met: the test sees both answers)


def _round32_die_sized(contours, side, a0, shape):
    out = []
    for k, c in enumerate(contours):
        x, y, w, h = cv2.boundingRect(c)
        if max(w, h) > 2.0 * side or w * h < dice_glared.GLARED_AREA * a0 or min(w, h) < 0.5 * max(w, h):
            continue
        if x == 0 or y == 0 or x + w == shape[1] or y + h == shape[0]:
            continue
        out.append(k)
    return out


def test_glared_dies_box_test_on_every_contour_at_once_keeps_round_32s_contours():
    kept = 0
    for m in _masks(3300, 60):
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for side in (12.0, 20.0, 30.0):
            want = _round32_die_sized(contours, side, 0.8 * side * side, m.shape)
            assert dice_glared._die_sized(contours, side, 0.8 * side * side, m.shape) == want
            kept += len(want)
    assert dice_glared._die_sized((), 20.0, 320.0, (120, 160)) == []
    assert kept > 20


def _round32_blob(mask, least, thick=0.0, disc=0.0, unchanged=None):
    from rig.vision.dice_shade import _pixels
    from rig.vision.pixel_classes import _K3

    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
    if cv2.countNonZero(opened) < least:
        return None
    n, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(opened, 8, cv2.CV_32S, cv2.CCL_GRANA)
    for j in range(1, n):
        area = stats[j, cv2.CC_STAT_AREA]
        if (area >= least and area >= thick * max(stats[j, cv2.CC_STAT_WIDTH], stats[j, cv2.CC_STAT_HEIGHT])
                and (disc <= 0 or core(labels, j, stats[j]) >= disc)
                and (unchanged is None or not unchanged(_pixels(labels, j, stats[j]), tuple(stats[j, :4])))):
            return tuple(centres[j])
    return None


def test_shade_blob_sized_at_once_finds_round_32s_blob():
    def odd_width(inside, box):  # (a stand-in for the empty box's test: its answer hangs on the blob)
        return box[2] % 2 == 1

    found = 0
    for m in _masks(330, 60):
        for least, thick, disc, unchanged in ((30, 0.0, 0.0, None), (60, 4.0, 0.0, None), (60, 3.0, 5.0, None),
                                              (40, 2.0, 3.0, odd_width)):
            want = _round32_blob(m, least, thick, disc, unchanged)
            assert blob(m, least, thick, disc, unchanged) == want
            found += want is not None
    assert found > 50


def test_a_die_tops_frog_colours_are_averaged_once_for_both_hue_tests(monkeypatch):
    frame, profile = frame_and_profile("t10405-turn2.jpg", "t10405")
    counted = []
    real = dice_hue._mean_lab
    monkeypatch.setattr(dice_hue, "_mean_lab", lambda small, mask: counted.append(1) or real(small, mask))
    tops = []
    real_means = dice_hue.frog_means
    monkeypatch.setattr(dice, "frog_means", lambda *a: tops.append(list(a[3])) or real_means(*a))
    reading = dice.read_dice(frame, profile, thrown=6)
    frogs = sum(len(present) for present in tops)
    assert reading.dice and frogs >= 3
    bodies = []  # (the veil tests' averages of a top's body, counted apart)
    real_veil = dice_hue._veil
    monkeypatch.setattr(dice_hue, "_veil", lambda *a: bodies.append(1) or real_veil(*a))
    counted.clear()
    tops.clear()
    assert dice.read_dice(frame, profile, thrown=6) == reading
    assert len(counted) == frogs + len(bodies)  # once a frog colour a top: round 32 averaged each again for off_hue


@pytest.mark.parametrize("box", [(10, 10, 20, 20), [10, 10, 20, 20], (0, 0, 40, 30), (90, 5, 20, 20)])
def test_strips_kept_are_the_strips_made(box):
    want = dice_lampside._strips.__wrapped__(tuple(box), 20.0, (100, 100))
    assert dice_lampside.strips(box, 20.0, (100, 100)) == want
    assert dice_lampside.strips(box, 20.0, (100, 100)) == want  # (the second time from the kept ones)


def test_a_frames_strips_are_made_once_a_die():
    # twin 10004 turn 0, its empty box kept beside the profile as `rig calibrate` keeps it: the side-face checks run
    from rig.vision.card_empty import EmptyBox, remember
    from tests.vision.dice_twin import HERE

    frame, profile = frame_and_profile("t10004-turn0.jpg", "t10004")
    remember(profile, EmptyBox.of(cv2.imread(str(HERE / "t10004-empty.jpg"))))
    dice_lampside._strips.cache_clear()
    try:
        reading = dice.read_dice(frame, profile, thrown=6)
    finally:
        remember(profile, None)  # (found by the calibration's stamp: other tests' copies of t10004 share it)
    info = dice_lampside._strips.cache_info()
    assert len(reading.dice) >= 5
    assert info.misses <= len(reading.dice) and info.hits >= 2 * len(reading.dice)  # (round 32: every ask made them)

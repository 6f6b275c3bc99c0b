"""read_dice made faster with the same readings (issue 24, round 16).

The corpus check (every reading of 256 frames the same before and after) is ``scripts/speed_corpus.py``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from rig.vision import dice, dice_missed, dice_upright
from rig.vision.dice_cocked import _around, _radial
from rig.vision.dice_frames import prepare
from rig.vision.pixel_classes import BG, BLUE, BODY
from tests.vision.conftest import script
from tests.vision.dice_twin import frame_and_profile

#: committed twin frames (seen) with dice far enough out to be measured, four of them with too few dark pixels round
#: them for any edge's shade to reach dice_upright.SIDE (checked below)
FRAMES = [("t8002r9-turn2-warm.jpg", "t8002r9"), ("t8105-turn2-warm.jpg", "t8105"), ("t8303-turn1.jpg", "t8303"),
          ("t9711-turn3-bright.jpg", "t9711"), ("t8710-turn1.jpg", "t8710")]


# round 15's top_edges and wrong_way (the reference): the least rectangle on every lit pixel, one edge at a time (the
# lit top itself, which this round did not change, from dice_upright.lit_top)
def _top_edges_before(around, side):
    found = dice_upright.lit_top(around)
    if found is None:
        return None
    lit, ys, xs = found
    rect = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
    (cx, cy), (w, h), ang = rect
    a = math.radians(ang)
    axes = (np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)]))
    half = ((w + 1.0) / 2, (h + 1.0) / 2)
    _, body = cv2.connectedComponents((lit | (around[0] > 0)).view(np.uint8), connectivity=8)
    sil = body == body[ys[0], xs[0]]
    dy, dx = np.nonzero(sil & ~lit)
    px = np.column_stack([dx - cx, dy - cy]).astype(np.float64)
    u = (px @ axes[0], px @ axes[1])
    edges = []
    for axis in (0, 1):
        other = 1 - axis
        for sign in (1.0, -1.0):
            beyond = sign * u[axis] - half[axis]
            band = (beyond > 0) & (np.abs(u[other]) <= half[other] + 0.15 * side)
            width = np.count_nonzero(band) / max(2 * half[other], 1.0) / side
            edges.append((sign * axes[axis], width, beyond[band]))
    return lit, sil, rect, edges


def _wrong_way_before(obs, work, around):
    rx, ry = _radial(obs, work)
    if dice_upright.VIEW * math.hypot(rx, ry) < dice_upright.SIDE:
        return False
    found = _top_edges_before(around, work.side)
    if found is None:
        return False
    v = -dice_upright.VIEW * np.array([rx, ry])
    extra, missing = -1.0, 0.0
    for normal, width, _ in found[3]:
        want = max(0.0, float(normal @ v))
        extra = max(extra, width - want)
        if want > dice_upright.FACING:
            missing = max(missing, want - width)
    return min(extra, missing) >= dice_upright.SIDE


def _same_edges(a, b) -> bool:
    if a is None or b is None:
        return a is b
    same = np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2] == b[2]
    return same and all(np.array_equal(n1, n2) and w1 == w2 and np.array_equal(b1, b2)
                        for (n1, w1, b1), (n2, w2, b2) in zip(a[3], b[3], strict=True))


def _random_window(rng):
    h, w = (int(v) for v in rng.integers(12, 48, 2))
    lab = np.full((h, w), BG, np.uint8)
    box = cv2.boxPoints(((rng.uniform(4, w - 4), rng.uniform(4, h - 4)), tuple(rng.uniform(4, 25, 2)),
                         rng.uniform(0, 90))).astype(np.int32)
    cv2.fillConvexPoly(lab, box, int(BODY))
    lab[rng.random((h, w)) < rng.uniform(0, 0.3)] = BLUE if rng.random() < 0.5 else BG  # a frog's specks, holes
    dark = ((rng.random((h, w)) < 0.3) * 255).astype(np.uint8)
    if rng.random() < 0.6:
        dark = cv2.dilate(dark, np.ones((2, 2), np.uint8))
    mine = rng.random((h, w)) < 0.9 if rng.random() < 0.25 else None
    return (dark, mine, None, None, 0, 0, lab), float(rng.uniform(10, 40))


def test_a_dies_edges_are_measured_as_round_15_did():
    # the least rectangle on the lit top's outline (its convex hull's points), the four edges' bands in one pass
    rng = np.random.default_rng(16)
    for _ in range(400):
        around, side = _random_window(rng)
        assert _same_edges(dice_upright.top_edges(around, side), _top_edges_before(around, side))


@pytest.fixture(scope="module")
def judged():
    out = []
    for jpg, table in FRAMES:
        frame, profile = frame_and_profile(jpg, table)
        reading = dice.read_dice(frame, profile, thrown=6)
        work = prepare(frame, profile)
        out += [(d, work, _around(d, work, reading.dice)) for d in reading.dice]
    return out


def test_every_die_of_committed_frames_measures_as_before(judged):
    for obs, work, around in judged:
        assert _same_edges(dice_upright.top_edges(around, work.side), _top_edges_before(around, work.side))


def test_a_die_too_dark_round_its_top_to_be_flagged_is_not_measured_and_gets_the_same_verdict(judged):
    skipped = 0
    for obs, work, around in judged:
        assert dice_upright.wrong_way(obs, work, around=around) == _wrong_way_before(obs, work, around)
        measured = dice_upright.VIEW * math.hypot(*_radial(obs, work)) >= dice_upright.SIDE
        if measured and dice_upright._bands(around, work.side) is not None:
            if dice_upright._bands(around, work.side, dice_upright.SIDE) is None:  # skipped by the dark pixels' count
                skipped += 1
                assert min(dice_upright.side_faces(obs, work, around=around)) < dice_upright.SIDE
    assert skipped >= 4


def test_the_least_rectangle_is_taken_on_the_outline_not_every_pixel(monkeypatch, judged):
    sizes = []
    real = cv2.minAreaRect

    def counted(points):
        sizes.append(len(points))
        return real(points)

    monkeypatch.setattr(cv2, "minAreaRect", counted)
    for obs, work, around in judged[:12]:
        found = dice_upright.top_edges(around, work.side)
        if found is not None:
            assert sizes[-1] < np.count_nonzero(found[0])  # the outline's pixels, fewer than the lit top's
    assert sizes


@pytest.mark.parametrize("jpg,table,top", [("t101-turn1.jpg", "t101", (190, 208, 6.606838, 249)),
                                           ("t8800-turn1.jpg", "t8800", (153, 184, 7.598701, 294))])
def test_a_top_in_deep_shade_is_found_as_with_numpys_sums(monkeypatch, jpg, table, top):
    # dice_missed.shade_tops' lightness per pixel by light.lightness (round 29; light.sum3 before it: a tenth of
    # numpy's sum over a short last axis, the same whole numbers), its blobs' specks skipped at once by their areas;
    # the tops found as round 15 found them
    frame, profile = frame_and_profile(jpg, table)
    found = {}
    for how, adds in (("lightness", dice_missed.lightness), ("numpy", lambda a: a.astype(np.float32).sum(axis=2))):
        monkeypatch.setattr(dice_missed, "lightness", adds)
        work = prepare(frame, profile)
        found[how] = dice_missed.shade_tops(work, profile.thresholds, [], 1)
        assert [(x, y, round(g, 6), int(m.sum())) for m, x, y, g in found[how]] == [top]
    (a, *_), (b, *_) = found["lightness"][0], found["numpy"][0]
    assert np.array_equal(a, b)


def test_the_timing_table_gives_the_ratio_of_a_sets_total_time(capsys):
    # a pass run on one frame of four (the deep-shade search) moves a set's total, not its medians
    harness = script("timing_harness")
    harness.print_table({"twin": {"before": [1.0, 1.0, 1.0, 5.0], "after": [1.0, 1.0, 1.0, 3.0]}}, ["before", "after"])
    head, row = capsys.readouterr().out.splitlines()
    assert head.split()[-1] == "total"
    assert row.split()[-3:] == ["1.00", "1.00", "0.75"]

"""Round 37's speed steps give round 36's answers (issue 24): the strips beyond a die's outer sides are made once a frame
for the wall-side check and the leaning-on-the-wall check (``dice_wallside.StripLooks``, ``dice_leanwall.wall_flags``),
the leaning check's medians come from one partition, and the wall-dark check takes each strip's empty-box lightness
and chroma from maps made once a picture. Each against round 36's form (copied here) on seeded pictures, or counted
on committed twin frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rig.vision import dice, dice_leanwall, dice_walldark, dice_wallside
from rig.vision.dice import read_dice
from rig.vision.dice_leanwall import lean_wall_flags
from rig.vision.dice_wallside import StripLooks, ab_distances, lab_unlit, wall_side_flags

CHANGES = (None, (1.15, 0.9, 1.25), (0.8, 0.8, 0.8))


def _round36_measures(frame, empty_ab, empty_l, rect, body_ab, channels):
    """Round 36's ``dice_leanwall._measures``: its strip made for it alone, numpy's medians."""
    y0, y1, x0, x1 = rect
    lab = lab_unlit(frame, rect, channels).astype(np.float32)
    to_empty, to_body = ab_distances(lab[..., 1:], empty_ab[y0:y1, x0:x1], body_ab)
    light = lab[..., 0] / np.maximum(1.0, empty_l[y0:y1, x0:x1])
    return float(np.mean(to_body + 4.0 < to_empty)), float(np.median(to_empty)), float(np.median(light))


def test_the_leaning_checks_strips_cut_from_the_wall_side_checks_measure_as_round_36s():
    rng = np.random.default_rng(37)
    shape = (240, 320)
    cut = 0
    for trial in range(60):
        frame = rng.integers(0, 256, (*shape, 3), np.uint8)
        empty_ab = np.rint(rng.uniform(90, 170, (*shape, 2))).astype(np.float32)
        empty_l = np.rint(rng.uniform(0, 255, shape)).astype(np.float32)
        body_ab = rng.uniform(100, 170, (2, 2)).astype(np.float32)
        side = float(rng.uniform(12, 60))
        looks = StripLooks(frame, empty_ab, body_ab, side)
        for _ in range(6):
            s = int(rng.integers(6, 70))
            box = (int(rng.integers(-10, shape[1])), int(rng.integers(-10, shape[0])), s, int(s * rng.uniform(0.8, 1.2)))
            name, channels = "LRTB"[int(rng.integers(4))], CHANGES[int(rng.integers(3))]
            rect = dice_leanwall._strip(box, name, side, shape)
            if rect is None:
                continue
            if trial % 3:  # as wall_side_faces asks first; else the leaning check makes its own
                looks.strip(box, name, channels)
                cut += (tuple(box), name, channels) in looks._made and looks._made[(tuple(box), name, channels)] is not None
            got = dice_leanwall._measures(looks, empty_l, box, name, rect, channels)
            assert got == _round36_measures(frame, empty_ab, empty_l, rect, body_ab, channels)
    assert cut > 50


def test_the_median_from_one_partition_is_numpys():
    rng = np.random.default_rng(3700)
    for n in range(1, 60):
        for values in (rng.uniform(0, 40, n), np.rint(rng.uniform(0, 4, n)), rng.uniform(0, 2, (n, 3))[:, 1]):
            values = values.astype(np.float32)
            assert float(dice_leanwall._median(values)) == float(np.median(values))
    strip = rng.uniform(0, 30, (20, 40)).astype(np.float32)[3:17, 5:31]  # a cut of a strip: not contiguous
    assert float(dice_leanwall._median(strip)) == float(np.median(strip))


def _round36_near_black_band(frame_bgr, empty_lab, rect, beyond, channels) -> bool:
    """Round 36's ``dice_walldark._near_black_band``: the empty box's mean L and chroma of each strip taken anew."""
    w = dice_walldark
    empty = empty_lab[rect[0] : rect[1], rect[2] : rect[3]]
    light = float(empty[..., 0].mean())
    ab = np.asarray(empty, np.float32)[..., 1:] - 128.0
    if beyond is None or light < w.LIT_WALL or float(np.sqrt((ab * ab).sum(axis=-1)).mean()) > w.GREY_WALL:
        return False
    seen = lab_unlit(frame_bgr, rect, channels)[..., 0]
    if float(seen.mean()) >= w.DARKER * light or float(np.percentile(seen, 10)) > w.NEAR_BLACK:
        return False
    wall = float(empty_lab[beyond[0] : beyond[1], beyond[2] : beyond[3], 0].mean())
    return float(lab_unlit(frame_bgr, beyond, channels)[..., 0].mean()) >= w.BEYOND * wall


def test_the_wall_dark_checks_strips_from_maps_made_once_a_picture_are_round_36s():
    rng = np.random.default_rng(3701)
    shape = (120, 160)
    empty_bgr = np.full((*shape, 3), 150, np.uint8)
    empty_bgr[:, :40] = (140, 142, 141)  # a lit grey wall
    empty_bgr += rng.integers(0, 8, (*shape, 3), np.uint8)
    empty_lab = cv2.cvtColor(empty_bgr, cv2.COLOR_BGR2Lab)
    maps = dice_walldark._wall_maps(empty_lab)
    assert dice_walldark._wall_maps(empty_lab) is maps  # made once a picture
    answers = set()
    for _ in range(400):
        frame = np.where(rng.random((*shape, 1)) < 0.7, rng.integers(0, 14, (*shape, 3)), empty_bgr).astype(np.uint8)
        y0, x0 = int(rng.integers(0, shape[0] - 3)), int(rng.integers(0, 60))
        rect = (y0, int(rng.integers(y0 + 2, shape[0] + 1)), x0, int(rng.integers(x0 + 2, 80)))
        beyond = dice_walldark._beyond(rect, "L", shape)
        channels = CHANGES[int(rng.integers(3))]
        y0, y1, x0, x1 = rect
        ab = np.asarray(empty_lab[y0:y1, x0:x1], np.float32)[..., 1:] - 128.0  # (round 36's mean chroma of the strip)
        want_light, want_chroma = float(empty_lab[y0:y1, x0:x1, 0].mean()), float(np.sqrt((ab * ab).sum(axis=-1)).mean())
        assert dice_walldark._mean_light(maps[0], rect) == want_light
        assert float(maps[1][y0:y1, x0:x1].copy().mean()) == want_chroma
        got = dice_walldark._near_black_band(frame, empty_lab, rect, beyond, channels)
        assert got == _round36_near_black_band(frame, empty_lab, rect, beyond, channels)
        answers.add(got)
    assert answers == {True, False}


FRAMES = [
    ("t11804-turn7.webp", "t11804", True),  # a die leaning on the right wall, flagged by the leaning check
    ("t11900-turn17.webp", "t11900", False),  # a flat die hugging the top wall (no strip both checks read)
    ("t11501-turn11-x1.2.webp", "t11501", True),  # lamp x1.2: the light change taken out of the strips
    ("t11801-turn0-700K.webp", "t11801", True),  # 700 K warmer
]


@pytest.mark.parametrize(("name", "table", "shared_strips"), FRAMES)
def test_a_twin_frame_reads_alike_with_its_strips_made_once_for_both_checks(
    with_empty_box, monkeypatch, name, table, shared_strips
):
    frame, profile = with_empty_box(name, table)
    made = []
    unlit = dice_wallside.lab_unlit
    monkeypatch.setattr(dice_wallside, "lab_unlit", lambda *a: made.append(a[1]) or unlit(*a))
    read_dice(frame, profile, thrown=6)  # (the profile's maps made)
    made.clear()
    shared = read_dice(frame, profile, thrown=6)
    once = len(made)
    made.clear()
    monkeypatch.setattr(dice, "wall_flags", lambda w, p, d: wall_side_flags(w, p, d) + lean_wall_flags(w, p, d))
    apart = read_dice(frame, profile, thrown=6)
    assert shared == apart
    assert 0 < once < len(made) if shared_strips else once == len(made)  # the leaning check's cut from the other's

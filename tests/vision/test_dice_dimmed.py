"""Round 33 (issue 24): a die top lit brighter than any ritual die clips once the light correction is put on, in its
place's light and in the frame's overall light; read again dimmed below the clip level it shows its frog
(:func:`rig.vision.dice_dimmed.dimmed`), still asked. Twin 11611 (tray floor; a seen table, round 32's fresh set),
thrown turn 7: a yellow die over the right wall's shade read blank ("unknown colour or glare")."""

import numpy as np

from rig.vision import dice, dice_dimmed
from rig.vision.dice import read_dice
from rig.vision.pixel_classes import CLASS_NAMES, CLIPPED

from .dice_twin import faces_near, frame_and_profile

ASKED = f"{dice_dimmed.DIMMED} on die at (551, 292)"


def _read():
    frame, profile = frame_and_profile("t11611-turn7.jpg", "t11611")
    return read_dice(frame, profile, thrown=6)


def test_a_yellow_top_lit_past_the_clip_level_reads_yellow_and_is_asked():
    reading = _read()
    assert faces_near(reading, 551, 292, 12) == ["yellow"]
    assert reading.status == "uncertain"
    assert ASKED in reading.reasons
    assert sorted(d.face for d in reading.dice) == ["blank"] * 4 + ["pink", "yellow"]


def test_not_read_dimmed_it_reads_blank(monkeypatch):
    monkeypatch.setattr(dice, "dimmed", lambda *a: None)
    reading = _read()
    assert faces_near(reading, 551, 292, 12) == ["blank"]
    assert "unknown colour or glare on die at (551, 292)" in reading.reasons


def test_a_top_that_clips_little_or_before_a_frogs_size_is_known_is_not_read_again():
    calls = []
    counts = np.zeros(len(CLASS_NAMES), np.int64)
    counts[CLIPPED] = 5
    crop = (0, 0, 4, 4, np.ones((4, 4), np.uint8))
    size = {"blue": 0.33, "pink": 0.3, "yellow": 0.34}
    args = (crop, (1, 1), None, None, counts, 100, [])
    assert dice_dimmed.dimmed(*args, size, calls.append, calls.append) is None  # 5 % clipped
    counts[CLIPPED] = 50
    assert dice_dimmed.dimmed(*args, {}, calls.append, calls.append) is None  # calibration measuring a frog's size
    assert calls == []

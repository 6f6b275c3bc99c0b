"""Round 35 (issue 24): the floor's "glare" that is plain light (:mod:`rig.vision.dice_unglared`).

Twin 11811 turn 21 (tray floor, lamps of 3846 K and 6220 K; round 34's fresh set, seen since): the strip along the
near wall, lit where the wall cuts the other lamp off, stands 60-130 levels above calibration's smooth floor and is
taken off as glare; the yellow+pink die at (315, 438) in it read as die body in shade and was not found ("5 of the 6
dice thrown seen"). Found with the glare left on, the turn's six dice read right, asked.

Twin 11810 turn 1: a blank die at (513, 261) under the floor's glare read pink with the glare taken off (its violet
body tinted), blank in the frame's overall light (die body all over): read blank, asked."""

import numpy as np
import pytest

from rig.vision import dice
from rig.vision.dice import read_dice
from rig.vision.dice_unglared import BARE_BODY, REASON, bare_body
from rig.vision.pixel_classes import BODY, CLASS_NAMES

from .dice_twin import empty_box_kept, faces_near, flagged_at, frame_and_profile


@pytest.fixture
def near_wall():
    frame, profile = frame_and_profile("t11811-turn21.webp", "t11811")
    with empty_box_kept(profile, "t11811"):
        yield frame, profile


@pytest.fixture
def tinted():
    frame, profile = frame_and_profile("t11810-turn1.webp", "t11810")
    with empty_box_kept(profile, "t11810"):
        yield frame, profile


def test_the_die_in_the_lit_strip_is_found_and_the_turn_reads_right_asked(near_wall):
    reading = read_dice(*near_wall, thrown=6)
    assert faces_near(reading, 315, 438, 8) == ["yellow+pink"]
    assert reading.faces == ["blank", "blank", "blue", "blue+yellow", "pink", "yellow+pink"]
    assert reading.status == "uncertain"
    assert flagged_at(reading, REASON) == [(316.0, 438.0)], reading.reasons


def test_without_it_the_die_is_not_found(near_wall, monkeypatch):
    monkeypatch.setattr(dice, "unglared_dice", lambda *a: None)
    reading = read_dice(*near_wall, thrown=6)
    assert faces_near(reading, 315, 438, 12) == []
    assert len(reading.dice) == 5


def test_not_looked_for_when_every_die_thrown_is_read(near_wall):
    reading = read_dice(*near_wall, thrown=5)  # (five thrown: the reading is not short of a die)
    assert faces_near(reading, 315, 438, 12) == []
    assert flagged_at(reading, REASON) == []


def test_the_blank_die_tinted_by_the_glare_taken_off_reads_blank_asked(tinted):
    reading = read_dice(*tinted, thrown=6)
    assert faces_near(reading, 513, 261, 6) == ["blank"]
    assert reading.faces == ["blank", "blank", "blank", "blue+yellow", "pink", "pink+blue"]
    assert reading.status == "uncertain"


def test_without_the_bare_body_it_reads_pink(tinted, monkeypatch):
    monkeypatch.setattr(dice, "bare_body", lambda *a: False)
    reading = read_dice(*tinted, thrown=6)
    assert faces_near(reading, 513, 261, 6) == ["pink"]


def test_bare_body_only_for_one_colour_read_first_and_a_bare_body_overall():
    counts = np.zeros(len(CLASS_NAMES), np.int64)
    counts[BODY] = int(BARE_BODY * 100)
    clear = ({"blue": 0.0, "pink": 0.0, "yellow": 0.0}, [], [], 0.0)
    assert bare_body((counts, 100), clear, ["pink"])
    assert not bare_body((counts, 100), clear, ["pink", "blue"])  # a combo read first
    assert not bare_body((counts, 100), clear, [])  # read blank first: nothing to take
    assert not bare_body((counts, 101), clear, ["pink"])  # less body than BARE_BODY
    assert not bare_body((counts, 100), ({"blue": 0.0, "pink": 0.05, "yellow": 0.0}, [], ["pink"], 0.0), ["pink"])

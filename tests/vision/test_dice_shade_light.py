"""Round 36 (issue 24): a die top in a wall's deep shade read in its own body's light (:mod:`rig.vision.dice_shade_light`).

Twin 11910 (printed floor, one 2742 K lamp; round 35's fresh set, seen since): the shade map lifts the band along the
near wall 6-10 times per channel, but a die's top there stands above the floor and catches more light, bluer.

Turn 4 (same light): the blank die at (314, 425) in that band, lifted, clips in blue and is left as the frame shows it,
where the colour table calls it the band's near-black floor: not found on ``main`` ("5 of the 6 dice thrown seen").
Over-lifted and die-sized, it is read in its own body's light: blank, asked.

Turn 7 (same light): the blue die at (346, 436) there, not found on ``main``: its body measured along its top's
outline, where no frog lies, its frog reads blue (measured on the whole top, the frog pulls the light off: pink+blue)."""

import pytest

from rig.vision import dice_shade_light
from rig.vision.dice import read_dice
from rig.vision.dice_missed import SHADE_REASON

from .dice_twin import faces_near, flagged_at, frame_and_profile


@pytest.fixture
def turn4():
    return frame_and_profile("t11910-turn4.webp", "t11910")


@pytest.fixture
def turn7():
    return frame_and_profile("t11910-turn7.webp", "t11910")


def test_the_die_the_shade_map_over_lifts_is_found_blank_and_the_turn_reads_right_asked(turn4):
    reading = read_dice(*turn4, thrown=6)
    assert faces_near(reading, 314, 425, 8) == ["blank"]
    assert reading.faces == ["blank", "blank", "blank", "blue", "blue", "yellow"]
    assert reading.status == "uncertain"
    assert len(flagged_at(reading, SHADE_REASON)) == 1
    (x, y), = flagged_at(reading, SHADE_REASON)
    assert abs(x - 314) < 8 and abs(y - 425) < 8


def test_without_it_the_die_is_not_found(turn4, monkeypatch):
    monkeypatch.setattr(dice_shade_light, "overlifted_tops", lambda *a: [])
    reading = read_dice(*turn4, thrown=6)
    assert faces_near(reading, 314, 425, 12) == []
    assert len(reading.dice) == 5


def test_not_looked_for_when_every_die_thrown_is_read(turn4):
    reading = read_dice(*turn4, thrown=5)
    assert faces_near(reading, 314, 425, 12) == []


def test_a_blue_die_there_is_found_blue_its_light_measured_off_its_frog(turn7):
    reading = read_dice(*turn7, thrown=6)
    assert faces_near(reading, 346, 436, 10) == ["blue"]
    assert reading.status == "uncertain"
    assert any(abs(x - 346) < 10 and abs(y - 436) < 10 for x, y in flagged_at(reading, SHADE_REASON))

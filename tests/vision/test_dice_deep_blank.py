"""Round 37 (issue 24): a blank die top in a wall's deep shade, read blue, read again in its own light
(:mod:`rig.vision.dice_deep_blank`).

Twin 11922 turn 18 (same light; round 36's fresh set, seen since): the near wall's band is lifted ~8 times per
channel; the blank die at (383, 84) in it catches the walls' bluer light and, lifted, reads blue ("blue frog of
unusual size") on ``main``. Scaled so that its top's median is the die body's colour, its blue fades to a speck:
read blank, asked."""

import pytest

from rig.vision.dice import read_dice
from rig.vision.dice_deep_blank import DEEP_BLANK

from .dice_twin import empty_box_kept, faces_near, flagged_at, frame_and_profile

TABLE = "t11922"


@pytest.fixture
def turn18():
    return frame_and_profile(f"{TABLE}-turn18.jpg", TABLE)


def test_the_blank_die_in_deep_shade_reads_blank_asked(turn18):
    frame, profile = turn18
    with empty_box_kept(profile, TABLE):
        reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 383, 84, 8) == ["blank"]
    assert sorted(reading.faces) == ["blank", "blue+yellow", "pink", "pink", "pink", "yellow"]
    assert reading.status == "uncertain"
    (x, y), = flagged_at(reading, DEEP_BLANK)
    assert abs(x - 383) < 8 and abs(y - 84) < 8


def test_without_it_the_die_reads_blue(turn18, monkeypatch):
    monkeypatch.setattr("rig.vision.dice.blank_in_own_light", lambda *a: None)
    frame, profile = turn18
    with empty_box_kept(profile, TABLE):
        reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 383, 84, 8) == ["blue"]


def test_not_read_again_before_calibration_keeps_the_empty_box(turn18):
    reading = read_dice(*turn18, thrown=6)
    assert faces_near(reading, 383, 84, 8) == ["blue"]
    assert not flagged_at(reading, DEEP_BLANK)


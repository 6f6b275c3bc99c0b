"""Round 24 (issue 24): a die top joined to die-coloured specks of the floor (twin 10706, round 23's fresh set, seen
now). Under the floor's glare the blue-gray floor beside a die reads blue once the glare is taken off; a lobe of it
joined to the top's edge doubled the top's hull, the frog's shares counted over it: a blue+yellow die read blue
("unclear yellow"), a yellow+pink die read blue ("unclear pink/yellow"). :mod:`rig.vision.dice_specks` cuts the top to
the die-sized square it holds before it is read."""

import numpy as np

from rig.vision import dice_specks
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile


def _near(reading, x, y, r=14):
    return [d.face for d in reading.dice if abs(d.x - x) < r and abs(d.y - y) < r]


def test_a_combo_die_joined_to_blue_floor_specks_is_read_whole():
    # 10706 turn 1: the blue+yellow die at (495, 221), main read "blue" there (flagged); the turn is now read right
    frame, profile = frame_and_profile("t10706-turn1.webp", "t10706")
    reading = read_dice(frame, profile, thrown=6)
    assert _near(reading, 495, 221) == ["blue+yellow"]
    assert sorted(d.face for d in reading.dice) == [
        "blank",
        "blank",
        "blue",
        "blue+yellow",
        "yellow+pink",
        "yellow+pink",
    ]


def test_a_yellow_pink_die_joined_to_blue_floor_specks_is_read_whole():
    # 10706 turn 3: the yellow+pink die at (506, 180), main read "blue" ("unclear pink/yellow"); the turn stays flagged
    # (a blue die lies hidden under another: five of six seen)
    frame, profile = frame_and_profile("t10706-turn3.webp", "t10706")
    reading = read_dice(frame, profile, thrown=6)
    assert _near(reading, 506, 180) == ["yellow+pink"]
    assert reading.status == "uncertain"


def test_without_the_cut_the_dice_read_blue_again(monkeypatch):
    monkeypatch.setattr(dice_specks, "HULL_MOST", np.inf)
    for name, x, y in (("t10706-turn1.webp", 495, 221), ("t10706-turn3.webp", 506, 180)):
        frame, profile = frame_and_profile(name, "t10706")
        reading = read_dice(frame, profile, thrown=6)
        assert _near(reading, x, y) == ["blue"] and reading.status == "uncertain"


def test_a_die_sized_top_is_not_cut():
    top = np.zeros((40, 40), np.uint8)
    top[10:30, 10:30] = 1
    assert dice_specks.speckless(top, 400, 400.0, 0.6) is None
    assert dice_specks.speckless(top, 700, 400.0, 0.6) is not None  # (its hull said to be large: the square is kept)

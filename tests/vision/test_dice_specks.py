"""Round 24 (issue 24): a die top joined to die-coloured specks of the floor (twin 10706, round 23's fresh set, seen
now). Under the floor's glare the blue-gray floor beside a die reads blue once the glare is taken off; a lobe of it
joined to the top's edge doubled the top's hull, the frog's shares counted over it: a blue+yellow die read blue
("unclear yellow"), a yellow+pink die read blue ("unclear pink/yellow"). :mod:`rig.vision.dice_specks` cuts the top to
the die-sized square it holds before it is read."""

import numpy as np

from rig.vision import dice_specks
from rig.vision.dice import read_dice
from rig.vision.pixel_classes import BLUE

from .dice_twin import faces_near, frame_and_profile


def test_a_combo_die_joined_to_blue_floor_specks_is_read_whole():
    # 10706 turn 1: the blue+yellow die at (495, 221), main read "blue" there (flagged); the turn is now read right
    frame, profile = frame_and_profile("t10706-turn1.webp", "t10706")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 495, 221, 14) == ["blue+yellow"]
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
    assert faces_near(reading, 506, 180, 14) == ["yellow+pink"]
    assert reading.status == "uncertain"


def test_without_the_cut_the_dice_read_blue_again(monkeypatch):
    monkeypatch.setattr(dice_specks, "HULL_MOST", np.inf)
    for name, x, y in (("t10706-turn1.webp", 495, 221), ("t10706-turn3.webp", 506, 180)):
        frame, profile = frame_and_profile(name, "t10706")
        reading = read_dice(frame, profile, thrown=6)
        assert faces_near(reading, x, y, 14) == ["blue"] and reading.status == "uncertain"


def test_a_die_sized_top_is_not_cut():
    top = np.zeros((40, 40), np.uint8)
    top[10:30, 10:30] = 1
    lab = np.full((40, 40), BLUE, np.uint8)
    assert dice_specks.speckless(top, lab, 400, 400.0, 0.6) is None
    # its hull said to be large: the square takes it all, nothing is cut off
    assert dice_specks.speckless(top, lab, 700, 400.0, 0.6) is None


def test_a_leaning_dies_lit_side_face_is_not_cut_off():
    # propped twin 5022 turn 2 at lamp x0.8: the pink die leaning at (555, 168), its top joined to its lit side face
    # (die body), a hull of 1.61 tops; cut to the square its blue specks read a pink+blue half (without the frog-colour
    # bound); read whole it reads pink, as main reads it
    frame, profile = frame_and_profile("t5022-propped2-x08.webp", "t5022")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 552, 168, 14) == ["pink"]


def test_without_the_frog_colour_bound_the_leaning_die_reads_a_combo(monkeypatch):
    monkeypatch.setattr(dice_specks, "SPECKS_LEAST", 0.0)
    frame, profile = frame_and_profile("t5022-propped2-x08.webp", "t5022")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 552, 168, 14) == ["pink+blue"]


def test_blank_dice_joined_to_a_small_lobe_of_blue_lit_floor_read_blank():
    # round 24's fresh 10810 turn 2 (seen now; round 25): beside each of two blank dice the floor reads blue in a lobe
    # joined to the top's edge, the blob's filled hull 1.48-1.51 tops; main (HULL_MOST 1.6) read both "blue" (flagged
    # "blue frog of unusual size (glare?)") in every light
    frame, profile = frame_and_profile("t10810-turn2.webp", "t10810")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 277, 232, 14) == ["blank"]
    assert faces_near(reading, 369, 207, 14) == ["blank"]
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "blank", "pink+blue", "yellow", "yellow"]
    assert not any("blue frog of unusual size" in r for r in reading.reasons)


def test_with_round_24s_hull_bound_the_blank_dice_read_blue_again(monkeypatch):
    monkeypatch.setattr(dice_specks, "HULL_MOST", 1.6)
    frame, profile = frame_and_profile("t10810-turn2.webp", "t10810")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 277, 232, 14) == ["blue"]
    assert faces_near(reading, 369, 207, 14) == ["blue"]
    assert reading.status == "uncertain"

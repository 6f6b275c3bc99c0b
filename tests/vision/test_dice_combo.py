"""A two-colour frog whose second half reads only "unclear" (issue 24, round 19): the half-size frog beside it says the
die is a combo (:mod:`rig.vision.dice_combo`). Twin 10200 turn 3 and 10205 turn 1 (round 18's fresh set, seen now),
committed as JPEG 4:4:4 q95 with their tables' profiles: ``main`` read both as their yellow half, flagged."""

from rig.vision.dice import read_dice
from rig.vision.dice_combo import half_partner

from .dice_twin import faces_near, frame_and_profile


def test_a_yellow_pink_die_whose_pink_half_lies_in_its_own_shade_reads_yellow_pink_still_flagged():
    frame, profile = frame_and_profile("t10200-turn3.jpg", "t10200")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 315, 410, 12) == ["yellow+pink"]
    assert reading.status == "uncertain" and any(r.startswith("unclear pink") for r in reading.reasons)


def test_a_blue_yellow_die_with_a_pale_blue_half_reads_blue_yellow_still_flagged():
    frame, profile = frame_and_profile("t10205-turn1.jpg", "t10205")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 481, 189, 12) == ["blue+yellow"]
    assert reading.status == "uncertain" and any(r.startswith("unclear blue") for r in reading.reasons)


def test_a_whole_frog_with_a_speck_of_another_colour_stays_one_colour():
    frog = {"blue": 0.41, "pink": 0.44, "yellow": 0.43}
    assert half_partner({"blue": 0.06, "pink": 0.0, "yellow": 0.35}, ["yellow"], ["blue"], frog) is None
    assert half_partner({"blue": 0.06, "pink": 0.0, "yellow": 0.25}, ["yellow"], ["blue"], frog) == "blue"
    assert half_partner({"blue": 0.0, "pink": 0.0, "yellow": 0.25}, ["yellow"], [], frog) is None
    assert half_partner({"blue": 0.2, "pink": 0.05, "yellow": 0.2}, ["blue", "yellow"], ["pink"], frog) is None

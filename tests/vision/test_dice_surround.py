"""Round 25 (issue 24): a pink die whose lit body reads blue round its frog, read "pink+blue" with status ok (thrown twin
5022 turn 0, in the same light and at lamp x1.2; a seen table). A combo's two halves lie side by side; one colour
round the other's middle is flagged (:mod:`rig.vision.dice_surround`)."""

import numpy as np

from rig.vision import dice_surround
from rig.vision.dice import read_dice
from rig.vision.pixel_classes import COLOUR_CLASSES

from .dice_twin import faces_near, frame_and_profile

ROUND = "blue/pink one round the other (die body read as a frog colour?)"


def test_a_pink_die_ringed_by_its_blue_lit_body_is_flagged():
    frame, profile = frame_and_profile("t5022-turn0.webp", "t5022")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 516, 191, 14) == ["pink"]  # the colour ringed, its frog (round 30), still asked
    assert reading.status == "uncertain"
    assert [r for r in reading.reasons if "one round the other" in r] == [f"{ROUND} on die at (517, 190)"]
    # the blue+yellow die on the same table reads as before, unflagged: its halves lie side by side
    assert faces_near(reading, 181, 283, 14) == ["blue+yellow"]
    assert not any("(181, 28" in r for r in reading.reasons)


def test_without_the_bound_the_turn_reads_ok(monkeypatch):
    monkeypatch.setattr(dice_surround, "SURROUND_MOST", 360.0)
    frame, profile = frame_and_profile("t5022-turn0.webp", "t5022")
    assert read_dice(frame, profile, thrown=6).status == "ok"


def test_two_halves_side_by_side_are_not_round_each_other():
    pink, blue = COLOUR_CLASSES["pink"], COLOUR_CLASSES["blue"]
    lab = np.zeros((24, 24), np.uint8)
    lab[4:12, 4:20], lab[12:20, 4:20] = pink, blue  # a pink half above a blue half
    assert not dice_surround.surrounded(lab, np.ones_like(lab), ["pink", "blue"])
    lab[1:4, :] = lab[:, 20:23] = blue  # blue round three sides of the pink half too
    assert dice_surround.surrounded(lab, np.ones_like(lab), ["pink", "blue"])

"""Round 30 (issue 24): a yellow die whose violet body a 2713 K lamp lights pink round its frog, read "yellow+pink"
(flagged "one round the other") in every light of thrown twin 11308 turn 3 (a seen table, varnished wood). The
frog is the colour the other rings (:func:`rig.vision.dice_surround.ringed`): the die reads yellow, still asked."""

import numpy as np

from rig.vision import dice_surround
from rig.vision.dice import read_dice
from rig.vision.pixel_classes import COLOUR_CLASSES

from .dice_twin import faces_near, frame_and_profile

ROUND = "pink/yellow one round the other (die body read as a frog colour?) on die at (601, 455)"


def test_a_yellow_die_ringed_by_its_pink_lit_body_reads_yellow_and_is_asked():
    frame, profile = frame_and_profile("t11308-turn3.webp", "t11308")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 601, 455, 14) == ["yellow"]
    assert reading.status == "uncertain"
    assert ROUND in reading.reasons
    # the table's other dice read as before, its blue+yellow combo too (halves side by side)
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "blue", "blue", "blue+yellow", "yellow"]


def test_without_the_ring_bound_it_reads_the_combo(monkeypatch):
    monkeypatch.setattr(dice_surround, "RING_BEYOND", 1.01)
    frame, profile = frame_and_profile("t11308-turn3.webp", "t11308")
    assert faces_near(read_dice(frame, profile, thrown=6), 601, 455, 14) == ["yellow+pink"]


def _top(size: int = 30) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros((size, size), np.uint8), np.ones((size, size), np.uint8)


def test_the_colour_ringed_is_the_frog():
    lab, mask = _top()
    lab[3:27, 3:27] = COLOUR_CLASSES["pink"]  # a lit body all round
    lab[10:20, 10:20] = COLOUR_CLASSES["yellow"]  # the frog in the middle
    assert dice_surround.ringed(lab, mask, ["pink", "yellow"]) == "yellow"
    assert dice_surround.ringed(lab, mask, ["yellow", "pink"]) == "yellow"


def test_two_halves_side_by_side_with_a_speck_at_the_rim_are_no_ring():
    """Twin 10005 turn 0's yellow+pink die: its yellow half and a yellow sliver at the rim lie round the pink half's
    middle ("one round the other", flagged), yet half the yellow lies within the pink's reach: still a combo."""
    lab, mask = _top()
    lab[8:22, 8:15] = COLOUR_CLASSES["pink"]
    lab[8:22, 15:22] = COLOUR_CLASSES["yellow"]
    lab[5:25, 1:3] = COLOUR_CLASSES["yellow"]  # the sliver at the far rim
    assert dice_surround.ringed(lab, mask, ["pink", "yellow"]) is None

"""Round 31 (issue 24): a blank die under the lamp's mirror image on twin 11405 (felt, a 5168 K lamp; a seen table),
thrown turn 0, read "yellow" on 0.88 of its top (flagged): those "yellow" pixels are grey (Lab a*b* near (1, -4)),
no frog. A frog colour read grey or off its hue is left out (:func:`rig.vision.dice_hue.no_frog_colours`): the die
reads blank, still asked."""

from types import SimpleNamespace

import numpy as np

from rig.vision import dice, dice_hue
from rig.vision.dice import read_dice
from rig.vision.pixel_classes import COLOUR_CLASSES

from .dice_twin import faces_near, frame_and_profile

ASKED = f"yellow {dice_hue.NO_FROG} on die at (104, 164)"


def test_a_blank_die_under_the_lamps_image_reads_blank_and_is_asked():
    frame, profile = frame_and_profile("t11405-turn0.jpg", "t11405")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 103, 164, 14) == ["blank"]
    assert reading.status == "uncertain"
    assert ASKED in reading.reasons
    # the table's true yellow dice keep their frogs: the turn reads as thrown
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "blue", "pink", "yellow", "yellow"]


def test_without_the_rule_it_reads_the_lamps_image_as_yellow(monkeypatch):
    monkeypatch.setattr(dice, "no_frog_colours", lambda *args: [])
    frame, profile = frame_and_profile("t11405-turn0.jpg", "t11405")
    assert faces_near(read_dice(frame, profile, thrown=6), 103, 164, 14) == ["yellow"]


def _profile(yellow_lab=(190.0, 125.0, 168.0)):
    return SimpleNamespace(colour=lambda c: SimpleNamespace(mean=yellow_lab))


def _top(bgr) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    small = np.empty((12, 12, 3), np.uint8)
    small[:] = bgr
    labels = np.full((12, 12), COLOUR_CLASSES["yellow"], np.uint8)
    return small, labels, np.ones((12, 12), bool)


def test_grey_or_off_hue_yellow_is_no_frog_and_true_yellow_is():
    assert dice_hue.no_frog_colours(*_top((150, 150, 148)), ["yellow"], _profile()) == ["yellow"]  # grey
    assert dice_hue.no_frog_colours(*_top((200, 120, 200)), ["yellow"], _profile()) == ["yellow"]  # mauve
    assert dice_hue.no_frog_colours(*_top((40, 200, 220)), ["yellow"], _profile()) == []  # yellow
    # a colour whose own model is grey is not judged by its pixels' greyness
    assert dice_hue.no_frog_colours(*_top((150, 150, 148)), ["yellow"], _profile((150.0, 129.0, 131.0))) == []

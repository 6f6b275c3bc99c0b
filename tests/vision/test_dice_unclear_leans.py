"""Round 34 (issue 24): the second look does not free a die flagged "unclear" for a colour whose share leans to
present. Twin 11802 turn 0 (round 34's fresh set): a blue+yellow die by the left wall at (102, 214), its blue half in
the wall's shade at 0.097 of the top (present from 0.109), read yellow; the net, sure of yellow, freed it: ``ok``."""

from types import SimpleNamespace

from rig.vision import dice_second_look
from rig.vision.dice import read_dice
from rig.vision.dice_flag import Flag

from .dice_twin import faces_near

THRESHOLDS = SimpleNamespace(colour_present=0.1, colour_absent=0.04)


def test_the_combo_read_without_its_shaded_half_stays_flagged(with_empty_box):
    frame, profile = with_empty_box("t11802-turn0.webp", "t11802")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 102, 214, 6) == ["yellow"]  # still misread: now asked
    assert reading.status == "uncertain"
    assert list(reading.reasons) == ["unclear blue on die at (102, 214)"]


def test_without_the_bound_the_second_look_frees_it(with_empty_box, monkeypatch):
    monkeypatch.setattr(dice_second_look, "LEANS_PRESENT", 1.0)
    frame, profile = with_empty_box("t11802-turn0.webp", "t11802")
    assert read_dice(frame, profile, thrown=6).status == "ok"


def test_a_colour_nearer_absent_is_left_to_the_net():
    reasons = [Flag("unclear pink", 10, 10, True), Flag("cocked die", 50, 50)]
    assert not dice_second_look._leans_present(reasons, [0], (0.0, 0.065, 0.3), THRESHOLDS)
    assert dice_second_look._leans_present(reasons, [0], (0.0, 0.075, 0.3), THRESHOLDS)
    assert not dice_second_look._leans_present(reasons, [1], (0.0, 0.075, 0.3), THRESHOLDS)  # not the die's flag


def test_either_colour_of_a_two_colour_flag_counts():
    reasons = [Flag("unclear blue/pink", 10, 10, True)]
    assert dice_second_look._leans_present(reasons, [0], (0.02, 0.09, 0.0), THRESHOLDS)
    assert not dice_second_look._leans_present(reasons, [0], (0.05, 0.06, 0.0), THRESHOLDS)

"""The twin's twelfth round (issue 24): a die whose flank comes near the flank test's bound is judged too."""

import rig.vision.dice_cocked as dice_cocked
import rig.vision.dice_second_look as second_look
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile


def test_a_die_leaning_on_the_wall_just_inside_the_flank_tests_bound_is_flagged(monkeypatch):
    # twin table 8902 (seen: round 11's fresh set), turn 3: the blank die at (352, 108) leans 30 degrees on
    # the far wall, its dark side face beyond its top. Its flank's moment is 0.85 of what this table's flat
    # dice stray, under the flank test's bound: it passed as flat, the turn "ok". The fitted verdict calls
    # it cocked (score 1.15, the bar for a die near the bound 0.5).
    frame, profile = frame_and_profile("t8902-turn3.jpg", "t8902")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.faces == ["blank"] * 3 + ["pink", "pink", "yellow"]
    assert reading.reasons == ("cocked die at (353, 109)",)
    assert [d.cocked for d in reading.dice if abs(d.x - 352) < 5] == [True]
    monkeypatch.setattr(dice_cocked, "NEAR", 1.0)  # main's flank test: the bound alone
    before = read_dice(frame, profile, thrown=6)
    assert before.status == "ok" and not any(d.cocked for d in before.dice)


def test_a_flat_die_near_the_bound_the_verdict_calls_flat_stays_unflagged(monkeypatch):
    # twin table 111 (tuning), turn 2, lamp x1.2: the flat yellow die at (294, 250) in a neighbour's shadow has
    # a flank's moment 0.92 of the bound, but the verdict scores it -1.50: under the near die's bar, the turn
    # stays "ok". At the verdict's own threshold (-2.07, kept for dice past the bound) it would be flagged.
    frame, profile = frame_and_profile("t111-turn2-bright.jpg", "t111")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.status == "ok" and reading.reasons == ()
    assert reading.faces == ["blank", "pink", "pink+blue", "yellow", "yellow", "yellow"]
    monkeypatch.setattr(dice_cocked, "NEAR_SCORE", -10.0)
    monkeypatch.setattr(second_look, "FLANK_GUARD_SURE", 1.01)  # (round 36's flank guard frees its square top)
    lower_bar = read_dice(frame, profile, thrown=6)
    assert lower_bar.reasons == ("cocked die at (295, 251)",)

"""Round 27 (issue 24): a die called cocked for its top's aspect alone, freed on its own top's size."""

import rig.vision.dice_second_look as second
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile

FACES = ["blank", "blank", "blue", "blue+yellow", "pink", "yellow+pink"]


def test_a_flat_die_whose_top_reads_over_whole_is_freed():
    # twin table 10407 (seen, fitted on), turn 0 in its own light: the blue die at (152, 282) lies flat; the top's
    # aspect test calls it cocked (aspect 0.79, its top read 1.2 tops: a lit strip joined to it), the net reads it
    # flat with its face. Main keeps "cocked die" twice over: the top is not square, and the guard on the other dice
    # (a flat pink die the net gives 0.41 for not lying flat) holds the reading.
    frame, profile = frame_and_profile("t10407-turn0.webp", "t10407")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.status == "ok" and reading.reasons == () and reading.faces == FACES
    assert not any(d.cocked for d in reading.dice)


def test_the_top_size_rule_and_its_guard_are_what_free_it(monkeypatch):
    frame, profile = frame_and_profile("t10407-turn0.webp", "t10407")
    monkeypatch.setattr(second, "OVER_WHOLE", 99.0)  # no top is that large: main's square rule alone
    assert read_dice(frame, profile, thrown=6).reasons == ("cocked die at (152, 282)",)
    monkeypatch.setattr(second, "OVER_WHOLE", 1.0)
    monkeypatch.setattr(second, "WHOLE_GUARD", second.COCKED_GUARD)  # the guard as for any other die: held
    held = read_dice(frame, profile, thrown=6)
    assert held.reasons == ("cocked die at (152, 282)",) and held.faces == FACES


def test_only_a_plain_cocked_die_is_freed_on_its_top_size():
    assert second.over_whole(["cocked die at (10, 20)"], [0], 1.2)
    assert not second.over_whole(["cocked die at (10, 20)"], [0], 0.95)  # a leaning die's top: foreshortened
    assert not second.over_whole(["unclear pink on die at (10, 20)"], [0], 1.29)  # twin 10309 turn 3, truly cocked
    side = "cocked die (its side face beyond the top's outer edge) at (10, 20)"
    assert not second.over_whole([side], [0], 1.2)
    assert not second.over_whole(["cocked die at (10, 20)", "unclear pink on die at (10, 20)"], [0, 1], 1.2)


def test_the_guard_is_laxer_only_when_every_die_was_freed_on_its_top_size():
    assert second.guard_bound([1, 3], {1, 3}) == second.WHOLE_GUARD
    assert second.guard_bound([1, 3], {1}) == second.COCKED_GUARD
    assert second.guard_bound([], set()) == second.COCKED_GUARD
    assert second.COCKED_GUARD < second.WHOLE_GUARD

"""The second look's rules for a die flagged only by the flank test (issue 24; ``dice_second_look``).

Round 35 (``flank_square``): its top passing the top's aspect test but short of the second look's square, it is freed
when the net is :data:`~rig.vision.dice_second_look.FLANK_FLAT_SURE` sure it lies flat and reads its face surely.
Round 36 (``flank_only``, ``guard_bound``): once the second look frees a square, whole top only the flank test called
cocked, the net :data:`~rig.vision.dice_second_look.FLANK_GUARD_SURE` sure it lies flat, the guard on the other dice
asks them at :data:`~rig.vision.dice_second_look.FLANK_GUARD`, not at ``COCKED_GUARD``."""

import numpy as np
import pytest

import rig.vision.dice_second_look as sl
from rig.vision.dice import read_dice
from rig.vision.dice_flag import Flag

#: twin 11801 turn 0, 700 K warmer: six flat dice read right; on main (round 34) flagged only "cocked die" at the pink
#: die at (145, 124): the flank test, its top 0.897 (under SQUARE 0.9), the net 0.98 flat
SHORT_OF_SQUARE = ("t11801-turn0-700K.webp", "t11801", ["blank", "blank", "blank", "pink", "pink", "yellow"])
#: twin 11909 turn 6, same light: six flat dice read right; on main (round 35) flagged only "cocked die" at the blank
#: die at (471, 393): the flank test, its top square (1.23), the net 0.96 flat; a flat neighbour the net gives 0.59
#: for lying flat held the reading under COCKED_GUARD
DOUBTED_NEIGHBOUR = ("t11909-turn6.webp", "t11909", ["blank", "blank", "blank", "blue", "pink", "yellow"])


@pytest.mark.parametrize("turn", [SHORT_OF_SQUARE, DOUBTED_NEIGHBOUR], ids=["short-of-square", "doubted-neighbour"])
def test_a_flat_die_only_the_flank_test_flags_is_freed(with_empty_box, turn):
    name, table, faces = turn
    frame, profile = with_empty_box(name, table)
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(d.face for d in reading.dice) == faces
    assert reading.status == "ok"


@pytest.mark.parametrize("turn, rule_off", [
    (SHORT_OF_SQUARE, ("FLANK_FLAT_SURE", 1.01)),  # the net not that sure
    (DOUBTED_NEIGHBOUR, ("FLANK_GUARD", sl.COCKED_GUARD)),  # the guard asking as it asks any die
], ids=["short-of-square", "doubted-neighbour"])
def test_still_flagged_without_the_rule(with_empty_box, monkeypatch, turn, rule_off):
    monkeypatch.setattr(sl, *rule_off)
    name, table, _ = turn
    frame, profile = with_empty_box(name, table)
    reading = read_dice(frame, profile, thrown=6)
    assert [Flag.parse(r).kind for r in reading.reasons] == ["cocked die"]


def _row(flat: float) -> np.ndarray:
    return np.array([flat, 1.0 - flat, 0.0, *([0.0] * len(sl.FACES))])


def test_only_a_plain_cocked_flag_on_a_whole_top_the_aspect_test_passed():
    cocked, unclear = [Flag("cocked die", 10, 10)], [Flag("cocked die", 10, 10), Flag("unclear pink", 10, 10)]
    assert sl.flank_square(cocked, [0], 0.895, 0.9, _row(0.95), 0.84)
    assert not sl.flank_square(cocked, [0], 0.83, 0.9, _row(0.95), 0.84)  # the aspect test's die: not this rule's
    assert not sl.flank_square(cocked, [0], 0.88, 0.9, _row(0.95), 0.84)  # under FLANK_TOP: a drawn leaning die may pass the net
    assert not sl.flank_square(cocked, [0], 0.895, 0.6, _row(0.95), 0.84)  # a top not whole
    assert not sl.flank_square(cocked, [0], 0.895, 0.9, _row(0.85), 0.84)  # the net not sure enough
    assert not sl.flank_square(unclear, [0, 1], 0.895, 0.9, _row(0.95), 0.84)  # another flag of its own


def test_only_a_plain_cocked_flag_on_a_square_whole_top_the_aspect_test_passed_the_net_sure():
    cocked, unclear = [Flag("cocked die", 10, 10)], [Flag("cocked die", 10, 10), Flag("unclear pink", 10, 10)]
    sure = _row(0.95)
    assert sl.flank_only(cocked, [0], 1.05, 0.9, sure, 0.84)
    assert not sl.flank_only(cocked, [0], 0.83, 0.9, sure, 0.84)  # the aspect test's die
    assert not sl.flank_only(cocked, [0], 0.895, 0.9, sure, 0.84)  # not square (flank_square's die keeps COCKED_GUARD)
    assert not sl.flank_only(cocked, [0], 1.05, 0.6, sure, 0.84)  # a top not whole
    # the net not that sure: the speed corpus's virtual-dim-1, a die leaning 28.5 degrees, top 0.95, the net 0.83;
    # twin 10001 turn 19 (lamp x0.8), a die leaning on a wall, top 0.98, 1.11 tops, the net 0.904
    assert not sl.flank_only(cocked, [0], 0.95, 0.93, _row(0.83), 0.84)
    assert not sl.flank_only(cocked, [0], 0.978, 1.108, _row(0.904), 0.84)
    assert not sl.flank_only(unclear, [0, 1], 1.05, 0.9, sure, 0.84)  # another flag of its own
    assert not sl.flank_only([Flag("die partly hidden or on edge", 10, 10)], [0], 1.05, 0.9, sure, 0.84)


def test_the_guard_by_what_freed_the_dice():
    assert sl.guard_bound([0, 1], {0, 1}, set()) == sl.WHOLE_GUARD
    assert sl.guard_bound([0, 1], {0}, {1}) == sl.FLANK_GUARD
    assert sl.guard_bound([0, 1], set(), {0, 1}) == sl.FLANK_GUARD
    assert sl.guard_bound([0, 1], set(), {0}) == sl.COCKED_GUARD
    assert sl.guard_bound([], set(), set()) == sl.COCKED_GUARD

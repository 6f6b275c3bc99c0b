"""Round 36 (issue 24): once the second look frees a square, whole top only the flank test called cocked, the net
:data:`~rig.vision.dice_second_look.FLANK_GUARD_SURE` sure it lies flat, the guard on the other dice asks them at
:data:`~rig.vision.dice_second_look.FLANK_GUARD`, not at ``COCKED_GUARD`` (``dice_second_look.flank_only``,
``guard_bound``)."""

import numpy as np

import rig.vision.dice_second_look as sl
from rig.vision.dice import read_dice
from rig.vision.dice_flag import Flag

FACES = ["blank", "blank", "blank", "blue", "pink", "yellow"]


def test_a_square_top_only_the_flank_test_flags_is_freed_past_a_doubted_flat_neighbour(with_empty_box):
    # twin 11909 turn 6, same light: six flat dice read right; on main flagged only "cocked die" at the blank die at
    # (471, 393): the flank test, its top square (1.23), the net 0.96 flat; a flat neighbour the net gives 0.59 for
    # lying flat held the reading under COCKED_GUARD
    frame, profile = with_empty_box("t11909-turn6.webp", "t11909")
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(d.face for d in reading.dice) == FACES
    assert reading.status == "ok"


def test_still_flagged_when_the_guard_asks_as_it_asks_any_die(with_empty_box, monkeypatch):
    monkeypatch.setattr(sl, "FLANK_GUARD", sl.COCKED_GUARD)
    frame, profile = with_empty_box("t11909-turn6.webp", "t11909")
    reading = read_dice(frame, profile, thrown=6)
    assert [Flag.parse(r).kind for r in reading.reasons] == ["cocked die"]


def _row(flat: float) -> np.ndarray:
    return np.array([flat, 1.0 - flat, 0.0, *([0.0] * len(sl.FACES))])


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

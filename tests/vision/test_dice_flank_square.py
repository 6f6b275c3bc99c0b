"""Round 35 (issue 24): a die flagged only by the flank test, its top passing the top's aspect test but short of the
second look's square, is freed when the net is :data:`~rig.vision.dice_second_look.FLANK_FLAT_SURE` sure it lies flat
and reads its face surely (``dice_second_look.flank_square``)."""

import numpy as np

import rig.vision.dice_second_look as sl
from rig.vision.dice import read_dice
from rig.vision.dice_flag import Flag

FACES = ["blank", "blank", "blank", "pink", "pink", "yellow"]


def test_a_flat_die_the_flank_test_flags_its_top_just_short_of_square_is_freed(with_empty_box):
    # twin 11801 turn 0, 700 K warmer: six flat dice read right; on main flagged only "cocked die" at the pink die
    # at (145, 124): the flank test, its top 0.897 (under SQUARE 0.9), the net 0.98 flat
    frame, profile = with_empty_box("t11801-turn0-700K.webp", "t11801")
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(d.face for d in reading.dice) == FACES
    assert reading.status == "ok"


def test_still_flagged_when_the_net_is_not_that_sure(with_empty_box, monkeypatch):
    monkeypatch.setattr(sl, "FLANK_FLAT_SURE", 1.01)
    frame, profile = with_empty_box("t11801-turn0-700K.webp", "t11801")
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

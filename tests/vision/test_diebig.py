"""A die's box far bigger than the frame's other dice is flagged, never dropped (rig.vision.diebig; issue 25, round 19)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from rig.vision.anydie_params import AnyDieParams
from rig.vision.diebig import big_box_reason, flag_big_boxes
from rig.vision.dicenet import Candidate, read_dice
from rig.vision.pips import PipCount, PipDie


def _die(x: int, y: int, side: int, pips: int = 3, status: str = "ok") -> PipDie:
    return PipDie((x, y, side, side), PipCount(pips, (), 0.95, status, () if status == "ok" else ("faint",)))


def test_a_box_around_several_small_dice_is_flagged_and_kept():
    # round 18's coloured x0.4 case: dice of about 16 px, one box of 82 px around two or more of them read as 2
    dice = [_die(10, 10, 16), _die(60, 12, 17), _die(100, 40, 82, pips=2), _die(30, 90, 15)]
    got = flag_big_boxes(dice, AnyDieParams().big_box)
    assert [d.pips for d in got] == [3, 3, 2, 3]  # nothing dropped, nothing read otherwise
    assert [d.count.status for d in got] == ["ok", "ok", "uncertain", "ok"]
    assert "times the frame's other dice" in got[2].count.reasons[-1]


def test_dice_of_one_size_and_a_lone_die_are_not_flagged():
    near = [_die(10, 10, 40), _die(80, 10, 52), _die(150, 10, 61)]  # perspective: 40-61 px, under twice the median
    assert flag_big_boxes(near, 2.0) == near
    assert flag_big_boxes([_die(0, 0, 200)], 2.0) == [_die(0, 0, 200)]  # nothing to compare with


def test_a_lone_die_beside_a_flagged_speck_is_not_flagged():
    # coloured x1 (main's nets): a die of 22 px, and a 1 of 10 px the finder is unsure of (flagged): no other ok die
    dice = [_die(416, 134, 22, pips=5), _die(176, 442, 10, pips=1, status="uncertain")]
    assert flag_big_boxes(dice, 2.0) == dice


def test_only_ok_dice_are_flagged_and_ratio_zero_looks_at_nothing():
    dice = [_die(10, 10, 16), _die(100, 40, 82, status="uncertain")]
    assert flag_big_boxes(dice, 2.0) == dice  # already flagged: its reasons unchanged
    big = [_die(10, 10, 16), _die(100, 40, 82)]
    assert flag_big_boxes(big, 0.0) == big
    assert big_box_reason(33.0, [16.0], 2.0) is not None and big_box_reason(32.0, [16.0], 2.0) is None


class _Nets:
    """The finder's candidates given, as :meth:`rig.vision.dicenet.DiceNet.candidates` returns them."""

    def __init__(self, cands: list[Candidate]) -> None:
        self.cands = cands

    def candidates(self, frame, floor, die_px=0.0, keep=None, worth=None):
        return self.cands


def _sure(x: float, y: float, side: float, pips: int) -> Candidate:
    probs = np.full(7, 0.002)
    probs[pips] = 1.0 - 6 * 0.002
    return Candidate(x, y, side, 0.85, probs)


def test_read_dice_flags_the_big_box_and_reads_the_rest_as_before():
    frame = np.zeros((240, 320, 3), np.uint8)
    cands = [_sure(30, 30, 16, 4), _sure(80, 30, 16, 5), _sure(200, 150, 80, 2)]
    p = replace(AnyDieParams(), check_ok=0.0, one_check_ok=0.0, alone_check_ok=0.0)  # the second opinion aside
    got = read_dice(frame, p, _Nets(cands))
    assert [(d.pips, d.count.status) for d in got] == [(4, "ok"), (5, "ok"), (2, "uncertain")]
    before = read_dice(frame, replace(p, big_box=0.0), _Nets(cands))
    assert [(d.pips, d.count.status) for d in before] == [(4, "ok"), (5, "ok"), (2, "ok")]  # without the rule: silent

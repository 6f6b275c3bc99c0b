"""Issue 25, round 36: with the dice count known and more dice found, a big die's pips found as dice are read again as
the one die their layout spans, flagged (:mod:`rig.vision.diepipgroup`)."""

from pathlib import Path

import cv2

from rig.vision import diepipgroup
from rig.vision.anydie import AnyDieParams, read_pip_dice
from rig.vision.pips import PipCount, PipDie

TWIN = Path(__file__).parent / "pip_twin"


def _die(x: int, y: int, side: int, status: str = "uncertain") -> PipDie:
    return PipDie((x - side // 2, y - side // 2, side, side), PipCount(6, (), 0.5, status, ()))


def test_flagged_dice_near_one_another_are_grouped_and_dice_read_ok_never():
    dice = [_die(100, 100, 20), _die(140, 100, 20), _die(180, 100, 20), _die(400, 100, 20),
            _die(220, 100, 20, "ok")]
    assert diepipgroup.groups(dice, 2.5) == [[0, 1, 2]]
    assert diepipgroup.groups(dice, 1.5) == []  # 40 px apart, 20 px boxes: linked from 2 sides
    assert diepipgroup.groups(dice, 2.5, among={1, 2, 3}) == [[1, 2]]


def test_a_big_dies_pips_found_as_dice_are_read_as_that_die(nets, monkeypatch):
    """Pip twin 12407 throw 0 (seen; 640x480 as JPEG q75, one green die, its top 172 px, showing 6 on knotted wood):
    the pyramid's finest level wins and its six pips are found as six dice of 20-27 px; now one die, read 6, flagged."""
    frame = cv2.imread(str(TWIN / "t12407-throw0.jpg"))
    reading = read_pip_dice(frame, AnyDieParams(), expected=(1,))
    assert [d.pips for d in reading.dice] == [6] and reading.status == "uncertain"
    (die,) = reading.dice
    assert diepipgroup.GROUPED in die.count.reasons and die.box[2] > 120
    assert abs(die.centre[0] - 400) < 30 and abs(die.centre[1] - 255) < 30
    unknown = read_pip_dice(frame, AnyDieParams())  # the dice count not known: nothing merged
    assert len(unknown.dice) >= 5 and not any(diepipgroup.GROUPED in d.count.reasons for d in unknown.dice)
    monkeypatch.setattr(diepipgroup, "GROUP_SURE", 1.01)
    assert len(read_pip_dice(frame, AnyDieParams(), expected=(1,)).dice) >= 5

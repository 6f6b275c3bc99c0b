"""Issue 25, round 36: with the dice count known and more dice found, a big die's pips found as dice are read again as
the one die their layout spans, flagged (:mod:`rig.vision.diepipgroup`)."""

from pathlib import Path

import cv2
import numpy as np

from rig.vision import diepipgroup
from rig.vision.anydie import AnyDieParams, read_pip_dice
from rig.vision.pips import PipCount, PipDie

from .pip_stubs import probs

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


class _ReadsInSide:
    """Reads a box whose side lies in ``sides`` as ``k`` pips 0.97 sure, any other as no die."""

    crop = 48

    def __init__(self, k: int, sides: tuple[float, float]) -> None:
        self.k, self.sides = k, sides

    def read(self, boxes):
        return [probs(self.k, 0.97) if self.sides[0] <= side <= self.sides[1] else probs(0, 0.9)
                for _, _, side in boxes]


def test_an_aslant_dies_pips_are_read_in_boxes_nearer_their_span(monkeypatch):
    """Round 37, twin 12505 throw 1: a black 5 turned aslant, its five pips found as dice spanning 94 px of its 123
    (on dark felt no body patch): read 5 at 0.97 in 1.2-1.4 spans, in none of the 1.8-2.2 spans tried before; a group of
    two (two dice, each found as one, twin 12502 throw 0) is not read so."""
    monkeypatch.setattr(diepipgroup, "crop_die", lambda frame, x, y, side, size: (x, y, side))
    felt = np.full((300, 400, 3), (95, 90, 100), np.uint8)
    five = [_die(153, 143, 32), _die(200, 149, 30), _die(247, 155, 30), _die(192, 196, 29), _die(202, 104, 49)]
    die = diepipgroup._one_die(felt, five, [], _ReadsInSide(5, (110, 135)))
    assert die is not None and die.pips == 5 and 110 <= die.box[2] <= 135
    assert diepipgroup.GROUPED in die.count.reasons and abs(die.centre[0] - 200) < 3 and abs(die.centre[1] - 150) < 3
    two = [_die(150, 60, 40), _die(160, 240, 40)]  # 180 px apart: 1.2 spans, 216 px, would read
    assert diepipgroup._one_die(felt, two, [], _ReadsInSide(2, (200, 230))) is None

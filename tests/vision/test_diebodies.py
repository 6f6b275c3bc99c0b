"""Issue 25, round 36: with the dice count known, fewer dice found and none of them sure, the finder's faint peaks'
body patches read surely as dice are added, flagged (:mod:`rig.vision.diebodies`)."""

from pathlib import Path

import cv2

from rig.vision import diebodies
from rig.vision.anydie import AnyDieParams, read_pip_dice

TWIN = Path(__file__).parent / "pip_twin"
#: pip twin 12300 throw 1's dice, value at (x, y)
TRUTH = {(1597, 590): 3, (971, 453): 6, (1073, 770): 6, (526, 439): 4}


def _right(reading) -> int:
    return sum(any(abs(d.centre[0] - x) < 60 and abs(d.centre[1] - y) < 60 and d.pips == v for d in reading.dice)
               for (x, y), v in TRUTH.items())


def test_big_dice_no_die_found_lends_a_colour_to_are_found_by_their_bodies(nets, monkeypatch):
    """Pip twin 12300 throw 1 (seen; 1920x1080 as JPEG q60, four 258 px blue dice on knotted wood, a bead, a white
    disc): only the bead is found (a 1, flagged); now three of the dice too, read right, flagged."""
    frame = cv2.imread(str(TWIN / "t12300-throw1.jpg"))
    reading = read_pip_dice(frame, AnyDieParams(), expected=(4,))
    assert _right(reading) == 3 and reading.status == "uncertain"
    assert sum(diebodies.BODIED in d.count.reasons for d in reading.dice) == 3
    assert all(d.count.status == "uncertain" for d in reading.dice)
    unknown = read_pip_dice(frame, AnyDieParams())  # the dice count not known: none added
    assert not any(diebodies.BODIED in d.count.reasons for d in unknown.dice)
    monkeypatch.setattr(diebodies, "SEED_SURE", 1.01)
    assert _right(read_pip_dice(frame, AnyDieParams(), expected=(4,))) == 0

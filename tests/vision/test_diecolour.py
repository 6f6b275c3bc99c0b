"""Issue 25, round 35: with the dice count known and dice missing, patches of the found dice's colour and size that
the reader reads surely as dice are added, flagged (:mod:`rig.vision.diecolour`)."""

from pathlib import Path

import cv2

from rig.vision import diebodies, diecolour
from rig.vision.anydie import AnyDieParams, read_pip_dice

TWIN = Path(__file__).parent / "pip_twin"
#: pip twin 12301 throw 1's dice, value at (x, y)
TRUTH = {(1091, 372): 4, (1331, 388): 1, (1326, 739): 3, (1054, 743): 5, (520, 356): 1, (990, 528): 5}


def _right(reading) -> int:
    return sum(any(abs(d.centre[0] - x) < 45 and abs(d.centre[1] - y) < 45 and d.pips == v for d in reading.dice)
               for (x, y), v in TRUTH.items())


def test_the_green_dice_the_finder_misses_are_found_by_their_colour(nets, monkeypatch):
    """Pip twin 12301 throw 1 (seen; 1920x1080 as JPEG q60, six 89 px green dice on yellow knotted wood): the finder
    scores the dice 0.04-0.24 at any size, two are found; the other four are read by their colour, flagged."""
    frame = cv2.imread(str(TWIN / "t12301-throw1.jpg"))
    reading = read_pip_dice(frame, AnyDieParams(), expected=(6,))
    assert len(reading.dice) == 6 and _right(reading) == 6 and reading.status == "uncertain"
    assert sum(diecolour.COLOURED in d.count.reasons for d in reading.dice) == 4
    assert all(d.count.status == "uncertain" for d in reading.dice)
    unknown = read_pip_dice(frame, AnyDieParams())  # the dice count not known: none added (nor the faint ones kept)
    assert not any(diecolour.COLOURED in d.count.reasons for d in unknown.dice) and len(unknown.dice) < 6
    monkeypatch.setattr(diecolour, "COLOUR_SURE", 1.01)
    monkeypatch.setattr(diebodies, "SEED_SURE", 1.01)  # with neither found dice lend their colour: round 36's rule
    assert _right(read_pip_dice(frame, AnyDieParams(), expected=(6,))) == 2

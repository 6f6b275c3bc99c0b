"""scripts/needless_reasons.py (issue 24, round 13): the twin's needless flags counted by reason kind and by what keeps
each turn flagged after the second look."""


import numpy as np
import pytest
from tests.vision.conftest import script



@pytest.fixture
def nr():
    return script("needless_reasons")


def test_a_reasons_kind_is_its_text_without_place_numbers_and_colours(nr):
    assert nr.kind("cocked die at (345, 153)") == ("cocked die", (345.0, 153.0))
    assert nr.kind("pink frog of unusual size (glare?) on die at (260, 436)") == ("frog of unusual size (glare?)",
                                                                                 (260.0, 436.0))
    assert nr.kind("unclear blue+yellow on die at (1, 2)")[0] == "unclear"
    assert nr.kind("The light changed — recalibrate (warmer white balance x1.3)") == (
        "The light changed — recalibrate (warmer white balance xN)", None)


def _line(reasons, aspect, drift="same"):
    die = {"face": "blue", "x": 100.0, "y": 100.0, "cocked": True, "i": 0, "state": "flat", "true_face": "blue",
           "m": [aspect, 1.0] + [0.0] * 11}
    other = dict(die, x=300.0, cocked=False, i=1)
    return {"seed": 1, "drift": drift, "turn": 0, "side": 40.0, "status": "uncertain", "reasons": reasons, "right": 2,
            "counted": 2, "wrong": False, "has_cocked": False, "six": False, "truth": [], "seen": [die, other]}


def test_needless_turns_are_counted_by_kind_and_by_what_keeps_them(nr):
    probs = np.zeros((2, 10), np.float32)
    probs[:, 3 + 1] = 1.0  # the net reads the reader's face (blue) surely ...
    probs[:, 0] = 0.95  # ... and both dice flat
    lines = [_line(["cocked die at (100, 100)"], aspect=0.8),  # the aspect test's die: the net never looks
             _line(["cocked die at (100, 100)", "die in shadow or on edge at (200, 100)"], aspect=1.0),
             _line(["cocked die at (100, 100)"], aspect=1.0, drift="lamp x0.8")]  # freed: not needless
    turns, kinds, only, dice, blockers = nr.tally(lines, probs)
    assert (turns["same"], turns["same needless"], turns["drift"], turns["drift needless"]) == (2, 2, 1, 0)
    assert kinds["same", "cocked die"] == 2 and only["same", "cocked die"] == 1
    assert kinds["same", "die in shadow or on edge"] == 1 and dice["die in shadow or on edge"]["at no die read"] == 1
    assert dice["cocked die"]["flat"] == 2
    assert blockers["same", "die's own, kept: top fails the aspect test"] == 1
    assert blockers["same", "not a die's own: die in shadow or on edge"] == 1

"""scripts/shade_reasons.py (issue 24, round 14): the needless turns' "die in shadow or on edge" flags counted by
where they lie — at a die read (its deep-shade flag), beside one, or far from every die."""


import pytest
from tests.vision.conftest import script



@pytest.fixture
def sr():
    return script("shade_reasons")


def _line(reasons, drift="same", wrong=False, has_cocked=False):
    die = {"face": "blue", "x": 100.0, "y": 100.0, "cocked": True}
    return {"seed": 1, "drift": drift, "turn": 0, "side": 40.0, "status": "uncertain" if reasons else "ok",
            "reasons": reasons, "wrong": wrong, "has_cocked": has_cocked, "seen": [die, dict(die, x=300.0)]}


def test_a_shade_flag_lies_at_a_die_beside_one_or_far(sr):
    line = _line([])
    assert sr.place(line, (101.0, 100.0)) == "at a die"
    assert sr.place(line, (130.0, 100.0)) == "beside"
    assert sr.place(line, (200.0, 100.0)) == "far"
    assert sr.place(dict(line, seen=[]), (100.0, 100.0)) == "far"


def test_needless_turns_are_counted_by_where_their_shade_flags_lie(sr):
    lines = [
        _line(["die in shadow or on edge at (100, 100)", "cocked die at (100, 100)"]),
        _line(["die in shadow or on edge at (130, 100)"], drift="lamp x0.8"),
        _line(["die in shadow or on edge at (200, 100)", "die in shadow or on edge at (300, 200)"]),
        _line(["cocked die at (300, 100)"]),
        _line([]),  # ok: not needless
        _line(["die in shadow or on edge at (200, 100)"], wrong=True),  # read wrong: not needless
        _line(["die in shadow or on edge at (200, 100)"], has_cocked=True),  # a leaning die: not needless
        {"seed": 2, "refused": "no"},
    ]
    c = sr.tally(lines)
    assert c["same", "needless"] == 3 and c["drift", "needless"] == 1
    assert c["same", "any shade"] == 2 and c["drift", "any shade"] == 1
    assert (c["same", "at a die"], c["same", "far"], c["drift", "beside"]) == (1, 1, 1)
    assert c["same", "only"] == 1 and c["drift", "only"] == 1

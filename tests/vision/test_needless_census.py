"""scripts/needless_census.py (issue 24, round 23): needless turn-lights by their full set of reasons, and what
answering one reason or a pair would free."""

import pytest

from tests.vision.conftest import script


@pytest.fixture
def nc():
    return script("needless_census")


def _line(reasons, status="uncertain", wrong=False, cocked=False, seen=()):
    return {
        "status": status,
        "wrong": wrong,
        "has_cocked": cocked,
        "has_hidden": False,
        "die_px": 40.0,
        "reasons": list(reasons),
        "seen": list(seen),
    }


def _die(x, y, small=False, aspect=False, lean=False):
    return {"x": x, "y": y, "small": small, "aspect_test": aspect, "lean": lean}


def test_only_flagged_right_turns_without_a_cocked_die_are_needless(nc):
    assert nc.needless(_line(["cocked die at (10, 10)"]))
    assert not nc.needless(_line([], status="ok"))
    assert not nc.needless(_line(["cocked die at (10, 10)"], wrong=True))
    assert not nc.needless(_line(["cocked die at (10, 10)"], cocked=True))
    assert not nc.needless({"refused": "found 5 dice"})


def test_a_cocked_die_is_named_by_the_test_that_called_the_die_at_its_place(nc):
    line = _line(
        ["cocked die at (100, 100)", "cocked die at (300, 100)", "die in shadow or on edge at (300, 100)"],
        seen=[_die(101, 99, aspect=True), _die(300, 102, lean=True)],
    )
    assert nc.kinds(line, split_cocked=True) == {
        "cocked die [aspect]",
        "cocked die [flank]",
        "die in shadow or on edge",
    }
    assert nc.kinds(line, split_cocked=False) == {"cocked die", "die in shadow or on edge"}


def test_the_census_counts_turns_freed_by_one_reason_and_by_a_pair(nc, capsys):
    lines = [
        _line(["cocked die at (1, 1)"]),
        _line(["cocked die at (1, 1)", "unclear pink on die at (5, 5)"]),
        _line(["unclear pink on die at (5, 5)", "hand, object or glare in view"]),
    ]
    nc.census(lines, False, "test")
    out = capsys.readouterr().out
    assert "3 needless turn-lights of 3" in out
    assert "| cocked die | 2 | 1 |" in out
    assert "| cocked die + unclear pink | 2 | 1 |" in out

"""Banana Moon start roll."""

import pytest

from rig.errors import RigError
from rig.games.banana.rules import BadPipsError, StartRoll, score_request


@pytest.mark.parametrize("white, black, starter", [(6, 1, "white"), (1, 6, "black"), (4, 3, "white")])
def test_higher_starts(white, black, starter):
    r = StartRoll(white, black).result()
    assert r.starter == starter and not r.reroll
    assert (r.white, r.black) == (white, black)


def test_tie_rerolls():
    out = score_request({"game": "banana", "white": 2, "black": 2})
    assert out == {"white_start": 2, "black_start": 2, "starter": None, "reroll": True}


def test_named_players():
    out = score_request({"game": "banana", "white": 5, "black": 2, "players": {"white": "Ada", "black": "Ben"}})
    assert out["starter"] == "Ada" and out["white_start"] == 5 and out["black_start"] == 2


@pytest.mark.parametrize("req, words", [
    ({"white": 0, "black": 2}, "white die must show 1-6"),
    ({"white": 3, "black": 7}, "black die must show 1-6"),
    ({"white": 3}, "no value for the black die"),
    ({"white": 3, "black": 2.5}, "black die"),
    ({"white": 3, "black": 2, "players": {"white": "A"}}, "'players' must name"),
    ({"white": 3, "black": 2, "players": {"white": "A", "black": "A"}}, "different names"),
    ({"white": 3, "black": 2, "dice": []}, "unknown key"),
    ("3,2", "must be an object"),
])
def test_bad_input(req, words):
    with pytest.raises(RigError, match=words):
        score_request(req)


def test_bad_pips_error_is_specific():
    with pytest.raises(BadPipsError):
        StartRoll(True, 3)

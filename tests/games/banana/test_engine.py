"""The Banana Moon start roll on the engine: higher starts, a tie re-rolls, the start points shown."""

import pytest

from rig.engine import Engine, EventLog, EventRefused


def ev(kind, t, **payload):
    return {"type": kind, "t_us": t, "source": "test", **payload}


def new_engine():
    engine = Engine(EventLog(":memory:"))
    engine.submit(ev("game_started", 0, game="banana", players=["Ada", "Ben"]))
    return engine


def test_a_tie_rolls_again_then_the_higher_starts():
    engine = new_engine()
    state = engine.submit(ev("roll_settled", 10, dice=["black:4", "white:4"]))
    assert state["turn"]["phase"] == "reroll" and state["turn"]["start"]["reroll"]
    state = engine.submit(ev("roll_settled", 20, dice=["white:2", "black:6"]))
    assert state["turn"]["phase"] == "over" and state["game"]["status"] == "decided"
    assert state["outcome"]["outcome"] == {"white_start": 2, "black_start": 6, "starter": "Ben", "reroll": False,
                                           "white_player": "Ada", "black_player": "Ben", "rolls": 2}
    assert engine.history()["games"][0]["status"] == "decided"


def test_a_misread_is_corrected_and_undo_reopens_the_roll():
    engine = new_engine()
    engine.submit(ev("roll_settled", 10, dice=["white:3", "black:3"]))
    state = engine.submit(ev("correction", 20, what="dice", faces=["white:5", "black:3"]))
    assert state["outcome"]["outcome"]["starter"] == "Ada" and state["turn"]["corrected"]
    state = engine.submit(ev("correction", 30, what="undo"))
    assert state["turn"]["phase"] == "reroll" and state["outcome"] is None


def test_refusals():
    engine = new_engine()
    with pytest.raises(EventRefused, match="black pips was not read"):
        engine.submit(ev("roll_settled", 10, dice=["white:3"]))
    with pytest.raises(EventRefused, match="must show 1-6"):
        engine.submit(ev("roll_settled", 10, dice=["white:7", "black:1"]))
    with pytest.raises(EventRefused, match="for 2 players"):
        engine.submit(ev("game_started", 0, game="banana", players=["Ada", "Ben", "Cleo"]))

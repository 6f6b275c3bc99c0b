"""Past turns rebuilt from the log: the evidence view's timeline and the die-fairness sample."""

import pytest

from engine_play import make_script, run_step
from rig.engine.service import EngineService
from rig.engine.turns import NoSuchGame, game_turns, logged_dice
from rig.games.frogs.rules import Face, Turn, score_turn

PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]


def _played(seed=3):
    steps, truths = make_script(seed, PLAYERS)
    service = EngineService.in_memory(clock="sim")
    for step in steps:
        run_step(service, step)
    return service, truths


def test_every_scored_turn_comes_back_with_its_timeline_dice_and_score():
    service, truths = _played()
    game_id = service.state()["game"]["id"]
    record = game_turns(service.log, game_id)
    assert record["players"] == PLAYERS and record["tie_window_us"] == 0
    scored = [t for t in record["turns"] if t["scored"]]
    assert len(scored) == len(truths) == service.state()["game"]["turns_played"]
    for turn, truth in zip(scored, truths):
        assert turn["score"] == score_turn(Turn.parse(truth)).to_dict()
        assert turn["dice"] == [str(Face.parse(f)) for f in truth["dice"]]
        counting = [t for t in turn["tosses"] if t["counting"]]
        assert [t["t_us"] for t in counting] == sorted(t["t_us"] for t in counting)
        assert [c["player"] for c in turn["score"]["cards"]] == [t["player"] for t in counting]
        assert turn["rolls"] and turn["rolls"][-1]["roll"] == len(turn["rolls"])


def test_the_fairness_sample_is_the_final_dice_of_every_scored_turn():
    service, truths = _played()
    game_id = service.state()["game"]["id"]
    dice = logged_dice(service.log)
    assert len(dice) == 6 * len(truths)
    assert dice[:6] == game_turns(service.log, game_id)["turns"][0]["dice"]


def test_a_game_that_is_not_there_is_refused():
    service = EngineService.in_memory(clock="sim")
    with pytest.raises(NoSuchGame, match="there is no game 7"):
        game_turns(service.log, 7)

"""The rulebook's order of play: whom to copy before the reveal, exactly three rolls with a die each,
a swap of two tosses with their cards, the abandoned game and history's numbering."""

import pytest

from rig.engine.engine import Engine
from rig.engine.errors import EventRefused
from rig.engine.log import EventLog, Pending
from rig.engine.service import EngineService

PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]
DICE = ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]


def tossed(players=PLAYERS, dice=DICE):
    """Ada rolled three times and every other player tossed (Ben, Cleo, Dev in that order)."""
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": players})
    service.press(players[0], 100)
    for k, n in enumerate((2, 4, 6)):
        service.submit({"type": "roll_settled", "t_us": 200 + k, "dice": dice[:n]})
    for k, p in enumerate(players[1:]):
        service.press(p, 400 + 10 * k)
    return service


def submit(service, kind, t_us, **payload):
    return service.submit({"type": kind, "t_us": t_us, **payload})


# ---------------------------------------------------------------- copy before the reveal

def test_the_reveal_waits_for_the_copy_choice():
    service = tossed()
    assert service.state()["turn"]["phase"] == "copy"
    with pytest.raises(EventRefused, match="a card reveal before the copy choice: Ada has not chosen whom to copy"):
        submit(service, "card_revealed", 500, card="pink")
    submit(service, "copy_chosen", 501, player="Cleo", confirmed=False)  # picked, not confirmed
    with pytest.raises(EventRefused, match="Ada has picked Cleo but not confirmed"):
        submit(service, "card_revealed", 502, card="pink")
    assert service.state()["turn"]["cards_revealed"] == 0
    state = submit(service, "copy_chosen", 503, player="Cleo")
    assert state["turn"]["phase"] == "reveal"
    state = submit(service, "card_revealed", 504, card="pink")
    assert state["turn"]["cards_revealed"] == 1


def test_the_copy_may_be_chosen_early_and_stands_once_a_card_is_up():
    service = tossed()
    submit(service, "copy_chosen", 300, player="Dev")  # during the tosses: fine
    submit(service, "copy_chosen", 301, player="Ben")  # changed her mind: fine, no card is up
    submit(service, "card_revealed", 500, card="blue")
    with pytest.raises(EventRefused, match="the copy choice \\(Ben\\) stands once the cards are being turned over"):
        submit(service, "copy_chosen", 501, player="Cleo")
    # the roller's button: a short press no longer moves the choice
    service.press("Ada", 600)
    assert service.release("Ada", 700, 100) == []
    assert service.state()["turn"]["copy"] == {"player": "Ben", "confirmed": True}


def test_a_log_written_before_the_rule_still_folds(tmp_path):
    """Cards revealed before the copy choice (an older rig's log) replay as they were."""
    service = EngineService.open(tmp_path, clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS})
    game_id = service.state()["game"]["id"]
    service.press("Ada", 100)
    submit(service, "roll_settled", 200, dice=DICE)
    for k, p in enumerate(PLAYERS[1:]):
        service.press(p, 400 + k)
    for card in ("blue", "pink", "gray"):  # appended as the old engine accepted them
        service.log.append_batch([Pending({"type": "card_revealed", "t_us": 500, "source": "camera", "card": card},
                                          game_id=game_id)])
    service.close()
    with EngineService.open(tmp_path, clock="sim") as service:
        turn = service.state()["turn"]
        assert turn["cards_revealed"] == 3 and turn["phase"] == "copy"
        state = submit(service, "copy_chosen", 600, player="Ben")
        assert state["turn"]["phase"] == "review"


# ---------------------------------------------------------------- three rolls, at least one die each

def test_six_dice_in_the_first_roll_is_a_violation_like_a_fourth_roll():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS})
    service.press("Ada", 100)
    state = submit(service, "roll_settled", 200, dice=DICE)
    violations = state["turn"]["violations"]
    assert [(v["player"], v["kind"]) for v in violations] == [("Ada", "too_few_rolls")]
    assert violations[0]["detail"].startswith("all 6 dice by the first roll: a turn is exactly 3 rolls")
    assert "2 rolls had no die left" in violations[0]["detail"]
    logged = service.log.events(status="applied")[-2:]
    assert [(e.type, e.event["source"]) for e in logged] == [("roll_settled", "api"), ("violation", "engine")]
    assert logged[0].batch == logged[1].batch  # one transaction
    assert state["turn"]["phase"] == "tossing"  # the turn goes on


def test_the_last_dice_in_the_second_roll_is_a_violation_and_three_rolls_are_not():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS})
    service.press("Ada", 100)
    submit(service, "roll_settled", 200, dice=DICE[:1])
    state = submit(service, "roll_settled", 300, dice=DICE)
    assert [v["detail"] for v in state["turn"]["violations"]] == [
        "all 6 dice by the second roll: a turn is exactly 3 rolls with at least one die each, "
        "and 1 roll had no die left"]
    ok = tossed()  # 2, 4, 6 dice in three rolls
    assert ok.state()["turn"]["violations"] == []


def test_the_violation_costs_the_penalty():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS, "options": {"penalty_per_violation": 1}})
    service.press("Ada", 100)
    submit(service, "roll_settled", 200, dice=DICE)
    for k, p in enumerate(PLAYERS[1:]):
        service.press(p, 400 + k)
    submit(service, "copy_chosen", 450, player="Ben")
    for card in ("blue", "pink", "gray"):
        submit(service, "card_revealed", 500, card=card)
    state = submit(service, "turn_scored", 600)
    assert state["totals"]["Ada"] == 6 - 1


# ---------------------------------------------------------------- swapping two tosses with their cards

def _order(state):
    return [(t["player"], t["card"]) for t in state["turn"]["tosses"]]


def test_swap_two_tosses_before_the_reveal():
    service = tossed()
    state = submit(service, "correction", 500, what="swap", index=0, other=2)
    assert _order(state) == [("Dev", None), ("Cleo", None), ("Ben", None)]
    assert [t["swapped"] for t in state["turn"]["tosses"]] == [True, False, True]
    assert [t["t_us"] for t in state["turn"]["tosses"]] == [400, 410, 420]  # the times stay in place


def test_swap_two_revealed_tosses_moves_their_cards_with_them():
    service = tossed()
    submit(service, "copy_chosen", 450, player="Ben")
    for card in ("blue", "pink", "gray"):
        submit(service, "card_revealed", 500, card=card)
    assert service.state()["turn"]["phase"] == "review"
    before = service.state()["turn"]["score"]
    state = submit(service, "correction", 600, what="swap", index=0, other=1)  # found at the reveal
    assert _order(state) == [("Cleo", "pink"), ("Ben", "blue"), ("Dev", "gray")]
    score = state["turn"]["score"]
    assert score["points"]["Ben"] == 6 and score["points"]["Cleo"] == 3  # blue: 6 lasered... as the rules say
    assert score != before
    state = submit(service, "correction", 601, what="undo")
    assert _order(state) == [("Ben", "blue"), ("Cleo", "pink"), ("Dev", "gray")]
    state = submit(service, "turn_scored", 700)
    assert state["turn"]["roller"] == "Ben"


def test_a_swap_of_a_card_that_is_up_with_one_still_down_is_refused():
    service = tossed()
    submit(service, "copy_chosen", 450, player="Ben")
    submit(service, "card_revealed", 500, card="blue")
    with pytest.raises(EventRefused, match="Ben's card is turned over and Dev's is not yet: swap them once both"):
        submit(service, "correction", 600, what="swap", index=0, other=2)
    with pytest.raises(EventRefused, match="there is no toss 4"):
        submit(service, "correction", 601, what="swap", index=0, other=3)
    with pytest.raises(EventRefused, match="a swap needs two different tosses"):
        submit(service, "correction", 602, what="swap", index=1, other=1)
    with pytest.raises(EventRefused, match="a swap correction needs 'other'"):
        submit(service, "correction", 603, what="swap", index=1)
    state = submit(service, "correction", 604, what="swap", index=1, other=2)  # both still face down: fine
    assert _order(state) == [("Ben", "blue"), ("Dev", None), ("Cleo", None)]


def test_a_swap_in_a_three_player_game_keeps_each_players_cards():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS[:3]})
    service.press("Ada", 100)
    for k, n in enumerate((2, 4, 6)):
        submit(service, "roll_settled", 200 + k, dice=DICE[:n])
    for k, p in enumerate(["Ben", "Cleo", "Ben", "Cleo"]):
        service.press(p, 400 + 10 * k)
    submit(service, "copy_chosen", 450, player="Ben")
    for card in ("blue", "pink", "gray", "yellow"):
        submit(service, "card_revealed", 500, card=card)
    state = submit(service, "correction", 600, what="swap", index=1, other=2)
    assert _order(state) == [("Ben", "blue"), ("Ben", "gray"), ("Cleo", "pink"), ("Cleo", "yellow")]


# ---------------------------------------------------------------- new game, history

def test_an_abandoned_game_stays_in_history_and_one_numbering():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS})
    service.press("Ada", 100)
    service.submit({"type": "game_started", "t_us": 200, "game": "lego", "players": ["Ada", "Ben"]})
    service.submit({"type": "game_started", "t_us": 300, "players": PLAYERS[:3]})
    games = service.history()["games"]
    assert [(g["number"], g["game"], g["status"]) for g in games] == [
        (3, "frogs", "playing"), (2, "lego", "abandoned"), (1, "frogs", "abandoned")]
    with pytest.raises(EventRefused, match="nothing to undo"):
        service.submit({"type": "correction", "what": "undo"})  # undo does not bring it back: history keeps it


def test_history_keeps_each_kind_of_games_points_apart():
    log = EventLog(":memory:")
    engine = Engine(log)
    engine.submit({"type": "game_started", "t_us": 0, "source": "t", "game": "lego", "players": ["Ada", "Ben"]})
    engine.submit({"type": "points_scored", "t_us": 1, "source": "t", "player": "Ada", "points": 3})
    engine.submit({"type": "game_started", "t_us": 2, "source": "t", "players": PLAYERS})
    rows = {(r["game"], r["name"]): r for r in engine.history()["players"]}
    assert rows[("lego", "Ada")]["points"] == 3
    assert rows[("frogs", "Ada")]["points"] == 0 and rows[("frogs", "Ada")]["games"] == 1
    assert [r["game"] for r in engine.history()["players"]][:4] == ["frogs"] * 4  # frogs first

"""Würfelblitz on the engine: throw → buzz → judge → discs, replay, undo, buttons, refusals."""

import pytest

from rig.engine import Engine, EngineService, EventLog, EventRefused

DICE = ["red:3", "yellow:4", "blue:1", "green:4", "black:4", "orange:dot=black", "white:dot=green",
        "white:dot=purple"]  # the rulebook's example: 3 + 4 + 1 = 8
TWISTED = ["green:4", "black:4", "red:2", "yellow:1", "blue:6", "orange:dot=black", "white:dot=green",
           "white:dot=green"]


def ev(kind, t, **payload):
    return {"type": kind, "t_us": t, "source": "test", **payload}


def new_engine(players=("Ada", "Ben", "Cleo"), **options):
    engine = Engine(EventLog(":memory:"))
    engine.submit(ev("game_started", 0, game="blitz", players=list(players), options=options))
    return engine


def test_a_round_hides_the_sum_until_judged_and_gives_a_white_disc():
    engine = new_engine()
    state = engine.submit(ev("roll_settled", 100, dice=DICE))
    assert state["turn"]["phase"] == "buzz" and state["turn"]["answer"] is None
    assert state["turn"]["roller"] == "Ada" and state["turn"]["problem"] is None
    engine.submit(ev("buzz", 2_000, player="Ben"))
    state = engine.submit(ev("buzz", 2_850, player="Cleo"))
    assert state["turn"]["phase"] == "judge" and state["turn"]["answerer"] == "Ben"
    assert state["turn"]["buzzes"][1]["margin_text"] == "Ben beat Cleo by 850 µs"
    assert state["turn"]["answer"] is None
    state = engine.submit(ev("answer_judged", 3_000, answer=8))
    assert state["turn"]["phase"] == "done"
    assert state["turn"]["answer"] == {"answer": 8, "counted": ["red", "yellow", "blue"],
                                       "excluded": ["green", "black"], "swapped": False}
    assert state["discs"]["Ben"] == {"white": 1, "black": 0}


def test_a_wrong_answer_loses_a_white_disc_and_the_next_buzzer_answers():
    engine = new_engine()
    engine.submit(ev("roll_settled", 100, dice=DICE))
    engine.submit(ev("buzz", 200, player="Ben"))
    engine.submit(ev("answer_judged", 300, answer=8))  # Ben: 1 white
    state = engine.submit(ev("roll_settled", 1_000, dice=DICE))  # books the round, Ben throws next
    assert state["turn"]["number"] == 2 and state["turn"]["thrower"] == "Ben"
    assert state["turns"][0]["winners"] == ["Ben"]
    engine.submit(ev("buzz", 1_200, player="Cleo"))
    engine.submit(ev("buzz", 1_100, player="Ben"))  # logged later, pressed earlier: Ben answers first
    state = engine.submit(ev("answer_judged", 1_300, answer=12))
    assert state["discs"]["Ben"] == {"white": 0, "black": 0}
    assert state["turn"]["phase"] == "judge" and state["turn"]["answerer"] == "Cleo"
    state = engine.submit(ev("answer_judged", 1_400, correct=True))
    assert state["turn"]["phase"] == "done" and state["discs"]["Cleo"]["white"] == 1


def test_twister_variant_and_a_timeout_show_the_sum_without_discs():
    engine = new_engine(variant="twister")
    engine.submit(ev("roll_settled", 100, dice=TWISTED))
    state = engine.submit(ev("answer_timeout", 5_000))
    assert state["turn"]["phase"] == "done" and state["turn"]["timed_out"]
    assert state["turn"]["answer"]["answer"] == 8 and state["turn"]["answer"]["swapped"]
    assert all(d == {"white": 0, "black": 0} for d in state["discs"].values())
    with pytest.raises(EventRefused, match="timed out"):
        engine.submit(ev("answer_judged", 5_100, player="Ben", correct=True))


def test_three_black_discs_win_and_the_handicap_counts():
    engine = new_engine(players=("Ada", "Ben"), handicap={"Ben": 1})
    t = 0
    for _ in range(3):
        t += 100
        engine.submit(ev("roll_settled", t, dice=DICE))
        engine.submit(ev("buzz", t + 10, player="Ben"))
        state = engine.submit(ev("answer_judged", t + 20, answer=8))
    assert state["discs"]["Ben"] == {"white": 0, "black": 3}
    assert state["winner"] == "Ben" and state["game"]["status"] == "over"
    assert state["turn"]["phase"] == "over" and state["turn"]["answer"]["answer"] == 8
    assert engine.history()["games"][0]["winner"] == "Ben"


def test_replay_and_undo_give_the_same_state(tmp_path):
    path = tmp_path / "rig.sqlite3"
    engine = Engine(EventLog(path))
    engine.submit(ev("game_started", 0, game="blitz", players=["Ada", "Ben"], options={"white_dice": 2}))
    engine.submit(ev("roll_settled", 100, dice=DICE))
    engine.submit(ev("buzz", 200, player="Ada"))
    before = engine.state()
    engine.submit(ev("answer_judged", 300, answer=7))
    engine.submit(ev("correction", 400, what="undo"))
    assert engine.state()["discs"] == before["discs"] and engine.state()["turn"] == before["turn"]
    state = engine.submit(ev("answer_judged", 500, answer=8))
    engine.log.close()
    again = Engine(EventLog(path))
    assert again.state()["discs"] == state["discs"] and again.state()["turn"] == state["turn"]


def test_refusals_name_the_problem():
    engine = new_engine()
    with pytest.raises(EventRefused, match="before the box was lifted"):
        engine.submit(ev("buzz", 10, player="Ben"))
    with pytest.raises(EventRefused, match="red appears twice"):
        engine.submit(ev("roll_settled", 20, dice=["red:3", "red:4"]))
    engine.submit(ev("roll_settled", 30, dice=DICE))
    with pytest.raises(EventRefused, match="nobody has pressed"):
        engine.submit(ev("answer_judged", 40, answer=8))
    with pytest.raises(EventRefused, match="no meaning in blitz"):
        engine.submit(ev("card_revealed", 50, card="pink"))
    with pytest.raises(EventRefused, match="white_dice must be 2 or 3"):
        engine.submit(ev("game_started", 60, game="blitz", players=["A", "B"], options={"white_dice": 4}))
    with pytest.raises(EventRefused, match="unknown blitz option"):
        engine.submit(ev("game_started", 60, game="blitz", players=["A", "B"], options={"turns_each": 4}))


def test_a_dice_correction_changes_the_sum_and_flags_a_missed_die():
    engine = new_engine()
    state = engine.submit(ev("roll_settled", 10, dice=DICE[:-1]))
    assert "1 white dice read" in state["turn"]["problem"]
    state = engine.submit(ev("correction", 20, what="dice", faces=DICE))
    assert state["turn"]["problem"] is None and state["turn"]["corrected"]
    engine.submit(ev("correction", 30, what="die", index=0, face="red:6"))
    engine.submit(ev("buzz", 40, player="Cleo"))
    assert engine.submit(ev("answer_judged", 50, answer=11))["discs"]["Cleo"]["white"] == 1


def test_buttons_buzz_through_the_service():
    service = EngineService.in_memory()
    service.submit({"type": "game_started", "game": "blitz", "players": ["Ada", "Ben", "Cleo"]})
    service.submit({"type": "roll_settled", "dice": DICE})
    results = service.press("Cleo", 5_000)
    assert [r["event"]["type"] for r in results] == ["buzz"] and results[0]["ok"]
    service.press("Ada", 5_400)
    turn = service.state()["turn"]
    assert turn["answerer"] == "Cleo" and turn["buzzes"][1]["margin_us"] == 400
    service.close()

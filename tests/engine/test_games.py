"""Whole games from event sequences: 3, 4-5 and 6-8 players, tie-breaks, corrections, refusals."""

import json
import re

import pytest

from engine_play import S, expected_totals, make_script, run_step
from rig.engine.errors import EventRefused
from rig.engine.log import SCHEMA_VERSION
from rig.engine.service import EngineService
from rig.games.frogs.rules.game import GameSetup

PLAYERS = {3: ["Ada", "Ben", "Cleo"], 4: ["Ada", "Ben", "Cleo", "Dev"], 5: ["Ada", "Ben", "Cleo", "Dev", "Eli"],
           6: ["A", "B", "C", "D", "E", "F"], 7: ["A", "B", "C", "D", "E", "F", "G"], 8: ["A", "B", "C", "D", "E", "F", "G", "H"]}


def play(steps, service=None):
    service = service or EngineService.in_memory(clock="sim")
    for step in steps:
        run_step(service, step)
    return service


@pytest.mark.parametrize("n, seed, extra_rounds", [(3, 1, 0), (4, 2, 0), (5, 3, 0), (6, 4, 0), (7, 3, 1), (8, 5, 0)])
def test_whole_game_totals_match_the_rules(n, seed, extra_rounds):
    """Seeded games with dead heats, stray presses, the copy selector, card and die corrections, undo."""
    players = PLAYERS[n]
    steps, truths = make_script(seed, players)
    state = play(steps).state()
    setup = GameSetup.create(players)
    assert state["game"]["status"] == "over"
    assert state["game"]["turns_played"] == len(truths) >= setup.turns_each * n
    assert state["totals"] == expected_totals(truths, players)
    best = max(state["totals"].values())
    assert [p for p, v in state["totals"].items() if v == best] == [state["winner"]]
    assert state["outcome"]["outcome"]["winner"] == state["winner"]
    assert state["game"]["extra_rounds"] == extra_rounds  # 7 players, seed 3: a tie after round 1
    assert state["notices"] == []  # every scripted input made sense
    json.dumps(state)  # JSON-serialisable all the way down


def _three_player_turn(service, t, *, y_second="gray"):
    """All dice blank (every colour lasered). X, Y = the others in seat order, tossing X Y X Y.

    X: gray (first, 0 before it), blank (0: lasered away); Y: blank (0), then ``y_second``
    (gray: the second gray scores nothing with 3 players; blue: 6 lasered blue dice).
    The roller copies X (0).
    """
    roller = service.state()["turn"]["roller"]
    players = service.state()["game"]["players"]
    seat = players.index(roller)
    x, y = players[(seat + 1) % 3], players[(seat + 2) % 3]
    service.press(roller, t)
    service.submit({"type": "roll_settled", "t_us": t + 1, "dice": ["blank"] * 6})
    for k, p in enumerate([x, y, x, y]):
        service.press(p, t + 10 + k)
    service.submit({"type": "copy_chosen", "t_us": t + 20, "player": x})
    for card in ("gray", "blank", "blank", y_second):
        service.submit({"type": "card_revealed", "t_us": t + 30, "card": card})
    return service.submit({"type": "turn_scored", "t_us": t + 40})


def test_a_tie_adds_full_rounds_until_one_player_leads_alone():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS[3], "options": {"turns_each": 1}})
    for k in range(3):
        state = _three_player_turn(service, (k + 1) * S)
    assert state["totals"] == {"Ada": 0, "Ben": 0, "Cleo": 0}
    assert state["game"]["status"] == "playing" and state["game"]["extra_rounds"] == 1
    assert state["turn"]["roller"] == "Ada" and state["turn"]["number"] == 4
    # tie-break round: in Ada's turn Cleo's second card is blue (6 lasered blue dice)
    state = _three_player_turn(service, 10 * S, y_second="blue")
    assert state["totals"] == {"Ada": 0, "Ben": 0, "Cleo": 6}
    assert state["game"]["status"] == "playing"  # the round is played out
    state = _three_player_turn(service, 11 * S)
    state = _three_player_turn(service, 12 * S)
    assert state["game"]["status"] == "over" and state["winner"] == "Cleo"
    assert state["outcome"]["outcome"] == {"winner": "Cleo", "totals": {"Ada": 0, "Ben": 0, "Cleo": 6},
                                           "turns_played": 6, "extra_rounds": 1}
    assert state["turn"] is None and state["last_turn"]["number"] == 6
    with pytest.raises(EventRefused, match="the game is over \\(Cleo won\\)"):
        service.submit({"type": "turn_started"})
    types = [e.type for e in service.log.events(status="applied")][-2:]
    assert types == ["turn_scored", "game_ended"]


def test_toss_timing_rules():
    players = PLAYERS[4]
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": players})
    service.press("Cleo", 500)  # before the turn starts: shown, not counted
    service.press("Ada", 1000)  # the roller starts the turn
    service.press("Ben", 5000)
    service.press("Dev", 1800)  # arrives later but landed earlier
    service.press("Cleo", 4200)
    service.press("Ben", 4200 + 3)  # Ben's second press: he tossed already? no: his 5000 toss is later
    service.press("Ben", 6000)
    service.press("Eve", 6100)
    tosses = service.state()["turn"]["tosses"]
    assert [(t["player"], t["counting"]) for t in tosses] == [
        ("Cleo", False), ("Dev", True), ("Cleo", True), ("Ben", True), ("Ben", False), ("Ben", False)]
    assert tosses[0]["why"] == "before the turn started"
    assert tosses[4]["why"] == "Ben had already tossed their card"
    assert tosses[2]["margin_text"] == "Dev beat Cleo by 2.4 ms"
    assert tosses[3]["margin_us"] == 3 and tosses[3]["margin_text"] == "Cleo beat Ben by 3 µs"
    assert service.state()["notices"][-1]["reason"].startswith("a toss by 'Eve', who is not playing")


def test_dead_heat_counts_the_earlier_logged_first():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS[4]})
    service.press("Ada", 100)
    service.press("Dev", 900)
    service.press("Ben", 900)
    service.press("Cleo", 950)
    turn = service.state()["turn"]
    assert [t["player"] for t in turn["tosses"]] == ["Dev", "Ben", "Cleo"]
    assert turn["tosses"][1]["dead_heat"] is True
    assert turn["dead_heats"] == [{"first": "Dev", "second": "Ben", "t_us": 900,
                                   "margin_us": 0, "text": "dead heat (Δ 0 µs): Dev and Ben in the same µs; Dev was logged first and counts first"}]


def _ready_to_reveal(service, players=PLAYERS[4]):
    service.submit({"type": "game_started", "t_us": 0, "players": players})
    service.press(players[0], 100)
    service.submit({"type": "roll_settled", "t_us": 200, "dice": ["pink", "pink"]})
    service.submit({"type": "roll_settled", "t_us": 300, "dice": ["pink", "pink", "yellow+pink", "yellow"]})
    for k, p in enumerate(players[1:]):
        service.press(p, 400 + k)
    service.submit({"type": "roll_settled", "t_us": 500,
                    "dice": ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]})


@pytest.mark.parametrize("event, reason", [
    ({"type": "roll_settled", "dice": ["pink"]}, "exactly 3 rolls"),
    ({"type": "correction", "what": "die", "index": 6, "face": "pink"}, "there is no die 6"),
    ({"type": "correction", "what": "die", "index": 0, "face": "green"}, "unknown die face"),
    ({"type": "correction", "what": "card", "index": 0, "card": "pink"}, "no revealed card 0"),
    ({"type": "correction", "what": "dice", "faces": ["pink+blue"] * 6}, "only 2 dice carry"),
    ({"type": "copy_chosen", "player": "Ada"}, "cannot copy themself"),
    ({"type": "turn_started"}, "already under way"),
    ({"type": "turn_scored"}, "cannot be scored yet: Ada has not confirmed whom to copy"),  # copy comes first now
    ({"type": "game_started", "players": ["Ada"]}, "3 to 8 players"),
])
def test_events_that_make_no_sense_are_refused_and_logged(event, reason):
    service = EngineService.in_memory(clock="sim")
    _ready_to_reveal(service)
    before = service.state()
    with pytest.raises(EventRefused, match=reason):
        service.submit({"t_us": 600, **event})
    after = service.state()
    assert after["turn"] == before["turn"] and after["totals"] == before["totals"]
    assert re.search(reason, after["notices"][-1]["reason"])
    refused = service.log.events(status="refused")
    assert refused[-1].event["type"] == event["type"]


def test_card_reveal_before_all_tosses_is_refused():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS[4]})
    service.press("Ada", 100)
    service.press("Ben", 200)
    with pytest.raises(EventRefused, match="before all tosses: still to toss: Cleo, Dev"):
        service.submit({"type": "card_revealed", "t_us": 300, "card": "pink"})


def test_toss_before_any_game_is_logged_as_refused():
    service = EngineService.in_memory(clock="sim")
    results = service.press("Ben", 10)
    assert results[0]["ok"] is False and "no game in progress" in results[0]["reason"]
    assert service.state()["notices"][0]["player"] == "Ben"
    assert service.log.events()[0].status == "refused"


def test_corrections_die_card_toss_owner_and_undo():
    service = EngineService.in_memory(clock="sim")
    _ready_to_reveal(service)
    service.submit({"type": "correction", "t_us": 600, "what": "die", "index": 4, "face": "blue"})
    turn = service.state()["turn"]
    assert turn["dice"][4]["face"] == "blue" and turn["dice"][4]["corrected"] and turn["lasered"] == []
    service.submit({"type": "correction", "t_us": 601, "what": "undo"})
    assert service.state()["turn"]["lasered"] == ["blue"]
    # Ben's toss was really Cleo's, and Cleo's really Ben's
    service.submit({"type": "correction", "t_us": 602, "what": "toss", "index": 0, "player": "Cleo"})
    service.submit({"type": "correction", "t_us": 603, "what": "toss", "index": 1, "player": "Ben"})
    assert [t["player"] for t in service.state()["turn"]["tosses"]] == ["Cleo", "Ben", "Dev"]
    service.submit({"type": "copy_chosen", "t_us": 604, "player": "Ben"})  # whom to copy: before the reveal
    for card in ("blue", "blue", "gray"):
        try:
            service.submit({"type": "card_revealed", "t_us": 700, "card": card})
        except EventRefused:
            raise
    service.submit({"type": "correction", "t_us": 701, "what": "card", "index": 1, "card": "pink"})
    turn = service.state()["turn"]
    assert turn["phase"] == "review"
    assert [(t["player"], t["card"], t["points"]) for t in turn["tosses"]] == [
        ("Cleo", "blue", 6), ("Ben", "pink", 3), ("Dev", "gray", 2)]
    assert turn["score"]["points"] == {"Ada": 3, "Ben": 3, "Cleo": 6, "Dev": 2}
    state = service.submit({"type": "turn_scored", "t_us": 800})
    assert state["totals"] == {"Ada": 3, "Ben": 3, "Cleo": 6, "Dev": 2}
    assert state["turn"]["roller"] == "Ben" and state["turn"]["phase"] == "waiting"
    # undo the scoring: back to the review of Ada's turn
    state = service.submit({"type": "correction", "t_us": 801, "what": "undo"})
    assert state["totals"] == {"Ada": 0, "Ben": 0, "Cleo": 0, "Dev": 0}
    assert state["turn"]["roller"] == "Ada" and state["turn"]["phase"] == "review"


def test_undo_at_the_start_of_a_game_is_refused():
    service = EngineService.in_memory(clock="sim")
    with pytest.raises(EventRefused, match="nothing to undo"):
        service.submit({"type": "correction", "what": "undo"})
    service.submit({"type": "game_started", "players": PLAYERS[3]})
    with pytest.raises(EventRefused, match="nothing to undo"):
        service.submit({"type": "correction", "what": "undo"})


def test_three_players_same_card_twice_is_refused():
    service = EngineService.in_memory(clock="sim")
    _ready_to_reveal(service, PLAYERS[3])
    service.press("Ben", 600)
    service.press("Cleo", 601)
    service.submit({"type": "copy_chosen", "t_us": 650, "player": "Ben"})  # before the reveal
    service.submit({"type": "card_revealed", "t_us": 700, "card": "pink"})  # Ben's first
    service.submit({"type": "card_revealed", "t_us": 701, "card": "pink"})  # Cleo's first
    with pytest.raises(EventRefused, match="Ben has only one pink card"):
        service.submit({"type": "card_revealed", "t_us": 702, "card": "pink"})  # Ben's second


def test_violations_cost_points_with_the_penalty_option():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "players": PLAYERS[4], "options": {"penalty_per_violation": 1}})
    service.press("Ada", 100)
    service.submit({"type": "violation", "t_us": 150, "kind": "re-roll", "detail": "a die was hit"})
    dice = ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]
    for k, n in enumerate((2, 4, 6)):  # three rolls (six dice at once would be a second violation)
        service.submit({"type": "roll_settled", "t_us": 200 + k, "dice": dice[:n]})
    for k, p in enumerate(["Ben", "Cleo", "Dev"]):
        service.press(p, 300 + k)
    service.submit({"type": "copy_chosen", "t_us": 350, "player": "Ben"})  # before the reveal
    for card in ("blue", "pink", "gray"):
        service.submit({"type": "card_revealed", "t_us": 400, "card": card})
    assert service.state()["turn"]["violations"][0]["player"] == "Ada"
    state = service.submit({"type": "turn_scored", "t_us": 600})
    assert state["totals"]["Ada"] == 6 - 1


def test_a_roll_seen_before_the_start_starts_the_turn_and_counts_tosses_during_the_roll():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "players": PLAYERS[4]})
    service.press("Ben", 1500)  # during the first roll, before it settled
    state = service.submit({"type": "roll_settled", "t_us": 2000, "started_us": 1000, "dice": ["pink"]})
    assert state["turn"]["phase"] == "rolling" and state["turn"]["start_t_us"] == 1000
    assert state["turn"]["tosses"][0]["counting"] is True
    assert [e.event["source"] for e in service.log.events()][-2:] == ["engine", "api"]


def test_times_from_a_later_boot_sort_after_the_earlier_boot():
    service = EngineService.in_memory(clock="boot-1")
    service.submit({"type": "game_started", "players": PLAYERS[4]})
    service.press("Ada", 50_000_000)
    service.press("Ben", 50_000_100)
    service.clock = "boot-2"  # a power cut: the monotonic clock restarts near 0
    service.press("Cleo", 3_000_000)
    tosses = service.state()["turn"]["tosses"]
    assert [(t["player"], t["counting"]) for t in tosses] == [("Ben", True), ("Cleo", True)]
    assert tosses[1]["margin_us"] == 1


def test_new_game_during_a_game_abandons_it_into_history():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "players": PLAYERS[3]})
    first = service.state()["game"]["id"]
    service.submit({"type": "game_started", "players": PLAYERS[4]})
    history = service.history()
    assert [(g["id"], g["status"]) for g in history["games"]] == [(service.state()["game"]["id"], "playing"),
                                                                  (first, "abandoned")]


def test_replay_resumes_exactly(tmp_path):
    steps, _ = make_script(11, PLAYERS[5])
    cut = len(steps) // 2
    with EngineService.open(tmp_path, clock="sim") as service:
        play(steps[:cut], service)
        middle = service.state()
    with EngineService.open(tmp_path, clock="sim") as service:
        assert service.state() == middle
        play(steps[cut:], service)
        resumed, history = service.state(), service.history()
    with EngineService.in_memory(clock="sim") as service:
        play(steps, service)
        straight = service.state()
    assert resumed == straight
    assert history["games"][0]["totals"] == straight["totals"]
    assert history["games"][0]["winner"] == straight["winner"]


def test_history_is_rebuilt_after_migrating_a_version_1_log(tmp_path):
    import sqlite3

    steps, _ = make_script(5, PLAYERS[4])
    with EngineService.open(tmp_path, clock="sim") as service:
        play(steps, service)
        final = service.state()
    conn = sqlite3.connect(tmp_path / "rig.sqlite3")
    conn.execute("DROP TABLE games")  # what a version-1 log looks like
    conn.execute("DROP TABLE requests")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with EngineService.open(tmp_path, clock="sim") as service:
        assert service.log.schema_version == SCHEMA_VERSION
        assert service.state() == final
        game = service.history()["games"][0]
    assert (game["status"], game["winner"], game["totals"]) == ("over", final["winner"], final["totals"])


def test_a_toss_before_a_power_cut_does_not_count_in_a_turn_started_after_it():
    service = EngineService.in_memory(clock="boot-1")
    service.submit({"type": "game_started", "players": PLAYERS[4]})
    service.press("Ben", 90_000_000)  # before Ada's turn, then the power goes
    service.clock = "boot-2"
    service.press("Ada", 2_000_000)
    service.press("Cleo", 2_000_500)
    tosses = service.state()["turn"]["tosses"]
    assert [(t["player"], t["counting"], t["why"]) for t in tosses] == [
        ("Ben", False, "before the turn started"), ("Cleo", True, None)]


def test_a_die_the_camera_missed_is_added_and_takes_the_all_dice_violation_with_it():
    """Five dice seen after the third roll (one in a wall's deep shade): the camera's violation stands until
    the players add the sixth die; then the turn scores without the penalty."""
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "players": PLAYERS[4], "options": {"penalty_per_violation": 1}})
    service.press("Ada", 100)
    dice = ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]
    for k, n in enumerate((2, 4, 5)):
        service.submit({"type": "roll_settled", "t_us": 200 + k, "dice": dice[:n]})
    service.submit({"type": "violation", "t_us": 203, "kind": "not_all_dice_after_three",
                    "detail": "5 of 6 dice cast after roll 3"})
    assert [v["kind"] for v in service.state()["turn"]["violations"]] == ["not_all_dice_after_three"]
    with pytest.raises(EventRefused, match=r"there is no die 6 \(the box has 5 dice: index 0 to 4 corrects one, 5 adds one\)"):
        service.submit({"type": "correction", "t_us": 250, "what": "die", "index": 6, "face": "blank"})
    state = service.submit({"type": "correction", "t_us": 251, "what": "die", "index": 5, "face": "blank"})
    assert [d["face"] for d in state["turn"]["dice"]] == dice
    assert state["turn"]["violations"] == []
    for k, p in enumerate(["Ben", "Cleo", "Dev"]):
        service.press(p, 300 + k)
    service.submit({"type": "copy_chosen", "t_us": 350, "player": "Ben"})
    for card in ("blue", "pink", "gray"):
        service.submit({"type": "card_revealed", "t_us": 400, "card": card})
    state = service.submit({"type": "turn_scored", "t_us": 600})
    assert state["totals"]["Ada"] == 6  # no penalty: the sixth die was there


def test_a_rule_really_broken_keeps_its_violation_when_a_die_is_corrected():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "players": PLAYERS[4]})
    service.press("Ada", 100)
    dice = ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]
    for k, n in enumerate((2, 4, 6)):
        service.submit({"type": "roll_settled", "t_us": 200 + k, "dice": dice[:n]})
    service.submit({"type": "violation", "t_us": 210, "kind": "knocked_die", "detail": "the pink die moved"})
    state = service.submit({"type": "correction", "t_us": 250, "what": "die", "index": 0, "face": "blue"})
    assert [v["kind"] for v in state["turn"]["violations"]] == ["knocked_die"]

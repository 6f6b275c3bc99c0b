"""Issue 29: an event is validated exactly once where it comes in (the HTTP API, a press at the pin,
the log on replay, a league message), then passed on typed: the engine, the log and the notice never
check it again (no :func:`rig.boundary.check_value`, no :func:`rig.boundary.sanitize` on the way).

The spy counts validations, not helper calls: a validator another one calls while it runs (the
``check_value`` of a new game's options inside the decoding of its request) is part of that one check."""

from __future__ import annotations

import warnings
from collections import Counter

import pytest
from starlette.applications import Starlette

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import rig.boundary
import rig.display.api
import rig.engine.engine
import rig.engine.errors
import rig.engine.events
import rig.engine.log
import rig.engine.log_rows
import rig.league.topics
from rig.display.api import api_routes
from rig.engine.events import GameStarted, NewGame, Toss
from rig.engine.service import EngineService

PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]
#: every name a validator is reachable under, in every module that holds one
VALIDATORS = {
    "decode_event": (rig.engine.events, rig.engine.engine, rig.league.topics),
    "decode_event_json": (rig.engine.events, rig.engine.log, rig.engine.log_rows),
    "check_value": (rig.boundary, rig.engine.events, rig.engine.log, rig.engine.log_rows),
    "check_name": (rig.boundary, rig.engine.events),
    "sanitize": (rig.boundary, rig.engine.engine, rig.engine.log, rig.engine.log_rows, rig.display.api),
    "parse_event": (rig.engine.events,),
    "decode_new_game": (rig.engine.events, rig.display.api),
    "convert": (rig.boundary, rig.display.api),
}


@pytest.fixture
def calls(monkeypatch):
    counted: Counter[str] = Counter()
    running = [0]  # validators running now: only the outermost one counts

    def spy(name, real):
        def counting(*args, **kwargs):
            if not running[0]:
                counted[name] += 1
            running[0] += 1
            try:
                return real(*args, **kwargs)
            finally:
                running[0] -= 1
        return counting

    for name, modules in VALIDATORS.items():
        for module in modules:
            if hasattr(module, name):
                monkeypatch.setattr(module, name, spy(name, getattr(module, name)))
    return counted


@pytest.fixture
def service():
    with EngineService.in_memory(clock="sim") as service:
        service.submit({"type": "game_started", "players": PLAYERS})
        service.press("Ada", 1_000)
        yield service


def test_a_toss_posted_to_the_api_is_validated_once(service, calls):
    client = TestClient(Starlette(routes=api_routes(service)))
    response = client.post("/api/events", json={"type": "toss", "player": "Ben"})
    assert response.status_code == 200, response.text
    assert calls == {"decode_event": 1}


def test_a_refused_event_is_validated_once_and_logged_without_a_second_check(service, calls):
    client = TestClient(Starlette(routes=api_routes(service)))
    response = client.post("/api/events", json={"type": "card_revealed", "card": "pink"})
    assert response.status_code == 409
    assert calls == {"decode_event": 1}
    assert service.state()["notices"][-1]["type"] == "card_revealed"


def test_a_malformed_event_is_checked_once_and_made_safe_once_to_be_logged(service, calls):
    client = TestClient(Starlette(routes=api_routes(service)))
    response = client.post("/api/events", json={"type": "toss", "player": 7})
    assert response.status_code == 422
    assert calls["decode_event"] == 1 and calls["check_value"] == 0


def test_a_new_game_posted_to_the_api_is_validated_once_as_its_request(service, calls):
    client = TestClient(Starlette(routes=api_routes(service)))
    response = client.post("/api/games", json={"players": ["Ada ", "Ben", "Cleo"], "turns_each": 2,
                                               "options": {"penalty_per_violation": 1}})
    assert response.status_code == 201, response.text
    assert calls == {"decode_new_game": 1}  # the request's one decoding; its event is never checked again
    game = response.json()["game"]
    assert game["players"] == ["Ada", "Ben", "Cleo"] and game["turns_each"] == 2
    logged = service.log.events()[-1]
    assert logged.event["type"] == "game_started" and logged.event["source"] == "display"
    assert logged.event["options"] == {"penalty_per_violation": 1, "turns_each": 2}
    assert logged.event["clock"] == service.clock


@pytest.mark.parametrize("body, field", [
    ({"players": ["Ada", "Ben", "Eve\u202e"]}, "$.players[2]"),
    ({"players": ["Ada", "Ben"], "options": {"x": 2**64}}, "$.options.x"),
    ({"players": ["Ada", "Ben"], "turns_each": 0}, "turns_each"),
    ({"players": ["Ada", "Ben"], "colour": "red"}, "colour"),
])
def test_a_bad_new_game_is_refused_by_its_one_check(service, calls, body, field):
    client = TestClient(Starlette(routes=api_routes(service)))
    version = service.version
    response = client.post("/api/games", json=body)
    assert response.status_code == 422 and field in response.json()["error"]
    assert calls["decode_new_game"] == 1  # and nothing else checks it (the error line is made safe to show)
    assert set(calls) <= {"decode_new_game", "sanitize"} and calls["sanitize"] <= 1
    assert service.version == version


def test_a_simulated_press_posted_to_the_api_is_validated_once_at_each_door(service, calls):
    pressed = []

    class Sim:
        def press(self, player, hold_ms=0):
            pressed.append(player)
            service.press(player, 5_000)  # the virtual pin: the press's own door

    client = TestClient(Starlette(routes=api_routes(service, sim=Sim())))
    response = client.post("/api/sim/press", json={"player": "Ben"})
    assert response.status_code == 202 and pressed == ["Ben"]
    assert calls == {"convert": 1, "decode_event": 1}  # the request at the HTTP door, the toss at the pin


def test_a_simulated_roll_posted_to_the_api_is_validated_once(service, calls):
    rolled = []

    class Sim:
        def roll(self, dice):
            rolled.append(dice)

    client = TestClient(Starlette(routes=api_routes(service, sim=Sim())))
    response = client.post("/api/sim/roll", json={"dice": 6})
    assert response.status_code == 202 and rolled == [6]
    assert calls == {"convert": 1}  # the dice the camera then sees come in at the camera's door


def test_a_correction_posted_to_the_api_is_validated_once(service, calls):
    client = TestClient(Starlette(routes=api_routes(service)))
    response = client.post("/api/corrections", json={"what": "undo"})
    assert response.status_code == 200, response.text
    assert calls == {"decode_event": 1}


def test_a_typed_new_game_gets_the_rigs_options_and_clock_without_a_check(calls):
    with EngineService.in_memory(clock="boot-1", game_defaults={"frogs": {"turns_each": 5, "tie_window_us": 10}}) as service:
        new = NewGame(players=["Ada", "Ben", "Cleo"], options={"tie_window_us": 20})
        calls.clear()
        state = service.submit(new.event(t_us=10, source="display"))
        assert calls == {}
        assert state["game"]["turns_each"] == 5
        event = service.log.events()[-1].event
        assert event["options"] == {"turns_each": 5, "tie_window_us": 20} and event["clock"] == "boot-1"


def test_an_event_built_from_checked_values_is_not_checked_again_but_a_decoded_one_is(calls):
    GameStarted.from_checked(t_us=1, source="display", players=["Ada"], options={"turns_each": 1})
    assert calls == {}
    rig.engine.events.decode_event({"type": "game_started", "t_us": 1, "source": "api", "players": ["Ada"],
                                    "options": {"turns_each": 1}})
    assert calls == {"decode_event": 1}
    with pytest.raises(rig.engine.errors.EventFormatError, match="players"):
        rig.engine.events.decode_event({"type": "game_started", "t_us": 1, "source": "api", "players": ["\x00"]})


def test_a_press_at_the_pin_is_validated_once(service, calls):
    service.press("Ben", 2_000)
    assert calls == {"decode_event": 1}


def test_a_roll_the_camera_saw_is_validated_once_with_its_reading(service, calls):
    reading = {"status": "ok", "dice": [{"face": "blue", "x": 1.5, "y": 2.5, "confidence": 0.9}]}
    service.submit({"type": "roll_settled", "dice": ["blue"], "reading": reading}, default_source="camera", keep=True)
    assert calls == {"decode_event": 1}  # the reading's bounds are checked inside that one decoding
    assert service.log.events()[-1].event["reading"] == reading


def test_a_typed_event_is_not_validated_again(service, calls):
    service.submit(Toss(t_us=3_000, source="gpio", player="Cleo"))
    assert calls == {}  # already typed: no validator runs
    assert service.state()["turn"]["tosses"][-1]["player"] == "Cleo"


def test_the_log_on_replay_decodes_each_applied_event_once(tmp_path, calls):
    with EngineService.open(tmp_path, clock="sim") as service:
        service.submit({"type": "game_started", "players": PLAYERS})
        service.press("Ada", 1_000)
        service.press("Ben", 2_000)
    calls.clear()
    with EngineService.open(tmp_path, clock="sim") as again:
        applied = sum(1 for row in again.log.events() if row.status == "applied")
        state = again.state()
        calls.clear()
        again.engine._replay()
        once = {"decode_event_json": applied, "sanitize": applied}  # each row's event, and its logged_at text
        assert calls == once
        # a summary behind the log (a log from before a migration): the rows its fold read are the replay's too
        again.log._conn.execute("UPDATE games SET last_seq = 0")
        calls.clear()
        again.engine._replay()
        assert calls == once
        assert again.log.game_summary_seq(state["game"]["id"]) == again.log.last_seq()
        again.engine._state = None  # the state made afresh from the replayed fold
        assert again.state() == state


def test_the_api_serves_the_json_schema_of_every_event(service):
    client = TestClient(Starlette(routes=api_routes(service)))
    schema = client.get("/api/schema").json()
    kinds = {spec["properties"]["type"]["enum"][0] for spec in schema["$defs"].values()}
    assert kinds >= {"game_started", "toss", "correction", "buzz", "station_scored"}
    assert schema["$defs"]["Toss"]["required"] == ["type", "player", "t_us", "source"]
    assert schema["$defs"]["Toss"]["additionalProperties"] is False


def test_a_league_message_is_decoded_once_and_its_event_into_its_type(calls):
    from rig.league.topics import EventMessage, MessageError, message_schema

    def message(event):
        return (b'{"v": 1, "table": "t1", "seq": 3, "game_id": 1, "batch": 3, "status": "applied", '
                b'"logged_at": "2026-11-23T10:00:00.000+00:00", "event": ' + event + b'}')

    EventMessage.parse("rig/t1/events", message(b'{"type": "toss", "t_us": 5, "source": "gpio", "player": "Ben"}'))
    assert calls == {"decode_event": 1}
    with pytest.raises(MessageError, match="toss.player"):
        EventMessage.parse("rig/t1/events", message(b'{"type": "toss", "t_us": 5, "source": "gpio", "player": 7}'))
    schema = message_schema()
    assert schema["topics"]["rig/<table>/events"] == {"$ref": "#/$defs/EventWire"}
    assert "Toss" in schema["$defs"] and "StateWire" in schema["$defs"]

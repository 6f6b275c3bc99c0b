"""The JSON API over a real EngineService (in memory), through Starlette's test client."""

import json
import warnings

import pytest
from starlette.applications import Starlette

with warnings.catch_warnings():  # newer Starlette prefers httpx2 for its test client; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from rig.display.api import api_routes, sse_message
from rig.engine.service import EngineService

PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]


class FakeSim:
    """Stands in for the runner's simulation (which drives gpiozero mock pins and the virtual table)."""

    def __init__(self, service):
        self.service = service
        self.calls = []
        self.t = 1_000_000

    def press(self, player):
        self.calls.append(("press", player))
        self.t += 1000
        self.service.press(player, self.t)

    def roll(self, n):
        self.calls.append(("roll", n))


@pytest.fixture
def service():
    with EngineService.in_memory(clock="sim") as service:
        yield service


def client_for(service, **options):
    return TestClient(Starlette(routes=api_routes(service, **options)))


def test_state_before_any_game(service):
    response = client_for(service).get("/api/state")
    assert response.status_code == 200
    assert response.json()["game"] is None and response.json()["turn"] is None


def test_new_game_then_state(service):
    client = client_for(service)
    response = client.post("/api/games", json={"players": PLAYERS, "turns_each": 1})
    assert response.status_code == 201
    body = response.json()
    assert body["game"]["players"] == PLAYERS and body["game"]["turns_each"] == 1
    assert client.get("/api/state").json() == service.state()


@pytest.mark.parametrize("body, status, message", [
    (b"{not json", 400, "not valid JSON"),
    (b"[1, 2]", 422, "must be a JSON object"),
    (b'{"players": "Ada"}', 422, "list of names"),
    (b'{"players": ["Ada"], "colour": "red"}', 422, "unknown field"),
    (b'{"players": ["Ada", "Ben"]}', 409, "3 to 8 players"),
    (b'{"players": ["Ada", "Ben", "Cleo"], "turns_each": 0}', 422, "turns_each"),
])
def test_bad_new_game_bodies(service, body, status, message):
    response = client_for(service).post("/api/games", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert message in response.json()["error"]


def test_corrections_and_refusals(service):
    client = client_for(service)
    client.post("/api/games", json={"players": PLAYERS})
    service.press("Ada", 100)
    client.post("/api/events", json={"type": "roll_settled", "dice": ["pink", "pink", "yellow", "blank", "blank", "blue"]})
    response = client.post("/api/corrections", json={"what": "die", "index": 9, "face": "pink"})
    assert response.status_code == 409
    assert response.json() == {"error": "there is no die 9 (the box has 6 dice, index 0 to 5)"}
    response = client.post("/api/corrections", json={"what": "die", "index": 5, "face": "yellow+pink"})
    assert response.status_code == 200
    assert response.json()["turn"]["dice"][5] == {"index": 5, "face": "yellow+pink", "colours": ["pink", "yellow"],
                                                   "lasered": ["blue"], "corrected": True}
    response = client.post("/api/corrections", json={"what": "sideways"})
    assert response.status_code == 422 and "correction.what" in response.json()["error"]
    response = client.post("/api/events", json={"type": "card_revealed", "card": "pink"})
    assert response.status_code == 409 and "still to toss: Ben, Cleo, Dev" in response.json()["error"]
    assert client.get("/api/state").json()["notices"][-1]["type"] == "card_revealed"


def test_post_event_fills_source_and_time(service):
    client = client_for(service)
    client.post("/api/games", json={"players": PLAYERS})
    client.post("/api/events", json={"type": "turn_started"})
    event = service.log.events()[-1].event
    assert event["source"] == "display" and isinstance(event["t_us"], int)


def test_can_change_guards_every_mutating_route(service):
    sim = FakeSim(service)
    client = client_for(service, sim=sim, can_change=lambda request: request.headers.get("x-rig-pin") == "1234")
    for path, body in [("/api/games", {"players": PLAYERS}), ("/api/corrections", {"what": "undo"}),
                       ("/api/events", {"type": "turn_started"}), ("/api/sim/press", {"player": "Ada"}),
                       ("/api/sim/roll", {"dice": 2})]:
        response = client.post(path, json=body)
        assert response.status_code == 403, path
        assert "PIN" in response.json()["error"]
    assert client.get("/api/state").status_code == 200  # anyone may look
    assert client.post("/api/games", json={"players": PLAYERS}, headers={"X-Rig-Pin": "1234"}).status_code == 201
    assert sim.calls == []


def test_sim_routes(service):
    sim = FakeSim(service)
    client = client_for(service, sim=sim)
    client.post("/api/games", json={"players": PLAYERS})
    assert client.post("/api/sim/press", json={"player": "Ada"}).status_code == 202
    assert client.post("/api/sim/roll", json={"dice": 2}).status_code == 202
    assert sim.calls == [("press", "Ada"), ("roll", 2)]
    assert service.state()["turn"]["phase"] == "rolling"
    assert client.post("/api/sim/roll", json={"dice": 7}).status_code == 422
    assert client.post("/api/sim/roll", json={"dice": True}).status_code == 422
    assert client.post("/api/sim/press", json={}).status_code == 422


def test_sim_routes_only_in_simulation(service):
    client = client_for(service)
    assert client.post("/api/sim/press", json={"player": "Ada"}).status_code == 404


def test_history(service):
    client = client_for(service)
    client.post("/api/games", json={"players": PLAYERS})
    history = client.get("/api/history").json()
    assert history["games"][0]["players"] == PLAYERS and history["games"][0]["status"] == "playing"


def test_sse_message_format():
    text = sse_message({"version": 7, "game": None})
    assert text.startswith("event: state\nid: 7\ndata: ") and text.endswith("\n\n")
    assert json.loads(text.split("data: ", 1)[1]) == {"version": 7, "game": None}


def test_an_unwritable_log_is_a_503_and_changes_nothing(service, monkeypatch):
    from rig.engine.errors import LogError

    client = client_for(service)
    client.post("/api/games", json={"players": PLAYERS})
    before = client.get("/api/state").json()

    def full_disk(*args, **kwargs):
        raise LogError("database or disk is full")

    monkeypatch.setattr(service.log, "append_batch", full_disk)
    response = client.post("/api/events", json={"type": "turn_started"})
    assert response.status_code == 503 and "disk is full" in response.json()["error"]
    after = client.get("/api/state").json()
    assert after.pop("outage")["reason"] == "database or disk is full"
    assert after == before


def test_a_turned_away_viewer_is_told_why_and_pin_holders_use_the_reserved_places():
    import asyncio

    from starlette.applications import Starlette

    from rig.bench.fuzz import asgi_request
    from rig.display.api import StreamLimits, api_routes

    service = EngineService.in_memory(clock="sim")
    limits = StreamLimits(total=0, reserved=1)  # every place for viewers taken
    app = Starlette(routes=api_routes(service, limits=limits,
                                      trusted=lambda request: request.client.host == "10.0.0.5"))
    host = {"host": b"127.0.0.1"}

    async def go():
        viewer = await asgi_request(app, "GET", "/api/events", host, client=("10.0.0.9", 1))
        phone = await asgi_request(app, "GET", "/api/events", host, client=("10.0.0.5", 1))
        kiosk = await asgi_request(app, "GET", "/api/events", host, client=("127.0.0.1", 1))
        return viewer, phone, kiosk

    try:
        (status, body), phone, kiosk = asyncio.run(go())
    finally:
        service.close()
    assert status == 503 and "every place is taken" in json.loads(body)["error"]
    assert json.loads(body)["retry_after_s"] > 0
    assert phone[0] == 200 and phone[1].startswith(b"event: state")  # the PIN holder's phone is served
    assert kiosk[0] == 200  # the rig's own display always

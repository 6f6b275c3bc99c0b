"""The web app: pages, static files, who may change what (the PIN), the simulation routes."""

from __future__ import annotations

import re
import warnings

import pytest

from rig.display.app import STATIC_DIR, PinGuard, create_app
from rig.engine import EngineService

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PIN = "424242"
LOCAL = ("127.0.0.1", 40000)
PHONE = ("192.168.1.23", 40000)
NEW_GAME = {"players": ["Ann", "Bob", "Cid", "Dee"]}


@pytest.fixture
def service():
    service = EngineService.in_memory()
    yield service
    service.close()


def client(service, address, **app_options):
    app = create_app(service, pin=PIN, info={"lan": True}, **app_options)
    return TestClient(app, client=address)


def test_pages_and_static_files_are_served_locally(service):
    web = client(service, LOCAL)
    index = web.get("/")
    assert index.status_code == 200 and "<title>rig — scoreboard</title>" in index.text
    assert web.get("/calibrate").status_code == 200
    for name in ("app.js", "common.js", "style.css", "calibrate.js", "calibrate.css"):
        assert web.get(f"/static/{name}").status_code == 200, name
    for path in STATIC_DIR.rglob("*"):
        if path.is_file():  # no CDN: nothing is loaded from another host
            assert not re.search(r"(src|href)=\"https?://|@import url\(|https?://(cdn|unpkg|fonts)", path.read_text()), path


def test_anyone_may_look(service):
    service.submit({"type": "game_started", "players": NEW_GAME["players"]})
    phone = client(service, PHONE)
    assert phone.get("/api/state").json()["game"]["players"] == NEW_GAME["players"]
    assert phone.get("/api/history").status_code == 200
    assert phone.get("/api/health").json()["ok"] is True


def test_a_phone_needs_the_pin_to_change_anything(service):
    phone = client(service, PHONE)
    refused = phone.post("/api/games", json=NEW_GAME)
    assert refused.status_code == 403 and "PIN" in refused.json()["error"]
    assert phone.post("/api/games", json=NEW_GAME, headers={"X-Rig-Pin": "000000"}).status_code == 403
    assert service.state()["game"] is None
    accepted = phone.post("/api/games", json=NEW_GAME, headers={"X-Rig-Pin": PIN})
    assert accepted.status_code == 201
    assert service.state()["game"]["players"] == NEW_GAME["players"]
    assert phone.post("/api/pin", headers={"X-Rig-Pin": PIN}).json() == {"ok": True}


def test_wrong_pins_lock_a_device_out():
    now = [0.0]
    guard = PinGuard(PIN, max_failures=3, lockout_s=60, clock=lambda: now[0])
    assert [guard.check("phone", "1111") for _ in range(3)] == [False, False, False]
    assert guard.check("phone", PIN) is False  # locked out, even with the right PIN
    assert guard.check("laptop", PIN) is True  # others are not
    now[0] = 61.0
    assert guard.check("phone", PIN) is True


def test_the_rig_itself_needs_no_pin_but_other_sites_are_refused(service):
    local = client(service, LOCAL, sim=RecordingSim())
    assert local.post("/api/games", json=NEW_GAME).status_code == 201
    version = service.version
    assert local.post("/api/games", json=NEW_GAME, headers={"Origin": "http://evil.example"}).status_code == 403
    assert service.version == version
    cross = local.post("/api/sim/card", json={"card": "blue"}, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403 and "cross-site" in cross.json()["error"]
    same = local.post("/api/games", json=NEW_GAME, headers={"Origin": "http://testserver"})
    assert same.status_code == 201


def test_the_pin_is_shown_on_the_rigs_own_display_only(service):
    assert client(service, LOCAL).get("/api/display").json()["pin"] == PIN
    phone_view = client(service, PHONE).get("/api/display").json()
    assert "pin" not in phone_view and phone_view["pin_required"] is True
    quiet = TestClient(create_app(service, pin=PIN, info={"lan": False}), client=LOCAL)
    assert "pin" not in quiet.get("/api/display").json()  # nothing to unlock when only this machine listens


def test_a_pin_must_be_digits():
    with pytest.raises(ValueError):
        PinGuard("abc")


class RecordingSim:
    """What the app asks of the simulation (the real one is tested in tests/test_runner.py)."""

    def __init__(self):
        self.calls = []

    def press(self, player, hold_ms=0):
        self.calls.append(("press", player, hold_ms))

    def roll(self, n):
        self.calls.append(("roll", n))

    def show_card(self, card):
        self.calls.append(("show_card", card))

    def hide_card(self):
        self.calls.append(("hide_card",))

    def knock(self):
        self.calls.append(("knock",))

    def drop_camera(self):
        self.calls.append(("drop",))

    def restore_camera(self):
        self.calls.append(("restore",))


def test_simulation_routes_validate_and_act(service):
    sim = RecordingSim()
    local = client(service, LOCAL, sim=sim)
    assert local.get("/api/display").json()["sim"] is True
    assert local.post("/api/sim/card", json={"card": "gray"}).status_code == 200
    assert local.post("/api/sim/card", json={"card": None}).status_code == 200
    assert local.post("/api/sim/card", json={"card": "green"}).status_code == 400
    assert local.post("/api/sim/card", content=b"not json").status_code == 400
    assert local.post("/api/sim/camera", json={"connected": False}).status_code == 200
    assert local.post("/api/sim/camera", json={"connected": "no"}).status_code == 400
    assert local.post("/api/sim/roll", json={"dice": 2}).status_code == 202
    assert local.post("/api/sim/knock", json={}).status_code == 200
    assert sim.calls == [("show_card", "gray"), ("hide_card",), ("drop",), ("roll", 2), ("knock",)]
    assert client(service, PHONE, sim=sim).post("/api/sim/roll", json={"dice": 1}).status_code == 403
    assert len(sim.calls) == 5


def test_no_simulation_routes_on_the_real_rig(service):
    local = client(service, LOCAL)
    assert local.get("/api/display").json()["sim"] is False
    assert local.post("/api/sim/card", json={"card": "blue"}).status_code in (404, 405)


def test_rig_status_route(service):
    local = client(service, LOCAL, status=lambda: {"mode": "sim", "notices": [{"key": "camera", "text": "lost"}]})
    assert local.get("/api/rig").json()["notices"][0]["text"] == "lost"

"""The web app: pages, static files, who may change what (the PIN), the simulation routes."""

from __future__ import annotations

import re
import warnings

import pytest

from rig.display.app import STATIC_DIR, PinGuard, create_app, new_pin
from rig.engine import EngineService

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PIN = "424242"
BASE = "http://127.0.0.1"
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
    return TestClient(app, client=address, base_url=BASE)


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
    assert phone.get("/api/health").json()["ok"] is True


def test_history_is_for_the_display_and_pin_holders(service):
    service.submit({"type": "game_started", "players": NEW_GAME["players"]})
    phone = client(service, PHONE)
    assert phone.get("/api/history").status_code == 403
    assert phone.get("/api/history", headers={"X-Rig-Pin": PIN}).status_code == 200
    assert client(service, LOCAL).get("/api/history").status_code == 200


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


def test_wrong_pins_lock_out_the_guessing_device_with_back_off_and_no_other():
    now = [0.0]
    guard = PinGuard(PIN, max_failures=3, lockout_s=60, max_lockout_s=600, clock=lambda: now[0])
    assert [guard.check("10.0.0.7", "1111") for _ in range(2)] == [False, False]
    assert guard.check("10.0.0.7", None) is False and guard.failures("10.0.0.7") == 2  # no PIN is not a guess
    assert guard.check("10.0.0.7", "1111") is False  # the 3rd wrong PIN: this device is locked out
    assert guard.check("10.0.0.7", PIN) is False and guard.locked_out("10.0.0.7") == "device"  # even the right PIN
    assert guard.check("phone", PIN) is True and guard.locked_out("phone") is None  # every other device is not
    assert guard.check("laptop", PIN) is True
    now[0] = 61.0
    assert guard.check("10.0.0.7", "2222") is False  # the 4th: 120 s now
    now[0] = 61.0 + 119
    assert guard.check("10.0.0.7", PIN) is False
    now[0] = 61.0 + 121
    assert guard.check("10.0.0.7", PIN) is True and guard.failures("10.0.0.7") == 0
    assert [guard.lockout_for(n) for n in (1, 3, 4, 5, 9)] == [0, 60, 120, 240, 600]


def test_rotating_addresses_hit_the_global_ceiling_but_trusted_phones_stay_in():
    now = [0.0]
    guard = PinGuard(PIN, ceiling=10, ceiling_window_s=3600, clock=lambda: now[0])
    assert guard.check("phone", PIN) is True  # a player's phone gave the PIN before the attack
    assert [guard.check(f"10.0.{n}.1", "0000") for n in range(10)] == [False] * 10  # one guess per address
    assert guard.locked_out("10.0.99.1") == "network"
    assert guard.check("10.0.99.1", PIN) is False  # a new address is not even checked now
    assert guard.check("phone", PIN) is True  # the trusted phone still is
    now[0] = 3601.0  # the window has passed: new devices are checked again
    assert guard.check("10.0.99.1", PIN) is True


def test_a_device_locked_out_is_told_why_and_others_are_not(service):
    app = create_app(service, pin=PIN, info={"lan": True})
    guesser = TestClient(app, client=("10.0.0.66", 1), base_url="http://127.0.0.1")
    player = TestClient(app, client=("10.0.0.5", 1), base_url="http://127.0.0.1")
    for _ in range(6):
        guesser.post("/api/pin", headers={"X-Rig-Pin": "00000000"})
    refused = guesser.post("/api/pin", headers={"X-Rig-Pin": PIN})
    assert refused.status_code == 403 and "from this device" in refused.json()["error"]
    assert player.post("/api/pin", headers={"X-Rig-Pin": PIN}).json() == {"ok": True}


def test_the_pin_space_is_not_searchable_in_a_day():
    guard = PinGuard(new_pin())
    assert len(guard.pin) == 8
    assert guard.guesses_per_day() <= 480  # all devices together: 10^8 PINs take ~285 years on average
    assert guard.device_guesses_per_day() < 200


def test_ipv4_mapped_loopback_is_the_rig_itself(service):
    mapped = client(service, ("::ffff:127.0.0.1", 40000))
    assert mapped.get("/api/display").json()["local"] is True
    assert mapped.post("/api/games", json=NEW_GAME).status_code == 201


def test_foreign_host_names_are_refused(service):
    """A DNS-rebinding page reaches the rig with its own host name in Host: refused before the API."""
    local = TestClient(create_app(service, pin=PIN, info={"lan": True}), client=LOCAL,
                       base_url="http://evil.example:8080")
    answer = local.get("/api/display")
    assert answer.status_code == 421 and "pin" not in answer.text
    assert local.post("/api/games", json=NEW_GAME).status_code == 421 and service.state()["game"] is None
    named = TestClient(create_app(service, pin=PIN, hosts=["scores.cafe"]), client=LOCAL,
                       base_url="http://scores.cafe")
    assert named.get("/api/health").status_code == 200
    assert client(service, LOCAL).get("/api/health").status_code == 200


def test_a_retried_post_with_the_same_idempotency_key_happens_once(service):
    web = client(service, LOCAL)
    web.post("/api/games", json=NEW_GAME)
    key = {"Idempotency-Key": "press-0001-abcdef"}
    first = web.post("/api/events", json={"type": "turn_started"}, headers=key)
    again = web.post("/api/events", json={"type": "turn_started"}, headers=key)
    assert first.status_code == again.status_code == 200 and again.headers["idempotent-replay"] == "true"
    assert again.json() == first.json()
    undo = {"Idempotency-Key": "undo-0001-abcdef"}
    version = service.version
    assert web.post("/api/corrections", json={"what": "undo"}, headers=undo).status_code == 200
    assert web.post("/api/corrections", json={"what": "undo"}, headers=undo).status_code == 200
    assert service.version == version + 1  # undone once
    assert web.post("/api/events", json={}, headers={"Idempotency-Key": "x"}).status_code == 400


def test_the_rig_itself_needs_no_pin_but_other_sites_are_refused(service):
    local = client(service, LOCAL, sim=RecordingSim())
    assert local.post("/api/games", json=NEW_GAME).status_code == 201
    version = service.version
    assert local.post("/api/games", json=NEW_GAME, headers={"Origin": "http://evil.example"}).status_code == 403
    assert service.version == version
    cross = local.post("/api/sim/card", json={"card": "blue"}, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403 and "cross-site" in cross.json()["error"]
    same = local.post("/api/games", json=NEW_GAME, headers={"Origin": BASE})
    assert same.status_code == 201


def test_the_pin_is_shown_on_the_rigs_own_display_only(service):
    assert client(service, LOCAL).get("/api/display").json()["pin"] == PIN
    phone_view = client(service, PHONE).get("/api/display").json()
    assert "pin" not in phone_view and phone_view["pin_required"] is True
    quiet = TestClient(create_app(service, pin=PIN, info={"lan": False}), client=LOCAL, base_url=BASE)
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

    def show_card(self, card, layout=None):
        self.calls.append(("show_card", card) + ((layout,) if layout else ()))

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
    assert local.post("/api/sim/card", json={"card": "pink", "layout": "heap"}).status_code == 400
    assert local.post("/api/sim/card", content=b"not json").status_code == 400
    assert local.post("/api/sim/camera", json={"connected": False}).status_code == 200
    assert local.post("/api/sim/camera", json={"connected": "no"}).status_code == 400
    assert local.post("/api/sim/roll", json={"dice": 2}).status_code == 202
    assert local.post("/api/sim/knock", json={}).status_code == 200
    assert local.post("/api/sim/card", json={"card": "pink", "layout": "pile"}).status_code == 200
    assert sim.calls == [("show_card", "gray"), ("hide_card",), ("drop",), ("roll", 2), ("knock",), ("show_card", "pink", "pile")]
    assert client(service, PHONE, sim=sim).post("/api/sim/roll", json={"dice": 1}).status_code == 403
    assert len(sim.calls) == 6


def test_no_simulation_routes_on_the_real_rig(service):
    local = client(service, LOCAL)
    assert local.get("/api/display").json()["sim"] is False
    assert local.post("/api/sim/card", json={"card": "blue"}).status_code in (404, 405)


def test_rig_status_route(service):
    local = client(service, LOCAL, status=lambda: {"mode": "sim", "notices": [{"key": "camera", "text": "lost"}]})
    assert local.get("/api/rig").json()["notices"][0]["text"] == "lost"


def test_a_question_on_screen_is_answered_yes_or_no(service):
    answers = []

    def answer(key, yes):
        if key != "card-question":
            return False
        answers.append(yes)
        return True

    web = client(service, LOCAL, answer=answer)
    assert web.post("/api/answer", json={"key": "card-question", "answer": "yes"}).status_code == 200
    assert web.post("/api/answer", json={"key": "card-question", "answer": "no"}).status_code == 200
    assert answers == [True, False]
    assert web.post("/api/answer", json={"key": "other", "answer": "yes"}).status_code == 409
    bad = web.post("/api/answer", json={"key": "card-question", "answer": "maybe"})
    assert bad.status_code == 422 and "yes" in bad.json()["error"]
    assert client(service, PHONE, answer=answer).post(
        "/api/answer", json={"key": "card-question", "answer": "yes"}).status_code == 403  # a phone needs the PIN
    assert answers == [True, False]

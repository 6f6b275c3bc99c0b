"""Fuzzing every route of the real app over the simulated rig: never a 500, never a traceback, never a
poisoned state (checked after every request, and after a restart over the same data folder)."""

from __future__ import annotations

import json
import logging
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.bench.fuzz import GETS, PIN, POSTS, fuzz_http, strict_json
from rig.config import RigConfig
from rig.app.runner import Rig
from tests.strategies import ANY_TEXT, BODIES

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

LOCAL = ("127.0.0.1", 50000)
PHONE = ("192.168.1.23", 50000)


class Tracebacks(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        if record.exc_info:
            self.records.append(self.format(record))


@pytest.fixture(scope="module")
def sim_rig(tmp_path_factory):
    data = tmp_path_factory.mktemp("fuzz")
    with Rig(RigConfig.default(), mode="sim", data_dir=data, seed=16, camera=False) as rig:
        yield rig


@pytest.fixture(scope="module")
def clients(sim_rig):
    app = sim_rig.app(pin=PIN, lan=True)
    return {who: TestClient(app, client=who, base_url="http://127.0.0.1:8080", raise_server_exceptions=False)
            for who in (LOCAL, PHONE)}


@pytest.fixture(scope="module")
def tracebacks():
    handler = Tracebacks()
    logging.getLogger().addHandler(handler)
    yield handler
    logging.getLogger().removeHandler(handler)


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(POSTS), body=BODIES, phone=st.booleans(),
       pin=st.sampled_from([PIN, None]), key=st.none() | st.sampled_from(["key-00000001", "k" * 8]))
def test_every_post_route_answers_4xx_or_2xx_and_the_state_stays_json(clients, tracebacks, path, body, phone,
                                                                         pin, key):
    web = clients[PHONE if phone else LOCAL]
    headers = {"content-type": "application/json"}
    if phone and pin:
        headers["x-rig-pin"] = pin
    if key:
        headers["idempotency-key"] = key
    answer = web.post(path, content=body, headers=headers)
    assert answer.status_code < 500 or answer.status_code == 503 and "error" in answer.json()
    assert strict_json(answer) or answer.status_code == 404
    state = clients[LOCAL].get("/api/state")
    assert state.status_code == 200 and strict_json(state)
    assert not tracebacks.records


@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(GETS), host=st.sampled_from(["127.0.0.1:8080", "evil.example", "[::1]:80"]),
       pin=ANY_TEXT.filter(lambda t: t.isascii() and t.isprintable()))
def test_every_get_route_answers_without_a_500(clients, tracebacks, path, host, pin):
    answer = clients[PHONE].get(path, headers={"host": host, "x-rig-pin": pin})
    assert answer.status_code < 500 or answer.status_code == 503
    assert not tracebacks.records


def test_the_history_and_state_survive_a_restart_after_fuzzing(sim_rig, clients):
    """Whatever the fuzzing above logged, a restart over the same data folder replays it cleanly."""
    clients[LOCAL].post("/api/games", json={"players": ["Ada", "Ben", "Cleo"]})
    with Rig(RigConfig.default(), mode="sim", data_dir=sim_rig.data_dir, seed=16, camera=False) as again:
        web = TestClient(again.app(pin=PIN, lan=True), client=LOCAL, base_url="http://127.0.0.1")
        for path in ("/api/state", "/api/history"):
            answer = web.get(path)
            assert answer.status_code == 200 and strict_json(answer)
        assert json.loads(web.get("/api/state").content)["game"]["players"] == ["Ada", "Ben", "Cleo"]


def test_a_seeded_campaign_of_hostile_requests(tmp_path):
    """The CI-sized run of `rig bench fuzz` (10,000 requests there): every route, the camera on."""
    figures = fuzz_http(tmp_path / "data", 800, seed=16)
    assert figures["500s"] == 0 and figures["tracebacks"] == 0, figures["first_traceback"]
    assert figures["poisoned"] == 0 and figures["state_checks"] >= 16


# -- the 500s of the second campaign (issue 31), one by one --------------------------------------------

@pytest.mark.parametrize("origin", [b"http://[::1", b"http://[", b"\xff\xfe"])
def test_a_malformed_origin_is_a_foreign_one_not_a_500(clients, tracebacks, origin):
    answer = clients[LOCAL].post("/api/pin", headers={"origin": origin})
    assert answer.status_code == 403 and "cross-site" in answer.json()["error"]
    assert not tracebacks.records


@pytest.mark.parametrize("path", ["/api/turns?game=\u00b2", "/api/turns?game=\u0663", "/api/evidence/\u00b2/1/1.jpg",
                                  "/api/evidence/1/\uff11/1.jpg", "/api/export/bgstats?game=\u00b2",
                                  "/api/export/bgstats.svg?game=\U0001d7d9"])
def test_non_ascii_digits_in_ids_are_422_not_500(clients, tracebacks, path):
    answer = clients[LOCAL].get(path)
    assert answer.status_code == 422 and "whole number" in answer.json()["error"]
    assert not tracebacks.records


@pytest.mark.parametrize("path", ["/api/events", "/api/games", "/api/corrections", "/api/sim/press"])
def test_invalid_utf8_inside_a_json_string_is_400_naming_the_byte(clients, tracebacks, path):
    answer = clients[LOCAL].post(path, content=b'{"player":"\xff\xfe"}', headers={"content-type": "application/json"})
    assert answer.status_code == 400 and "not UTF-8 text (byte 11 is 0xff)" in answer.json()["error"]
    assert not tracebacks.records


def test_a_game_kind_that_is_not_a_string_is_refused_not_a_500(clients, tracebacks):
    for body in ({"type": "game_started", "game": {"a": 1}}, {"type": "game_started", "game": ["x"],
                                                               "players": ["Ada", "Ben", "Cleo"]}):
        answer = clients[LOCAL].post("/api/events", json=body)
        assert 400 <= answer.status_code < 500, answer.text
    assert not tracebacks.records


def test_a_non_ascii_content_length_is_not_a_500(clients, tracebacks):
    answer = clients[LOCAL].post("/api/events", content=b"{}", headers={"content-length": b"\xb2"})
    assert answer.status_code < 500
    assert not tracebacks.records


@pytest.mark.parametrize("path", ["/calibrate", "/", "/static/app.js"])
def test_a_declared_body_over_the_limit_on_a_file_route_is_413_without_a_traceback(clients, tracebacks, path):
    answer = clients[LOCAL].get(path, headers={"content-length": "99999999999999999999"})
    assert answer.status_code == 413
    assert not tracebacks.records

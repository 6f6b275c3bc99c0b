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
from rig.runner import Rig
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

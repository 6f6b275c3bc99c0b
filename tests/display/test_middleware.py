"""The outer guard: a bug answers 503/400 with an incident id, never 500, once-logged; retries with one key happen once, foreign hosts 421."""

from __future__ import annotations

import logging
import warnings

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import JSONResponse
from starlette.routing import Route

from rig.display.middleware import Guard

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def app_with(calls):
    async def broken(request):
        raise KeyError("a bug")

    async def unread(request):
        int("²")  # input a check missed: a ValueError

    async def count(request):
        calls.append(await request.body())
        return JSONResponse({"calls": len(calls)}, status_code=201)

    async def busy(request):
        calls.append("busy")
        return JSONResponse({"error": "disk full"}, status_code=503)

    routes = [Route("/broken", broken), Route("/unread", unread), Route("/count", count, methods=["POST"]),
              Route("/busy", busy, methods=["POST"])]
    return Starlette(routes=routes, middleware=[Middleware(Guard)])


def test_a_bug_answers_503_with_an_incident_id_and_logs_its_traceback_once(caplog):
    web = TestClient(app_with([]), base_url="http://127.0.0.1", raise_server_exceptions=False)
    with caplog.at_level(logging.ERROR):
        answers = [web.get("/broken") for _ in range(3)]
    assert all(a.status_code == 503 and "internal error" in a.json()["error"] for a in answers)
    incidents = [a.json()["incident"] for a in answers]
    assert len(set(incidents)) == 3 and all(i in a.json()["error"] for i, a in zip(incidents, answers))
    assert sum(1 for r in caplog.records if r.exc_info) == 1
    assert len(caplog.records) == 3  # the later ones: one line each
    assert all(i in r.getMessage() for i, r in zip(incidents, caplog.records))  # the id finds it in the journal


def test_input_a_check_missed_answers_400_not_500():
    web = TestClient(app_with([]), base_url="http://127.0.0.1", raise_server_exceptions=False)
    answer = web.get("/unread")
    assert answer.status_code == 400 and answer.json()["incident"] in answer.json()["error"]


def test_one_idempotency_key_one_action_per_client_but_failures_are_retried():
    calls = []
    web = TestClient(app_with(calls), base_url="http://127.0.0.1")
    key = {"Idempotency-Key": "abcdefgh-1"}
    first, again = web.post("/count", content=b"x", headers=key), web.post("/count", content=b"x", headers=key)
    assert first.json() == again.json() == {"calls": 1} and again.status_code == 201
    other = TestClient(web.app, client=("10.0.0.9", 1),
                       base_url="http://127.0.0.1")
    assert other.post("/count", headers=key).json() == {"calls": 2}  # another device's key is its own
    for _ in range(2):
        assert web.post("/busy", headers=key).status_code == 503
    assert calls.count("busy") == 2  # a 503 is not kept: the retry really runs


def test_foreign_hosts_are_421_and_ip_literals_pass():
    web = TestClient(app_with([]), base_url="http://evil.example", raise_server_exceptions=False)
    assert web.get("/broken").status_code == 421
    for host in ("192.168.1.20:8080", "[fd00::2]:8080", "localhost"):
        assert web.get("/broken", headers={"host": host}).status_code == 503  # passed the guard

"""The league page and JSON API: read-only, 4xx for anything odd, the figures from the store."""

from __future__ import annotations

import warnings

from rig.engine.service import EngineService
from rig.league.app import create_league_app
from rig.league.simtable import SimTable
from rig.league.store import LeagueStore
from rig.league.topics import EventMessage, StateMessage

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def filled_store() -> LeagueStore:
    service = EngineService.in_memory(clock="sim")
    table = SimTable(service, seed=4)
    for _ in range(150):
        table.step()
    store = LeagueStore(":memory:")
    store.apply([EventMessage("t1", e.seq, e.game_id, e.batch, e.status, e.reason, e.logged_at, e.event)
                 for e in service.log.events()] + [StateMessage("t1", service.version, service.state())],
                rejects=[("rig/t1/events", "rig/t1/events: not JSON")], online=[("t1", True)])
    return store


def test_the_page_and_every_route():
    store = filled_store()
    client = TestClient(create_league_app(store, status=lambda: {"connected": True, "broker": "b:1883"}))
    assert "League" in client.get("/").text
    assert client.get("/static/league.js").status_code == 200
    body = client.get("/api/league").json()
    assert body["league"]["connected"] is True
    assert body["standings"][0]["rank"] == 1 and len(body["playing"]) == 1 and body["finished"]
    assert body["tables"][0] == {**body["tables"][0], "table": "t1", "online": True, "rejected": 1, "missing": 0}
    assert client.get("/api/standings").json()["standings"] == body["standings"]
    assert [g["status"] for g in client.get("/api/games?status=playing").json()["games"]] == ["playing"]
    assert client.get("/api/tables/t1/state").json()["state"]["game"]["status"] == "playing"
    assert client.get("/api/rejects").json()["rejects"][0]["reason"].endswith("not JSON")


def test_read_only_and_clear_errors():
    client = TestClient(create_league_app(filled_store()))
    assert client.post("/api/league", json={}).status_code == 405
    assert client.delete("/api/games").status_code == 405
    assert client.get("/api/nothing").json() == {"error": "Not Found"}
    assert client.get("/api/games?status=won").status_code == 422
    assert client.get("/api/tables/t9/state").status_code == 404
    assert client.get("/api/tables/..%2F..%2Fetc/state").status_code == 404


def test_every_league_route_walked_with_the_fuzz_corpus_answers_without_a_500():
    import asyncio
    import logging

    from rig.bench.fuzz import _Tracebacks, asgi_request, route_requests

    store = LeagueStore(":memory:")
    app = create_league_app(store)
    catcher = _Tracebacks()
    logging.getLogger().addHandler(catcher)
    try:
        figures = {"failures": [], "requests": 0}

        async def walk():
            for method, path, headers, body in route_requests(app):
                status, _ = await asgi_request(app, method, path, {"host": b"127.0.0.1", **headers}, body)
                figures["requests"] += 1
                if status >= 500 and status != 503 or status == 0:
                    figures["failures"].append((status, method, path, headers))

        asyncio.run(walk())
    finally:
        logging.getLogger().removeHandler(catcher)
        store.close()
    assert figures["requests"] > 300 and figures["failures"] == [], figures["failures"][:5]
    assert catcher.count == 0, catcher.first

"""GET /api/events on a real uvicorn server: the state on connect, then after each change."""

import json
import socket
import threading

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette

from rig.display.api import api_routes
from rig.engine.service import EngineService
from tests.waiting import WAIT_S, wait_until


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def server():
    service = EngineService.in_memory(clock="sim")
    port = free_port()
    config = uvicorn.Config(Starlette(routes=api_routes(service)), host="127.0.0.1", port=port, log_level="warning",
                            lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started, "uvicorn to start")
    try:
        yield service, f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        service.close()


def read_event(lines):
    fields = {}
    for line in lines:
        if line == "":
            if fields:
                return fields
            continue
        if line.startswith(":"):
            continue
        key, _, value = line.partition(": ")
        fields[key] = value


def test_stream_sends_state_on_connect_and_after_each_change(server):
    service, url = server
    with httpx.Client(timeout=WAIT_S) as client, client.stream("GET", url + "/api/events") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = response.iter_lines()
        first = read_event(lines)
        assert first["event"] == "state" and json.loads(first["data"])["game"] is None
        threading.Timer(0.05, service.submit, args=({"type": "game_started", "players": ["Ada", "Ben", "Cleo"]},)).start()
        second = json.loads(read_event(lines)["data"])
        assert second["game"]["players"] == ["Ada", "Ben", "Cleo"]
        threading.Timer(0.05, service.press, args=("Ada", 1000)).start()
        third = json.loads(read_event(lines)["data"])
        assert third["turn"]["phase"] == "rolling" and third["version"] > second["version"]
    wait_until(lambda: not service._subscribers, "the closed stream to unsubscribe")
    assert service._subscribers == []  # the closed stream unsubscribed

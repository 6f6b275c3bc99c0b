"""The referee's routes over an engine service: answers, and one clear error for a bad request."""

from __future__ import annotations

import warnings

import pytest

from rig.display.app import create_app
from rig.engine import EngineService
from rig.evidence import EvidenceStore

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture
def service():
    service = EngineService.in_memory(clock="sim")
    yield service
    service.close()


def web(service, *, pin="42424242", **options):
    """A phone on the LAN that holds the PIN (frames and history are private: issue 16)."""
    return TestClient(create_app(service, pin="42424242", **options), client=("192.168.1.23", 4000),
                      base_url="http://192.168.1.2:8080", headers={"X-Rig-Pin": pin} if pin else {})


def test_frames_and_history_need_the_display_or_the_pin(service):
    assert web(service, pin=None).get("/api/dice").status_code == 403
    assert web(service, pin=None).get("/api/export/history.csv").status_code == 403
    assert web(service).get("/api/dice").status_code == 200


def test_without_a_game_the_turns_are_a_404_and_the_dice_have_nothing_to_tell(service):
    client = web(service)
    assert client.get("/api/turns").status_code == 404
    assert client.get("/api/dice").json()["verdict"] == "too few rolls to tell"
    assert client.get("/api/export/history.csv").text == "number,game_id,game,status,started_at,ended_at,turns,seat,player,points,rank,winner\n"


@pytest.mark.parametrize("path", ["/api/turns?game=abc", "/api/turns?game=-1", "/api/export/bgstats?game=1e3",
                                  "/api/evidence/1/x/1.jpg"])
def test_malformed_ids_are_a_422(service, path):
    response = web(service).get(path)
    assert response.status_code == 422 and "must be a whole number" in response.json()["error"]


def test_a_turn_under_way_with_its_rolls_and_no_frames(service, tmp_path):
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS})
    service.press("Ann", 100)
    service.submit({"type": "roll_settled", "t_us": 200, "dice": ["blue", "pink"],
                    "reading": {"dice": [], "status": "ok", "reasons": []}})
    client = web(service, evidence=EvidenceStore(tmp_path))
    body = client.get("/api/turns").json()
    (turn,) = body["turns"]
    assert turn["scored"] is False and turn["rolls"][0]["image"] is None and body["evidence"] is True
    assert client.get(f"/api/evidence/{body['id']}/1/1.jpg").status_code == 404
    assert client.get("/api/turns?game=999").status_code == 404
    assert client.get("/api/export/bgstats?game=999").status_code == 404


def test_the_referee_routes_change_nothing_and_need_no_pin(service):
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS})
    version = service.version
    client = web(service)
    for path in ("/api/turns", "/api/dice", "/api/export/bgstats", "/api/export/bgstats.svg",
                 "/api/export/history.json"):
        assert client.get(path).status_code == 200, path
        assert client.post(path, json={}).status_code == 405, path
    assert service.version == version


def test_a_games_qr_code_is_made_once_for_every_screen_that_asks():
    from rig.display.referee import qr_svg

    link = "https://app.bgstatsapp.com/createPlay.html?data=x"
    first = qr_svg(link)
    assert first.startswith("<?xml") and "<svg" in first
    assert qr_svg(link) is first  # the same code, not made again (~30 ms each)
    assert qr_svg(link + "y") != first

"""Names with umlauts and ß everywhere (issue 27): the config's players, a game played, the history,
the CSV and JSON exports (the command line's and the page's), the BG Stats link and its QR code, the
league's messages, store and page."""

from __future__ import annotations

import csv
import io
import json
import warnings
from urllib.parse import parse_qs, urlsplit

from rig.cli import main
from rig.config import RigConfig
from rig.display.app import create_app
from rig.engine.export import bgstats_play, bgstats_url, compact_play, history_csv
from rig.engine.service import EngineService
from rig.league.app import create_league_app
from rig.league.store import LeagueStore
from rig.league.topics import EventMessage
from tests.cli.test_history import play_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PLAYERS = ["Jürgen", "Ößwald", "Weiß", "Änne"]


def play_a_game(service: EngineService) -> None:
    """A whole game of four players with umlauts and ß, one turn each (as tests/cli/test_history.py plays)."""
    play_game(service, PLAYERS)


def test_the_config_takes_players_with_umlauts_and_sharp_s():
    config = RigConfig.parse("".join(f'[[players]]\nname = "{name}"\npin = "GPIO{17 + k}"\n'
                                     for k, name in enumerate(PLAYERS[:3])))
    assert [p.name for p in config.players] == PLAYERS[:3]


def test_a_game_its_history_and_exports_keep_the_names(tmp_path, capsys):
    with EngineService.open(tmp_path, clock="sim") as service:
        play_a_game(service)
        game = service.history()["games"][-1]
        assert set(game["totals"]) == set(PLAYERS) and game["winner"] in PLAYERS
        rows = list(csv.DictReader(io.StringIO(history_csv(service.history()))))
        assert {row["player"] for row in rows} == set(PLAYERS)
    assert main(["history", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in PLAYERS)
    assert main(["history", "--data-dir", str(tmp_path), "--export", "csv"]) == 0
    assert {row["player"] for row in csv.DictReader(io.StringIO(capsys.readouterr().out))} == set(PLAYERS)
    assert main(["history", "--data-dir", str(tmp_path), "--export", "json"]) == 0
    text = capsys.readouterr().out
    assert "Ößwald" in text  # written as it is, not as \u00d6\u00dfwald
    assert "Ößwald" in json.dumps(json.loads(text), ensure_ascii=False)


def test_the_bgstats_link_and_its_qr_text_keep_the_names(tmp_path):
    with EngineService.open(tmp_path, clock="sim") as service:
        play_a_game(service)
        summary = service.history()["games"][-1]
    play = bgstats_play(summary)
    for scheme in ("bgstats", "https"):
        url = bgstats_url(play, scheme=scheme)
        url.encode("ascii")  # a link is plain ASCII: the names travel percent-encoded
        (data,) = parse_qs(urlsplit(url).query)["data"]
        assert [p["name"] for p in json.loads(data)["players"]] == PLAYERS
    (data,) = parse_qs(urlsplit(bgstats_url(compact_play(play), scheme="https")).query)["data"]
    assert [p["name"] for p in json.loads(data)["players"]] == PLAYERS


def test_the_page_its_exports_and_bgstats_route_keep_the_names():
    service = EngineService.in_memory(clock="sim")
    try:
        kiosk = TestClient(create_app(service, pin="42424242"), client=("127.0.0.1", 5000),
                           base_url="http://127.0.0.1:8080")
        assert kiosk.post("/api/games", json={"players": PLAYERS}).status_code in (200, 201)
        assert kiosk.get("/api/state").json()["game"]["players"] == PLAYERS
        service.submit({"type": "game_ended", "t_us": 5, "reason": "abandoned"})
        exported = kiosk.get("/api/export/history.csv")
        assert exported.headers["content-type"] == "text/csv; charset=utf-8"
        assert {row["player"] for row in csv.DictReader(io.StringIO(exported.content.decode("utf-8")))} == set(PLAYERS)
        assert "Weiß" in kiosk.get("/api/export/history.json").content.decode("utf-8")
        game_id = kiosk.get("/api/history").json()["games"][-1]["id"]
        body = kiosk.get(f"/api/export/bgstats?game={game_id}").json()
        assert [p["name"] for p in body["play"]["players"]] == PLAYERS
    finally:
        service.close()


def test_the_league_carries_the_names_through_its_messages_store_and_page():
    service = EngineService.in_memory(clock="sim")
    play_a_game(service)
    messages = [EventMessage("tisch-1", e.seq, e.game_id, e.batch, e.status, e.reason, e.logged_at, e.event)
                for e in service.log.events()]
    # over the wire: each message as its MQTT payload and back
    wire = [EventMessage.parse(f"rig/{m.table}/events", m.payload()) for m in messages]
    store = LeagueStore(":memory:")
    store.apply(wire)
    assert {row["name"] for row in store.standings()} == set(PLAYERS)
    finished = store.games(status="over")
    assert finished and set(finished[0]["players"]) == set(PLAYERS)
    page = TestClient(create_league_app(store, status=lambda: {"connected": True, "broker": "b:1883"}))
    body = page.get("/api/standings")
    assert "Ößwald" in body.content.decode("utf-8")
    service.close()

"""The BG Stats link (and its QR code) decoded back to the game; CSV/JSON exports are in tests/cli."""

import io
import json
from urllib.parse import parse_qs, urlsplit

import cv2
import numpy as np
import segno

from rig.display.referee import qr_svg
from rig.engine.export import bgstats_play, bgstats_url, compact_play
from rig.engine.service import EngineService
from tests.cli.test_history import PLAYERS, finished_game as played


def finished_game(data_dir):
    """The four-player game of ``rig history``'s tests, played out; its service reopened on the log."""
    played(data_dir)
    return EngineService.open(data_dir, clock="sim")


def decode(url: str) -> dict:
    parts = urlsplit(url)
    assert (parts.netloc, parts.path) == ("app.bgstatsapp.com", "/createPlay.html")
    (data,) = parse_qs(parts.query)["data"]
    return json.loads(data)


def test_the_bgstats_link_decodes_back_to_the_game(tmp_path):
    service = finished_game(tmp_path)
    summary = service.history()["games"][-1]  # the finished one (a new game was started after it)
    state = {"totals": summary["totals"], "winner": summary["winner"]}
    url = bgstats_url(bgstats_play(summary))
    assert url.startswith("bgstats://")
    play = decode(url)
    assert play["game"]["name"] == "Lunar Laser Frogs" and play["game"]["highestWins"] is True
    assert [p["name"] for p in play["players"]] == PLAYERS
    assert {p["name"]: p["score"] for p in play["players"]} == state["totals"]
    assert [p["name"] for p in play["players"] if p["winner"]] == [state["winner"]]
    best = max(state["totals"].values())
    assert all((p["rank"] == 1) == (p["score"] == best) for p in play["players"])
    assert play["players"][0]["startPlayer"] is True and not any(p["startPlayer"] for p in play["players"][1:])
    assert len(play["playDate"]) == 19 and play["durationMin"] >= 1


def test_the_qr_code_scans_back_to_the_same_link(tmp_path):
    service = finished_game(tmp_path)
    # a fixed date, so the code is the same every run (the wall clock changed its size and cells)
    summary = dict(service.history()["games"][-1], started_at="2026-11-23T19:00:00.000+00:00",
                   ended_at="2026-11-23T19:36:30.000+00:00")
    url = bgstats_url(compact_play(bgstats_play(summary)), scheme="https")
    assert "<svg" in qr_svg(url)
    png = io.BytesIO()
    segno.make(url, error="m").save(png, kind="png", scale=6, border=4)
    image = cv2.imdecode(np.frombuffer(png.getvalue(), np.uint8), cv2.IMREAD_GRAYSCALE)
    text, _points, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)  # the plain detector misses some codes
    assert text == url
    play = decode(text)
    assert [p["name"] for p in play["players"]] == PLAYERS and play["game"]["name"] == "Lunar Laser Frogs"
    assert {p["name"]: p["score"] for p in play["players"]} == summary["totals"]

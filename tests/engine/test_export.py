"""The BG Stats link (and its QR code) decoded back to the game; CSV/JSON exports are in tests/cli."""

import io
import json
from urllib.parse import parse_qs, urlsplit

import cv2
import numpy as np
import segno

from rig.display.referee import qr_svg
from rig.engine.engine import Engine
from rig.engine.export import bgstats_play, bgstats_url, compact_play
from rig.engine.service import EngineService

PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]


def finished_game():
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "t_us": 0, "players": PLAYERS, "options": {"turns_each": 1}})
    t = 1_000_000
    while service.state()["game"]["status"] == "playing":
        roller = service.state()["turn"]["roller"]
        others = [p for p in PLAYERS if p != roller]
        service.press(roller, t)
        service.submit({"type": "roll_settled", "t_us": t + 1, "dice": ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]})
        for k, p in enumerate(others):
            service.press(p, t + 10 + k)
        for card in ("pink", "yellow", "gray"):
            service.submit({"type": "card_revealed", "t_us": t + 20, "card": card})
        service.submit({"type": "copy_chosen", "t_us": t + 30, "player": others[-1]})
        service.submit({"type": "turn_scored", "t_us": t + 40})
        t += 1_000_000
    return service


def decode(url: str) -> dict:
    parts = urlsplit(url)
    assert (parts.netloc, parts.path) == ("app.bgstatsapp.com", "/createPlay.html")
    (data,) = parse_qs(parts.query)["data"]
    return json.loads(data)


def test_the_bgstats_link_decodes_back_to_the_game():
    service = finished_game()
    state = service.state()
    (summary,) = service.history()["games"]
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


def test_the_qr_code_scans_back_to_the_same_link():
    service = finished_game()
    (summary,) = service.history()["games"]
    url = bgstats_url(compact_play(bgstats_play(summary)), scheme="https")
    assert "<svg" in qr_svg(url)
    png = io.BytesIO()
    segno.make(url, error="m").save(png, kind="png", scale=6, border=4)
    image = cv2.imdecode(np.frombuffer(png.getvalue(), np.uint8), cv2.IMREAD_GRAYSCALE)
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text == url
    play = decode(text)
    assert [p["name"] for p in play["players"]] == PLAYERS and play["game"]["name"] == "Lunar Laser Frogs"
    assert {p["name"]: p["score"] for p in play["players"]} == service.state()["totals"]

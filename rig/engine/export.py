"""Games out of the rig: a BG Stats play link, and CSV / JSON exports of the history.

BG Stats (the score-keeping app) imports a finished play from a link
``bgstats://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` (or the same path on
``https://``), documented at https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/ ;
the JSON names the game, the date, the duration and each player's score, rank and winner flag.

>>> game = {"id": 4, "game": "moon", "status": "over", "players": ["Ada", "Ben", "Cleo"],
...         "totals": {"Ada": 9, "Ben": 12, "Cleo": 9}, "winner": "Ben", "turns": 9,
...         "started_at": "2026-11-23T19:00:00.000+00:00", "ended_at": "2026-11-23T19:36:30.000+00:00"}
>>> play = bgstats_play(game)
>>> play["durationMin"], [(p["name"], p["rank"], p["winner"]) for p in play["players"]]
(36, [('Ada', 2, False), ('Ben', 1, True), ('Cleo', 2, False)])
>>> bgstats_url(play).startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=%7B")
True
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any, Mapping
from urllib.parse import quote

from rig import registry

BGSTATS_PATH = "app.bgstatsapp.com/createPlay.html"
CSV_COLUMNS = ("number", "game_id", "game", "status", "started_at", "ended_at", "turns", "seat", "player", "points",
               "rank", "winner")


def _when(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def ranks(totals: Mapping[str, int], players: list[str]) -> dict[str, int]:
    """Competition ranks by points (ties share a rank: 12, 9, 9 → 1, 2, 2).

    >>> ranks({"Ada": 9, "Ben": 12, "Cleo": 9}, ["Ada", "Ben", "Cleo"])
    {'Ada': 2, 'Ben': 1, 'Cleo': 2}
    """
    points = [int(totals.get(name, 0)) for name in players]
    return {name: 1 + sum(other > mine for other in points) for name, mine in zip(players, points)}


def bgstats_play(game: Mapping[str, Any], *, location: str = "", comments: str = "") -> dict[str, Any]:
    """The BG Stats import JSON for one game summary (a row of ``rig history --json``)."""
    started, ended = _when(game.get("started_at")), _when(game.get("ended_at"))
    players = list(game["players"])
    totals = game.get("totals") or {}
    rank = ranks(totals, players)
    play: dict[str, Any] = {
        "board": "",
        "comments": comments or f"Scored by the rig (game #{game.get('number', game['id'])}, {game.get('turns', 0)} turns)",
        "game": {"name": registry.title(game.get("game")), "highestWins": True,
                 "noPoints": False, "sourceGameId": f"rig-{game.get('game')}"},
        "location": location,
        "playDate": (started.astimezone() if started else datetime.now()).strftime("%Y-%m-%d %H:%M:%S"),
        "players": [{"name": name, "score": int(totals.get(name, 0)), "rank": rank[name],
                     "winner": game.get("winner") == name, "startPlayer": seat == 0, "role": "",
                     "sourcePlayerId": name} for seat, name in enumerate(players)],
    }
    if started and ended and ended >= started:
        play["durationMin"] = max(1, round((ended - started).total_seconds() / 60))
    return play


#: what a QR code carries: the fields the import needs (a shorter link is a coarser, easier-to-scan code)
_COMPACT_PLAY = ("game", "playDate", "durationMin", "players")
_COMPACT_PLAYER = ("name", "score", "rank", "winner", "startPlayer")


def compact_play(play: Mapping[str, Any]) -> dict[str, Any]:
    """``play`` without the empty and descriptive fields (board, location, comments, roles, ids)."""
    out = {key: play[key] for key in _COMPACT_PLAY if key in play}
    out["game"] = {key: value for key, value in play["game"].items() if key != "sourceGameId"}
    out["players"] = [{key: p[key] for key in _COMPACT_PLAYER if key in p} for p in play["players"]]
    return out


def bgstats_url(play: Mapping[str, Any], *, scheme: str = "bgstats") -> str:
    """The import link: ``bgstats://...`` opens the app; ``scheme="https"`` also works from a browser.

    The JSON is URL-encoded, keeping only the query-safe punctuation ``:,`` as it is.
    """
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return f"{scheme}://{BGSTATS_PATH}?data={quote(data, safe=':,')}"


def history_csv(history: Mapping[str, Any]) -> str:
    """One row per player per game (``rig history --export csv``), oldest game first; ``number`` is
    the game's number as ``rig history`` and the page show it (``game_id`` the log's)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in reversed(history["games"]):
        rank = ranks(game.get("totals") or {}, game["players"])
        for seat, name in enumerate(game["players"]):
            writer.writerow([game.get("number", ""), game["id"], game.get("game"), game["status"], game.get("started_at") or "",
                             game.get("ended_at") or "", game.get("turns", 0), seat + 1, name,
                             int((game.get("totals") or {}).get(name, 0)), rank[name],
                             int(game.get("winner") == name)])
    return out.getvalue()


def history_json(history: Mapping[str, Any], turns: Mapping[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """Every game (oldest first) with its turns: roller, copy, dice, tosses in µs, points
    (``rig history --export json``); ``turns`` maps a game id to :func:`rig.engine.turns.game_turns`' turns."""
    games = []
    for game in reversed(history["games"]):
        row = {key: game[key] for key in ("number", "id", "game", "status", "players", "totals", "winner", "turns",
                                          "started_at", "ended_at") if key in game}
        row["turn_log"] = [{
            "number": t["number"], "roller": t["roller"], "scored": t["scored"], "dice": t["dice"],
            "copy": (t["copy"] or {}).get("player"),
            "tosses": [{"player": x["player"], "t_us": x["t_us"], "counting": x["counting"], "card": x["card"],
                        "points": x["points"], "margin_us": x["margin_us"], "dead_heat": x["dead_heat"]}
                       for x in t["tosses"]],
            "points": (t["score"] or {}).get("points"), "net": (t["score"] or {}).get("net"),
        } for t in turns.get(game["id"], [])]
        games.append(row)
    return {"games": games, "players": history["players"]}

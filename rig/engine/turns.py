"""Past turns, rebuilt from the event log: what the referee views look back at.

:func:`game_turns` folds one game's logged events again and keeps, for every Lunar Laser
Frogs turn, what the board showed when it was scored (or shows now, for the turn under
way): the dice as finally agreed, the toss timeline in µs with margins and dead heats, the
score, and each settled roll with the reading the camera made of it. :func:`logged_dice`
gathers the final dice of every scored turn of every game (the die-fairness test).
"""

from __future__ import annotations

from typing import Any

from rig import registry
from rig.engine.engine import Engine
from rig.engine.errors import EventRefused
from rig.engine.game import GameState, apply, start_game
from rig.engine.log import EventLog
from rig.engine.view import turn_view


class NoSuchGame(EventRefused):
    """A game id the log does not hold."""


def _record(game: GameState, rolls: list[dict[str, Any]], scored: bool) -> dict[str, Any]:
    view = turn_view(game)
    return {
        "number": view["number"], "roller": view["roller"], "scored": scored, "phase": view["phase"],
        "start_t_us": view["start_t_us"], "dice": [d["face"] for d in view["dice"]],
        "corrected_dice": [d["index"] for d in view["dice"] if d["corrected"]],
        "lasered": view["lasered"], "tosses": view["tosses"], "dead_heats": view["dead_heats"],
        "copy": view["copy"], "score": view["score"], "rolls": rolls,
    }


def game_turns(log: EventLog, game_id: int) -> dict[str, Any]:
    """``{"id", "game", "players", "tie_window_us", "turns": [...]}`` for one logged game (newest state).

    Games other than Lunar Laser Frogs have no turn records (``turns`` is empty).
    """
    logged = log.events(game_id=game_id, status="applied", since=game_id - 1)
    if not logged or logged[0].seq != game_id or logged[0].type != "game_started":
        raise NoSuchGame(f"there is no game {game_id} in the log")
    game = None
    turns: dict[int, dict[str, Any]] = {}
    rolls: dict[int, list[dict[str, Any]]] = {}
    for batch in Engine._effective(logged):
        for seq, event in batch:
            if event.get("type") == "game_started":
                game = start_game(event, seq)
                continue
            number = game.turn.number if isinstance(game, GameState) else None
            before = game
            try:  # as the fold does: a logged event that cannot be applied (a damaged log) is left out
                game = apply(game, event, replay=True)
            except Exception:  # noqa: BLE001 - the fold has logged it and shows the notice
                continue
            if number is None:
                continue
            if event["type"] == "turn_scored":
                turns[number] = _record(before, rolls.get(number, []), True)
            if event["type"] == "roll_settled":
                rolls.setdefault(number, []).append({
                    "roll": game.turn.rolls, "t_us": event["t_us"], "started_us": event.get("started_us"),
                    "dice": list(event.get("dice") or []), "reading": event.get("reading")})
    if isinstance(game, GameState) and not game.is_over and game.turn.number not in turns:
        turns[game.turn.number] = _record(game, rolls.get(game.turn.number, []), False)
    frogs = isinstance(game, GameState)
    return {
        "id": game_id, "game": game.game if game is not None else None,
        "players": list(game.players) if game is not None else [],
        "tie_window_us": game.rules.tie_window_us if frogs else None,
        "turns": [turns[n] for n in sorted(turns)],
    }


def logged_dice(log: EventLog) -> list[str]:
    """The final six faces of every scored Lunar Laser Frogs turn in the log (oldest first)."""
    faces: list[str] = []
    for game_id in log.game_ids():
        first = log.events(game_id=game_id, since=game_id - 1)[:1]
        if not first or first[0].event.get("game", registry.DEFAULT) != registry.DEFAULT:
            continue
        for turn in game_turns(log, game_id)["turns"]:
            if turn["scored"]:
                faces.extend(turn["dice"])
    return faces

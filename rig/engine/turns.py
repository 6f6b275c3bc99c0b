"""Past turns, rebuilt from the event log: what the referee views look back at.

:func:`game_turns` folds one game's logged events again and keeps, for every turn of a game
that keeps turn records (:meth:`rig.engine.extra.ExtraGame.turn_record`), what the board showed
when it was scored (or shows now, for the turn under way): e.g. the dice as finally agreed, the
toss timeline in µs with margins and dead heats, the score, and each settled roll with the
reading the camera made of it. :func:`logged_dice` gathers the final dice of every scored turn
of every game of the rig's first kind (:data:`rig.registry.DEFAULT`: the die-fairness test).
"""

from __future__ import annotations

from typing import Any

from rig import registry
from rig.engine.engine import Engine
from rig.engine.errors import EventRefused
from rig.engine.game import apply, start_game
from rig.engine.log import EventLog


class NoSuchGame(EventRefused):
    """A game id the log does not hold."""


def game_turns(log: EventLog, game_id: int) -> dict[str, Any]:
    """``{"id", "game", "players", "tie_window_us", "turns": [...]}`` for one logged game (newest state).

    A game whose fold keeps no turn records has ``turns`` empty (and ``tie_window_us`` None).
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
            number = game.turn_under_way() if game is not None else None
            before = game
            try:  # as the fold does: a logged event that cannot be applied (a damaged log) is left out
                game = apply(game, event, replay=True)
            except Exception:  # noqa: BLE001 - the fold has logged it and shows the notice
                continue
            if number is None:
                continue
            if event["type"] == "turn_scored":
                turns[number] = before.turn_record(rolls.get(number, []), True)
            if event["type"] == "roll_settled":
                rolls.setdefault(number, []).append({
                    "roll": game.rolls_in_turn(), "t_us": event["t_us"], "started_us": event.get("started_us"),
                    "dice": list(event.get("dice") or []), "reading": event.get("reading")})
    number = game.turn_under_way() if game is not None and not game.is_over else None
    if number is not None and number not in turns:
        turns[number] = game.turn_record(rolls.get(number, []), False)
    return {
        "id": game_id, "game": game.game if game is not None else None,
        "players": list(game.players) if game is not None else [],
        "tie_window_us": game.tie_window_us if game is not None else None,
        "turns": [turns[n] for n in sorted(turns)],
    }


def logged_dice(log: EventLog) -> list[str]:
    """The final faces of every scored turn of the rig's first game in the log (oldest first)."""
    faces: list[str] = []
    for game_id in log.game_ids():
        first = log.events(game_id=game_id, since=game_id - 1)[:1]
        if not first or first[0].event.get("game", registry.DEFAULT) != registry.DEFAULT:
            continue
        for turn in game_turns(log, game_id)["turns"]:
            if turn["scored"]:
                faces.extend(turn["dice"])
    return faces

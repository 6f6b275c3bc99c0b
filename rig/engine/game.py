"""The fold machinery every game shares: start a game, take it one event further, its phase.

A game's state is a :class:`rig.engine.extra.ExtraGame` subclass in its package (its
:class:`rig.registry.Game`'s ``engine``); these functions add what holds for every game (no
event before ``game_started``, nothing after the end) and ask the game's fold for the rest.
"""

from __future__ import annotations

from typing import Any, Mapping

from rig import registry
from rig.engine.errors import EventRefused
from rig.engine.extra import ExtraGame


def start_game(event: Mapping[str, Any], game_id: int) -> ExtraGame:
    """A new game from a ``game_started`` event (raises :class:`EventRefused` for bad set-ups)."""
    name = event.get("game", registry.DEFAULT)
    try:
        kind = registry.get(name) if isinstance(name, str) else None
    except registry.UnknownGameError:
        kind = None
    cls = kind.engine_class() if kind is not None else None
    if cls is None:
        raise EventRefused(f"the engine runs whole games of {', '.join(registry.names())}, not {name!r}")
    return cls.start(event, game_id)


def apply(game: ExtraGame | None, event: Mapping[str, Any], *, replay: bool = False) -> ExtraGame:
    """``game`` after ``event`` (a copy; ``game`` itself is not changed). Raises :class:`EventRefused`.

    ``replay``: the event is already in the log (a fold at start-up or after an undo): checks
    added to a game after the log was written are not applied again, so an older log still folds.
    """
    kind = event["type"]
    if game is None:
        raise EventRefused(f"no game in progress: start one first (a {kind} needs a game)")
    if kind == "game_started":
        raise EventRefused("a game is in progress")  # the Engine ends it first
    if game.is_over and kind != "game_ended":
        winner = (game.ended or {}).get("winner")
        if winner:
            raise EventRefused(f"the game is over ({winner} won): start a new game")
        raise EventRefused("the game is over: start a new game")
    return game.apply(event, replay=replay)


def phase(game: ExtraGame) -> str:
    return game.phase()

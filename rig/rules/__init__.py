"""The rules of the games the rig scores: plain standard-library Python.

No camera, GPIO, image, database or web code is imported here (or below); every other
layer imports the rules, never the reverse. Each game is one module with a
``score_request(data) -> dict`` entry point used by ``rig score``.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

from rig.errors import RigError

#: game name in a turn's JSON -> module implementing it
GAMES = {
    "frogs": "rig.rules.frogs",
    "blitz": "rig.games.blitz.rules",
    "lego": "rig.games.lego.rules",
    "banana": "rig.games.banana.rules",
}


class UnknownGameError(RigError):
    """A game name the rig does not know."""


def available_games() -> tuple[str, ...]:
    """The games whose rules module is present."""
    names = []
    for name, module in GAMES.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        names.append(name)
    return tuple(names)


def score_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """Score one request (a turn, a Würfelblitz roll, ...) by its ``game`` key (default ``frogs``).

    >>> score_request({"game": "chess"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rig.rules.UnknownGameError: unknown game 'chess' (games: frogs...)
    """
    if not isinstance(data, Mapping):
        raise UnknownGameError("the input must be a JSON object with a 'game' key")
    game = data.get("game", "frogs")
    games = available_games()
    if game not in games:
        raise UnknownGameError(f"unknown game {game!r} (games: {', '.join(games)})")
    return importlib.import_module(GAMES[game]).score_request(data)

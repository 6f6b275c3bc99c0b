"""The engine's state as JSON: exactly the body of ``GET /api/state`` (see docs/engine.md).

Every game's fold draws its own part (:meth:`rig.engine.extra.ExtraGame.view`: ``game``,
``turn``, ``totals``, ...); the engine adds ``version`` and ``notices``.
"""

from __future__ import annotations

from typing import Any

from rig.engine.extra import ExtraGame


def state_view(game: ExtraGame | None, *, version: int, notices: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole state: ``game``, ``turn``, ``totals``, ``turns``, ``last_turn``, ``outcome``, ``notices``, ..."""
    if game is None:
        return {"version": version, "game": None, "turn": None, "totals": {}, "turns": [],
                "last_turn": None, "outcome": None, "winner": None, "notices": notices}
    return {"version": version, **game.view(), "notices": notices}

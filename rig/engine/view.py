"""The engine's state as JSON: exactly the body of ``GET /api/state`` (see docs/engine.md).

Every game's fold draws its own part (:meth:`rig.engine.extra.ExtraGame.view`: ``game``,
``turn``, ``totals``, ...); the engine adds ``version`` and ``notices``.

>>> format_margin(850), format_margin(3200), format_margin(1_250_000)
('850 µs', '3.2 ms', '1.25 s')
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


def format_margin(us: int) -> str:
    """A time gap for people: µs below a millisecond, ms below a second, else seconds."""
    if us < 1000:
        return f"{us} µs"
    if us < 1_000_000:
        return f"{us / 1000:.1f} ms"
    return f"{us / 1_000_000:.2f} s"

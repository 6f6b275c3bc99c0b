"""What a player's input (button or break-beam) means: the engine events a press or a release stands for.

The game under way decides (:meth:`rig.engine.extra.ExtraGame.press` and ``release``); without a
game, a press is a toss the engine logs and refuses. These pure functions turn a press or a
release into the events it stands for (possibly none).

>>> events_for_press(None, "Ada", 1000, "gpio")
[{'type': 'toss', 't_us': 1000, 'source': 'gpio', 'player': 'Ada'}]
>>> events_for_release(None, "Ada", 2100, 100, "gpio")
[]
"""

from __future__ import annotations

from typing import Any

from rig.engine.extra import ExtraGame, event

#: a hold at least this long confirms (µs)
HOLD_CONFIRM_US = 1_000_000


def events_for_press(game: ExtraGame | None, player: str, t_us: int, source: str,
                     clock: str | None = None) -> list[dict[str, Any]]:
    """The events a press (or beam break) of ``player``'s input stands for."""
    if game is None or game.is_over:
        return [event("toss", t_us, source, clock, player=player)]  # logged, refused: no game
    return game.press(player, t_us, source, clock)


def events_for_release(game: ExtraGame | None, player: str, t_us: int, held_us: int, source: str,
                       clock: str | None = None, *, hold_us: int = HOLD_CONFIRM_US) -> list[dict[str, Any]]:
    """The events a release of ``player``'s input after ``held_us`` stands for."""
    if game is None or game.is_over:
        return []
    return game.release(player, t_us, held_us, source, clock, hold_us=hold_us)

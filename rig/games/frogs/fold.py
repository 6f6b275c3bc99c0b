"""Lunar Laser Frogs as the engine runs it: the state machine of :mod:`rig.games.frogs.engine` with
its view (:mod:`rig.games.frogs.view`) and the meaning of its toss inputs (:mod:`rig.games.frogs.inputs`)."""

from __future__ import annotations

from typing import Any

from rig.games.frogs.engine import GameState
from rig.games.frogs.inputs import events_for_press, events_for_release
from rig.games.frogs.view import state_part, turn_record


class FrogsFold(GameState):
    """A game of Lunar Laser Frogs: the :class:`rig.engine.extra.ExtraGame` the engine folds."""

    def view(self) -> dict[str, Any]:
        return state_part(self)

    def turn_record(self, rolls: list[dict[str, Any]], scored: bool) -> dict[str, Any]:
        return turn_record(self, rolls, scored)

    # -- the players' inputs ----------------------------------------------------------------
    def press(self, player: str, t_us: int, source: str, clock: str | None) -> list[dict[str, Any]]:
        return events_for_press(self, player, t_us, source, clock)

    def release(self, player: str, t_us: int, held_us: int, source: str, clock: str | None,
                *, hold_us: int) -> list[dict[str, Any]]:
        return events_for_release(self, player, t_us, held_us, source, clock, hold_us=hold_us)

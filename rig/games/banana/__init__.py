"""Banana Moon: the start roll of a white and a black die, read by the camera alone."""

from __future__ import annotations

from typing import Any

from rig.registry import Game


class Banana(Game):
    name = "banana"
    title = "Banana Moon"
    short_title = "Banana Moon"
    description = "2 players: a white and a black die decide who starts; no buttons needed"
    order = 30
    rules = "rig.rules.banana"
    engine = "rig.engine.banana"
    dice = 2
    sim_keys = "r roll both dice"
    needs_inputs = False  # the start roll is the camera's alone

    def reader(self, *, profile: Any = None, params: Any = None):
        from rig.vision.readers import reader_for

        return reader_for(self.name, params=params)


GAME = Banana()

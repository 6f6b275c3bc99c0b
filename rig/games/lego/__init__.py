"""LEGO Lunar Command: two players, one LEGO die with coloured faces."""

from __future__ import annotations

from typing import Any

from rig.registry import Game


class Lego(Game):
    name = "lego"
    title = "LEGO Lunar Command"
    short_title = "LEGO Lunar"
    description = "2 players: one LEGO die with coloured faces, press to take the roll"
    order = 20
    rules = "rig.rules.lego"
    engine = "rig.engine.lego"
    dice = 1
    sim_keys = "1-2 press, r roll"

    def reader(self, *, profile: Any = None, params: Any = None):
        from rig.vision.readers import reader_for

        return reader_for(self.name, params=params)


GAME = Lego()

"""LEGO Lunar Command: two players, one LEGO die with coloured faces."""

from __future__ import annotations

from typing import Any

from rig.registry import Game


class Lego(Game):
    name = "lego"
    title = "LEGO Lunar Command"
    short_title = "LEGO Lunar"
    description = "2 players: one LEGO die with coloured faces, press to take the roll"
    page_script = "page.js"  # its scoreboard on the page (page.css beside it): docs/games-new.md
    page_style = "page.css"
    order = 20
    rules = "rig.games.lego.rules"
    engine = "rig.games.lego.engine"
    dice = 1
    sim_keys = "1-2 press, r roll"
    key_hint = "keys: 1–2 press · r roll · c camera · ? help"
    keys = (("1–2", "press that seat's button (the roller starts, the other takes the turn)"),
            ("r", "roll the LEGO Dice"))
    bench_vision = "rig.games.lego.bench:run"
    player_hint = "Two space commanders; the first one rolls first."

    def read_image(self, frame: Any, *, params: Any = None, variant: str = "standard") -> dict[str, Any]:
        from rig.games.lego.reader import read_lego

        return read_lego(frame, params).to_dict()

    def describe_reading(self, result: dict[str, Any]) -> list[str]:
        return [f"face: {result['face']}"]

    def virtual_dice(self):
        from rig.games.lego.table import LegoDice

        return LegoDice()

    def reader(self, *, profile: Any = None, params: Any = None, kept: Any = None):
        from rig.games.lego.reader import read_lego
        from rig.vision.readers import pip_params

        params = pip_params(params)
        return lambda frame, *, thrown=None: read_lego(frame, params)


GAME = Lego()

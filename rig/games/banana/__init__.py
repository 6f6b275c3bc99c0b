"""Banana Moon: the start roll of a white and a black die, read by the camera alone."""

from __future__ import annotations

from typing import Any

from rig.i18n import N_
from rig.registry import Game

#: the start roll's dice as its refusals name them ("no value for the white die"), in the catalogue
DICE_WORDS = (N_("white"), N_("black"), N_("white and black"))


class Banana(Game):
    name = "banana"
    title = "Banana Moon"
    short_title = "Banana Moon"
    description = "2 players: a white and a black die decide who starts; no buttons needed"
    page_script = "page.js"  # its scoreboard on the page (page.css beside it): docs/games-new.md
    page_style = "page.css"
    order = 30
    rules = "rig.games.banana.rules"
    engine = "rig.games.banana.engine"
    dice = 2
    sim_keys = "r roll both dice"
    key_hint = "keys: r roll · c camera · ? help"
    keys = (("r", "roll both dice (white pips and black pips)"),)
    player_hint = "Two players: the first rolls the die with white pips, the second the one with black pips."
    bench_vision = "rig.bench.pips:run"
    bench_rendered = "rig.games.banana.bench:rendered"
    needs_inputs = False  # the start roll is the camera's alone

    def read_image(self, frame: Any, *, params: Any = None, variant: str = "standard") -> dict[str, Any]:
        from rig.games.banana.reader import read_image

        return read_image(frame, params)

    def describe_reading(self, result: dict[str, Any]) -> list[str]:
        return [f"start roll: white {result['white']}, black {result['black']}"]

    def virtual_dice(self):
        from rig.games.banana.table import BananaDice

        return BananaDice()

    def reader(self, *, profile: Any = None, params: Any = None, kept: Any = None):
        from rig.games.banana.reader import read_start_roll
        from rig.vision.readers import DieSize, empty_is_sure, pip_params

        size = DieSize(pip_params(params), self.dice, kept=kept)  # the dice's size, learned from the first sure roll
        return lambda frame, *, thrown=None: empty_is_sure(size.read(frame, read_start_roll))


GAME = Banana()

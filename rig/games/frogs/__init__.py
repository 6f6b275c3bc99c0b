"""Lunar Laser Frogs: six dice, three rolls, cards laid by hand, toss buttons or IR beams."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rig.registry import Game


class Frogs(Game):
    name = "frogs"
    title = "Lunar Laser Frogs"
    short_title = "Laser Frogs"
    description = "3 to 8 players: six dice, up to three rolls a turn, cards laid by hand, toss buttons"
    page_script = "page.js"  # its scoreboard on the page (page.css beside it): docs/games-new.md
    page_style = "page.css"
    order = 0
    rules = "rig.games.frogs.rules"
    engine = "rig.games.frogs.fold:FrogsFold"
    dice = 6
    sim_keys = "1-8 press a player's button, r roll, b/p/y/k/g lay a card, h hold"
    key_hint = "keys: 1–8 press · r roll · b/p/y/k/g cards · h hold · ? help"
    keys = (
        ("1–8", "press that seat's toss button (the roller's: start, then choose whom to copy)"),
        ("h", "the roller holds their button: confirm the copy"),
        ("r", "roll (two dice, or what is left)"), ("a", "roll all dice left"),
        ("b p y k g", "lay a blue / pink / yellow / blank / gray card under the camera"),
        ("x", "knock a settled die (a violation)"),
    )
    lays_cards = True
    player_hint = "Players in seating order (clockwise), 3 to 8. The first one rolls first."
    #: the dice are read while a roll can happen; in the other phases hands lay cards beside them
    tracker_phases = ("waiting", "rolling", "review")
    resumes_dice = True
    reads_with_profile = True
    rolls_in_parts = True
    benchmarks = {
        "rules": ("rig.games.frogs.bench.rules", "scoring throughput of the rules core (Lunar Laser Frogs turns)"),
        "dice": ("rig.games.frogs.bench.dice",
                 "die-fairness chi-square on seeded fair and loaded rolls, and its flag rates"),
    }
    bench_vision = "rig.bench.vision:run_colour_dice"
    simulated_table = "rig.games.frogs.sim"
    text_patterns = "rig.games.frogs.texts"  # its reasons and dead heats in the page's language

    def config_options(self, game_config: Any) -> dict[str, Any]:
        options = {}
        if game_config.turns_each is not None:
            options["turns_each"] = game_config.turns_each
        if game_config.penalty_per_violation:
            options["penalty_per_violation"] = game_config.penalty_per_violation
        return options

    def defaults(self, config: Any) -> dict[str, Any] | None:
        window = config.tosses.tie_window_us
        return {"tie_window_us": window} if window else None

    def example_request(self) -> dict[str, Any] | None:
        return json.loads((Path(__file__).parent / "examples" / "turn.json").read_text(encoding="utf-8"))

    def dice_fairness(self, faces: list[str]) -> Any:
        from rig.games.frogs.rules.fairness import DiceFairness

        return DiceFairness.of(faces)

    def reader(self, *, profile: Any = None, params: Any = None, kept: Any = None):
        from rig.games.frogs.reader import reader

        return reader(profile)

    def on_camera_event(self, table: Any, event: Any) -> bool:
        from rig.games.frogs.flow import on_camera_event

        return on_camera_event(table, event)

    def on_frame(self, table: Any, t_us: int, frame: Any, state: dict) -> None:
        from rig.games.frogs.flow import on_frame

        on_frame(table, t_us, frame, state)

    def on_answer(self, table: Any, key: str, yes: bool, was: str | None = None) -> bool:
        from rig.games.frogs.flow import on_answer

        return on_answer(table, key, yes, was)


GAME = Frogs()

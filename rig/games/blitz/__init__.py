"""Würfelblitz: six coloured dice and white dice thrown at once, the fastest buzzer answers."""

from __future__ import annotations

from typing import Any

from rig.registry import Game


class Blitz(Game):
    name = "blitz"
    title = "Würfelblitz"
    short_title = "Würfelblitz"
    description = "2 to 7 players: one throw of coloured and white dice, the fastest correct buzz scores"
    page_script = "page.js"  # its scoreboard on the page (page.css beside it): docs/games-new.md
    page_style = "page.css"
    order = 10
    rules = "rig.games.blitz.rules"
    engine = "rig.games.blitz.engine"
    dice = 8  # six coloured dice and two white ones (the white_dice option)
    sim_keys = "1-8 buzz, r throw the dice"
    key_hint = "keys: 1–8 buzz · r throw · c camera · ? help"
    keys = (("1–8", "press that seat's button: buzz to answer"), ("r", "throw the dice"))
    bench_vision = "rig.bench.pips:run"
    bench_rendered = "rig.games.blitz.bench:rendered"
    player_hint = "Players, 2 to 7, one per button in seat order. The first one throws first."

    def dice_for(self, options: dict[str, Any]) -> int:
        return 6 + options.get("white_dice", 2)

    def prepare_score(self, data: dict[str, Any], *, palette: str | None = None) -> dict[str, Any]:
        if palette is not None:
            data.setdefault("palette", [c.strip() for c in palette.split(",") if c.strip()])
        return data

    def read_image(self, frame: Any, *, params: Any = None, variant: str = "standard") -> dict[str, Any]:
        from rig.games.blitz.reader import read_image

        return read_image(frame, params, variant=variant)

    def describe_reading(self, result: dict[str, Any]) -> list[str]:
        if "request" not in result:
            return []
        from rig.games.blitz.rules import BlitzError, score_request

        try:
            return [f"answer: {score_request(result['request'])['answer']}"]
        except BlitzError as exc:
            return [f"no answer: {exc}"]

    def virtual_dice(self):
        from rig.games.blitz.table import BlitzDice

        return BlitzDice()

    def reader(self, *, profile: Any = None, params: Any = None, kept: Any = None):
        from rig.games.blitz.reader import read_blitz
        from rig.vision.readers import empty_is_sure, pip_params

        params = pip_params(params)
        return lambda frame, *, thrown=None: empty_is_sure(read_blitz(frame, params))

    def on_frame(self, table: Any, t_us: int, frame: Any, state: dict) -> None:
        from rig.games.blitz.flow import check_timeout

        check_timeout(table, t_us, state)


GAME = Blitz()

"""Würfelblitz: six coloured dice and white dice thrown at once, the fastest buzzer answers."""

from __future__ import annotations

from typing import Any

from rig.registry import Game


class Blitz(Game):
    name = "blitz"
    title = "Würfelblitz"
    short_title = "Würfelblitz"
    description = "2 or more players: one throw of coloured and white dice, the fastest correct buzz scores"
    order = 10
    rules = "rig.rules.blitz"
    engine = "rig.engine.blitz"
    dice = 8  # six coloured dice and two white ones (the white_dice option)
    sim_keys = "1-8 buzz, r throw the dice"

    def dice_for(self, options: dict[str, Any]) -> int:
        return 6 + options.get("white_dice", 2)

    def prepare_score(self, data: dict[str, Any], *, palette: str | None = None) -> dict[str, Any]:
        if palette is not None:
            data.setdefault("palette", [c.strip() for c in palette.split(",") if c.strip()])
        return data

    def reader(self, *, profile: Any = None, params: Any = None):
        from rig.vision.readers import reader_for

        return reader_for(self.name, params=params)

    def on_frame(self, table: Any, t_us: int, frame: Any, state: dict) -> None:
        from rig.games.blitz.flow import check_timeout

        check_timeout(table, t_us, state)


GAME = Blitz()

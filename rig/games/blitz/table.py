"""Würfelblitz's dice on the virtual table: six coloured dice and 2 or 3 white ones, pips or a dot."""

from __future__ import annotations

from typing import Any

from rig.errors import RigError


class BlitzDice:
    """The dice :class:`rig.hardware.virtual.VirtualTable` throws for Würfelblitz."""

    size = 56  # px on a 640-wide frame

    def check(self, options: dict[str, Any]) -> None:
        white = options.get("white_dice", 2)
        if white not in (2, 3):
            raise RigError(f"virtual table: Würfelblitz has 2 or 3 white dice, not {white!r}")

    def dice_set(self, options: dict[str, Any]) -> list[str]:
        from rig.games.blitz.render import COLOURED

        return list(COLOURED) + ["white"] * options.get("white_dice", 2)

    def face(self, rng, colour: str, options: dict[str, Any]) -> tuple[str, int | None, str | None]:
        from rig.games.blitz.render import COLOURED

        if colour == "white" or rng.random() < 1 / 6:
            others = [c for c in COLOURED if c != colour]
            return colour, None, others[int(rng.integers(len(others)))]
        return colour, int(rng.integers(1, 7)), None

    def draw(self, frame, die) -> None:
        from rig.vision.coloured import PALETTE
        from rig.vision.render_pips import draw_die

        draw_die(frame, die.x, die.y, die.size, die.angle, PALETTE[die.color], pips=die.pips,
                 dot=None if die.dot is None else PALETTE[die.dot])

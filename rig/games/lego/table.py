"""The LEGO Dice on the virtual table: one die whose faces are colours (the game's ``faces`` option)."""

from __future__ import annotations

from typing import Any

from rig.errors import RigError


class LegoDice:
    """The die :class:`rig.hardware.virtual.VirtualTable` throws for LEGO Lunar Command."""

    size = 70  # px on a 640-wide frame

    def check(self, options: dict[str, Any]) -> None:
        from rig.games.lego.reader import LEGO_PALETTE

        unknown = [f for f in self.faces(options) if f not in LEGO_PALETTE]
        if unknown:
            raise RigError(f"virtual table: cannot draw LEGO faces {', '.join(unknown)} "
                           f"(colours: {', '.join(LEGO_PALETTE)})")

    @staticmethod
    def faces(options: dict[str, Any]) -> tuple[str, ...]:
        """The die's colours: the ``faces`` option, or those of the rulebook's die."""
        from rig.games.lego.rules import DEFAULT_FACES

        return tuple(options.get("faces") or DEFAULT_FACES)

    def dice_set(self, options: dict[str, Any]) -> list[str]:
        return [""]

    def face(self, rng, colour: str, options: dict[str, Any]) -> tuple[str, int | None, str | None]:
        names = self.faces(options)
        return names[int(rng.integers(len(names)))], None, None

    def draw(self, frame, die) -> None:
        from rig.games.lego.reader import draw_lego

        draw_lego(frame, die.x, die.y, die.size, die.angle, die.color)

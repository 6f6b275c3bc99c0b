"""Banana Moon's start-roll dice on the virtual table: one die with white pips, one with black pips."""

from __future__ import annotations

from typing import Any


class BananaDice:
    """The dice :class:`rig.hardware.virtual.VirtualTable` throws for the Banana Moon start roll."""

    size = 60  # px on a 640-wide frame

    def check(self, options: dict[str, Any]) -> None:
        pass

    def dice_set(self, options: dict[str, Any]) -> list[str]:
        return ["white", "black"]  # the pips' colours

    def face(self, rng, colour: str, options: dict[str, Any]) -> tuple[str, int | None, str | None]:
        return colour, int(rng.integers(1, 7)), None

    def draw(self, frame, die) -> None:
        from rig.vision.render_pips import draw_die

        body = (45, 40, 40) if die.color == "white" else (225, 232, 238)  # pips contrast with the body
        draw_die(frame, die.x, die.y, die.size, die.angle, body, pips=die.pips)

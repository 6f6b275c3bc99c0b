"""Banana Moon tile game: the start roll.

Each of the two players rolls one die (one has white pips, the other black pips). The
higher number starts; equal numbers roll again. The two values are the start points of
the white and the black sequence of tiles.

>>> StartRoll.parse({"white": 5, "black": 2}).result()
StartResult(white=5, black=2, starter='white', reroll=False)
>>> StartRoll.parse({"white": 3, "black": 3}).result().reroll
True

Players may be named (``{"players": {"white": "Ada", "black": "Ben"}}``): the starter
is then the name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rig.errors import RigError

DICE = ("white", "black")


class BananaError(RigError):
    """Base of every Banana Moon start-roll error."""


class BadPipsError(BananaError):
    """A die value that is not 1–6."""


@dataclass(frozen=True)
class StartResult:
    """Who starts (``None`` when the roll is a tie), and the two sequences' start points."""

    white: int
    black: int
    starter: str | None
    reroll: bool

    def to_dict(self) -> dict[str, Any]:
        return {"white_start": self.white, "black_start": self.black, "starter": self.starter,
                "reroll": self.reroll}


@dataclass(frozen=True)
class StartRoll:
    """The two dice of the start roll, and (optionally) which player rolled which."""

    white: int
    black: int
    players: tuple[str, str] = ("white", "black")

    def __post_init__(self) -> None:
        for die in DICE:
            value = getattr(self, die)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise BadPipsError(f"the {die} die must show 1-6 pips, not {value!r}")
        if len(set(self.players)) != 2:
            raise BananaError(f"the two players need different names, not {self.players!r}")

    @classmethod
    def parse(cls, data: Any) -> "StartRoll":
        if not isinstance(data, Mapping):
            raise BananaError("the start roll must be an object like {'white': 4, 'black': 2}")
        unknown = set(data) - {"game", "white", "black", "players"}
        if unknown:
            raise BananaError(f"unknown key(s) {sorted(unknown)}; a start roll has 'white', 'black', 'players'")
        missing = [d for d in DICE if d not in data]
        if missing:
            raise BadPipsError(f"no value for the {' and '.join(missing)} die")
        players = data.get("players", {"white": "white", "black": "black"})
        if not isinstance(players, Mapping) or set(players) != set(DICE) or not all(
                isinstance(players[d], str) and players[d].strip() for d in DICE):
            raise BananaError("'players' must name who rolled which die: {'white': NAME, 'black': NAME}")
        return cls(data["white"], data["black"], (players["white"].strip(), players["black"].strip()))

    def result(self) -> StartResult:
        if self.white == self.black:
            return StartResult(self.white, self.black, None, True)
        starter = self.players[0] if self.white > self.black else self.players[1]
        return StartResult(self.white, self.black, starter, False)


def score_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """``rig score`` for ``{"game": "banana", "white": n, "black": n}``.

    >>> score_request({"game": "banana", "white": 2, "black": 6, "players": {"white": "Ada", "black": "Ben"}})
    {'white_start': 2, 'black_start': 6, 'starter': 'Ben', 'reroll': False}
    """
    return StartRoll.parse(data).result().to_dict()

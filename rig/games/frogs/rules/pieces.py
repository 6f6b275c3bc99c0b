"""Lunar Laser Frogs' pieces: the dice's faces, the cards, a toss and its order, and every way a
description of them can be wrong (the errors) (issue 29: split from :mod:`rig.games.frogs.rules`,
which re-exports every name).
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from rig.errors import RigError

COLOURS = ("blue", "pink", "yellow")
DICE_PER_TURN = 6
MIN_PLAYERS = 3
MAX_PLAYERS = 8

# The combo faces as the rulebook writes them; each is carried by exactly two dice.
_COMBO_NAMES = {
    frozenset({"pink", "blue"}): "pink+blue",
    frozenset({"yellow", "pink"}): "yellow+pink",
    frozenset({"blue", "yellow"}): "blue+yellow",
}
DICE_PER_COMBO = 2


class FrogsError(RigError):
    """Base of every Lunar Laser Frogs rules error."""


class BadFaceError(FrogsError):
    """A die face that no Lunar Laser Frogs die has."""


class BadCardError(FrogsError):
    """A player card that does not exist."""


class DiceCountError(FrogsError):
    """A turn without exactly six dice."""


class ImpossibleDiceError(FrogsError):
    """Dice no real set can show (e.g. three pink+blue faces: only two dice carry it)."""


class PlayerCountError(FrogsError):
    """Fewer than 3 or more than 8 players."""


class DuplicatePlayerError(FrogsError):
    """Two players with the same name."""


class UnknownPlayerError(FrogsError):
    """A name that is not one of the turn's players."""


class RollerTossedError(FrogsError):
    """The roller tossed a card; only the other players do."""


class CardCountError(FrogsError):
    """A player tossed too many or too few cards, or the same card twice."""


class CopyError(FrogsError):
    """The roller copies nobody, themself, or an unknown player."""


class TossTimeError(FrogsError):
    """A toss time that is not a non-negative whole number of microseconds."""


class TurnFormatError(FrogsError):
    """A turn description with a missing or mistyped field."""



# the errors are public as rig.games.frogs.rules.* (docs/architecture.md): they keep that name
for _error in (FrogsError, BadFaceError, BadCardError, DiceCountError, ImpossibleDiceError, PlayerCountError,
               DuplicatePlayerError, UnknownPlayerError, RollerTossedError, CardCountError, CopyError, TossTimeError,
               TurnFormatError):
    _error.__module__ = "rig.games.frogs.rules"


@dataclass(frozen=True)
class Face:
    """The face a die shows: a set of frog colours (empty for blank).

    >>> Face.parse("blue+pink")
    Face('pink+blue')
    >>> Face.parse("blue+pink") == Face.parse("pink+blue")
    True
    >>> str(Face.parse("blank")), Face.parse("blank").is_blank
    ('blank', True)
    >>> Face.parse("green")
    Traceback (most recent call last):
    ...
    rig.games.frogs.rules.BadFaceError: unknown die face 'green' (faces: blue, pink, yellow, blank, pink+blue, yellow+pink, blue+yellow)
    """

    colours: frozenset[str]

    def __post_init__(self) -> None:
        if not self.colours <= set(COLOURS) or len(self.colours) == 3:
            raise BadFaceError(f"no die has a face with colours {sorted(self.colours)}")

    @classmethod
    def parse(cls, text: str) -> Face:
        if not isinstance(text, str):
            raise BadFaceError(f"a die face must be a name like 'pink' or 'yellow+pink', not {text!r}")
        name = text.strip().lower()
        if name == "blank":
            return cls(frozenset())
        parts = [part.strip() for part in name.split("+")]
        if len(parts) in (1, 2) and len(set(parts)) == len(parts) and set(parts) <= set(COLOURS):
            return cls(frozenset(parts))
        raise BadFaceError(f"unknown die face {text!r} (faces: {', '.join(FACE_NAMES)})")

    @property
    def is_blank(self) -> bool:
        return not self.colours

    @property
    def is_combo(self) -> bool:
        return len(self.colours) == 2

    def __str__(self) -> str:
        if self.is_blank:
            return "blank"
        if self.is_combo:
            return _COMBO_NAMES[self.colours]
        return next(iter(self.colours))

    def __repr__(self) -> str:
        return f"Face({str(self)!r})"


FACE_NAMES = ("blue", "pink", "yellow", "blank", "pink+blue", "yellow+pink", "blue+yellow")
FACES = tuple(Face.parse(name) for name in FACE_NAMES)


class Card(enum.Enum):
    """A player card.

    >>> Card.parse(" Gray ")
    <Card.GRAY: 'gray'>
    >>> Card.parse("grey")
    <Card.GRAY: 'gray'>
    """

    BLUE = "blue"
    PINK = "pink"
    YELLOW = "yellow"
    BLANK = "blank"
    GRAY = "gray"

    @classmethod
    def parse(cls, text: str) -> Card:
        if isinstance(text, str):
            name = text.strip().lower()
            name = {"grey": "gray", "violet": "blank"}.get(name, name)
            for card in cls:
                if card.value == name:
                    return card
        raise BadCardError(f"unknown card {text!r} (cards: {', '.join(c.value for c in cls)})")

    @property
    def colour(self) -> str | None:
        """The frog colour a colour card counts, or None for blank and gray."""
        return self.value if self.value in COLOURS else None


@dataclass(frozen=True)
class Toss:
    """One card tossed into the box: who, which card, and when (µs, monotonic clock)."""

    player: str
    card: Card
    t_us: int

    def __post_init__(self) -> None:
        if isinstance(self.t_us, bool) or not isinstance(self.t_us, int) or self.t_us < 0:
            raise TossTimeError(
                f"toss time of {self.player} must be a non-negative whole number of microseconds, not {self.t_us!r}"
            )

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Toss:
        if not isinstance(data, Mapping):
            raise TurnFormatError(f"a toss must be an object with player, card and t_us, not {data!r}")
        for key in ("player", "card", "t_us"):
            if key not in data:
                raise TurnFormatError(f"a toss is missing {key!r}: {dict(data)!r}")
        unknown = set(data) - {"player", "card", "t_us"}
        if unknown:
            raise TurnFormatError(f"a toss has unknown field(s) {', '.join(sorted(unknown))}")
        if not isinstance(data["player"], str):
            raise TurnFormatError(f"a toss's player must be a name, not {data['player']!r}")
        return cls(data["player"], Card.parse(data["card"]), data["t_us"])


def order_tosses(tosses: Iterable[Toss]) -> tuple[Toss, ...]:
    """Tosses in the order they landed: by time, equal times in the order given (logged).

    >>> a, b, c = Toss("Ben", Card.BLUE, 5), Toss("Cleo", Card.PINK, 5), Toss("Dev", Card.GRAY, 1)
    >>> [t.player for t in order_tosses([a, b, c])]
    ['Dev', 'Ben', 'Cleo']
    """
    return tuple(sorted(tosses, key=lambda toss: toss.t_us))


def is_dead_heat(margin_us: int | None, tie_window_us: int = 0) -> bool:
    """Whether two tosses ``margin_us`` apart are too close to call: within the measured jitter.

    The edge timestamps of different inputs scatter by a few µs (``rig tosses --calibrate-jitter``
    measures it); a gap inside ``tie_window_us`` is a dead heat, shown as such, not a silent winner.
    The earlier timestamp still counts first.

    >>> is_dead_heat(3, 50), is_dead_heat(3_000, 50), is_dead_heat(0), is_dead_heat(None, 50)
    (True, False, True, False)
    """
    return margin_us is not None and 0 <= margin_us <= tie_window_us


def check_tie_window(tie_window_us: Any) -> int:
    """``tie_window_us`` if it is a whole number of µs from 0 to 1 s, else :class:`FrogsError`."""
    if isinstance(tie_window_us, bool) or not isinstance(tie_window_us, int) or not 0 <= tie_window_us <= 1_000_000:
        raise FrogsError(f"tie_window_us must be a whole number of µs from 0 to 1000000, not {tie_window_us!r}")
    return tie_window_us


def check_players(players: tuple[str, ...]) -> None:
    """Raise unless ``players`` are 3 to 8 distinct, non-empty names."""
    if not all(isinstance(name, str) and name.strip() for name in players):
        raise TurnFormatError("every player needs a non-empty name")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise PlayerCountError(f"Lunar Laser Frogs needs 3 to 8 players, not {len(players)}")
    duplicates = sorted(name for name, n in Counter(players).items() if n > 1)
    if duplicates:
        raise DuplicatePlayerError(f"duplicate player name(s): {', '.join(duplicates)}")

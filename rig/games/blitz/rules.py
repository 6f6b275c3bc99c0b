"""Würfelblitz (Steffen Benndorf): the sum of one throw, and the scoring discs.

Six coloured dice show pips (one face of each carries a colour dot instead of a number);
two or three white dice show only colour dots. The answer is the sum of the pips of the
coloured dice whose body colour does **not** appear as a dot on another die:

>>> roll = Roll.parse([
...     {"color": "red", "pips": 3}, {"color": "yellow", "pips": 4},
...     {"color": "blue", "pips": 1}, {"color": "green", "pips": 4},
...     {"color": "black", "pips": 4}, {"color": "orange", "dot": "black"},
...     {"color": "white", "dot": "green"}, {"color": "white", "dot": "purple"}])
>>> score = BlitzRules().score(roll)
>>> score.answer, score.counted, score.excluded
(8, ('red', 'yellow', 'blue'), ('green', 'black'))

The "Hirnverdreher" (twister) variant is :class:`TwisterRules`, which overrides the one
hook :meth:`BlitzRules.swapped`: once any dot colour is visible at least twice, exactly
the dice that would normally not count are summed.

>>> twisted = Roll.parse([
...     {"color": "green", "pips": 4}, {"color": "black", "pips": 4},
...     {"color": "red", "pips": 2}, {"color": "white", "dot": "green"},
...     {"color": "white", "dot": "green"}, {"color": "blue", "dot": "black"}])
>>> TwisterRules().score(twisted).answer
8

The scoring discs: three white discs buy a black one (the handicap can lower that per
player), a wrong answer loses a white disc, three black discs win.

>>> board = Scoreboard.new(["Ada", "Ben"])
>>> for _ in range(3):
...     board = board.answered({"Ada": True})
>>> board.discs["Ada"]
Discs(white=0, black=1)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from rig.errors import RigError

WHITE = "white"
MAX_COLOURED_DICE = 6
MAX_WHITE_DICE = 3
BLACK_TO_WIN = 3
WHITES_PER_BLACK = 3
VARIANTS = ("standard", "twister")
#: The colours a Würfelblitz set shows (die bodies and dots); a request may give its own "palette".
PALETTE = ("red", "orange", "yellow", "green", "blue", "black", "purple", "white")


class BlitzError(RigError):
    """Base of every Würfelblitz rules error."""


class BadDieError(BlitzError):
    """A die that no Würfelblitz set has (white die with pips, 7 pips, no colour, ...)."""


class DiceSetError(BlitzError):
    """A throw no real set can show (two red dice, seven coloured dice, four white ones)."""


class UnknownColourError(BadDieError):
    """A body or dot colour outside the configured palette (``"chartreuse"``)."""


class UnknownVariantError(BlitzError):
    """A variant other than ``standard`` and ``twister``."""


class UnknownPlayerError(BlitzError):
    """A name that is not one of the game's players."""


def _colour(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadDieError(f"{what} must be a colour name such as 'red', not {value!r}")
    return value.strip().lower()


@dataclass(frozen=True)
class Die:
    """One die as it lies: its body colour and either its pips or the colour of its dot.

    >>> Die.parse({"color": "Green", "pips": 4})
    Die(color='green', pips=4, dot=None)
    >>> Die.parse({"color": "white", "pips": 2})
    Traceback (most recent call last):
    ...
    rig.games.blitz.rules.BadDieError: die 'white': white dice carry only colour dots, not pips
    """

    color: str
    pips: int | None = None
    dot: str | None = None

    def __post_init__(self) -> None:
        if (self.pips is None) == (self.dot is None):
            raise BadDieError(f"die {self.color!r}: give exactly one of 'pips' (1-6) or 'dot' (a colour)")
        if self.pips is not None:
            if self.color == WHITE:
                raise BadDieError(f"die {self.color!r}: white dice carry only colour dots, not pips")
            if isinstance(self.pips, bool) or not isinstance(self.pips, int) or not 1 <= self.pips <= 6:
                raise BadDieError(f"die {self.color!r}: pips must be a whole number 1-6, not {self.pips!r}")
        if self.dot == WHITE:
            raise BadDieError(f"die {self.color!r}: no die carries a white dot")

    @classmethod
    def parse(cls, data: Any) -> "Die":
        """From ``{"color": c, "pips": n}`` / ``{"color": c, "dot": d}``, or the short ``str(die)`` form.

        >>> Die.parse("red:dot=blue"), Die.parse("green:4")
        (Die(color='red', pips=None, dot='blue'), Die(color='green', pips=4, dot=None))
        """
        if isinstance(data, str):
            return cls._parse_short(data)
        if not isinstance(data, Mapping):
            raise BadDieError(f"a die must be an object like {{'color': 'red', 'pips': 3}}, not {data!r}")
        unknown = set(data) - {"color", "pips", "dot"}
        if unknown:
            raise BadDieError(f"unknown key(s) {sorted(unknown)} in die {dict(data)!r}")
        if "color" not in data:
            raise BadDieError(f"die {dict(data)!r} has no 'color'")
        color = _colour(data["color"], "'color'")
        dot = data.get("dot")
        return cls(color, data.get("pips"), None if dot is None else _colour(dot, f"die {color!r}: 'dot'"))

    @classmethod
    def _parse_short(cls, text: str) -> "Die":
        colour, sep, shown = text.strip().partition(":")
        if not sep:
            raise BadDieError(f"a die must be like 'green:4' or 'red:dot=blue', not {text!r}")
        colour = _colour(colour, f"die {text!r}: the colour")
        if shown.startswith("dot="):
            return cls(colour, None, _colour(shown[4:], f"die {text!r}: the dot"))
        try:
            pips = int(shown)
        except ValueError:
            raise BadDieError(f"a die must be like 'green:4' or 'red:dot=blue', not {text!r}") from None
        return cls(colour, pips, None)

    @property
    def is_white(self) -> bool:
        return self.color == WHITE

    def to_dict(self) -> dict[str, Any]:
        return {"color": self.color, "pips": self.pips} if self.pips is not None else {"color": self.color, "dot": self.dot}

    def __str__(self) -> str:
        return f"{self.color}:{self.pips}" if self.pips is not None else f"{self.color}:dot={self.dot}"


@dataclass(frozen=True)
class Roll:
    """The dice of one throw, in the order given (reading order from the camera)."""

    dice: tuple[Die, ...]

    def __post_init__(self) -> None:
        coloured = [d.color for d in self.dice if not d.is_white]
        twice = sorted(c for c, n in Counter(coloured).items() if n > 1)
        if twice:
            raise DiceSetError(f"a set has one die of each colour; {', '.join(twice)} appears twice")
        if len(coloured) > MAX_COLOURED_DICE:
            raise DiceSetError(f"a set has {MAX_COLOURED_DICE} coloured dice, not {len(coloured)}")
        whites = len(self.dice) - len(coloured)
        if whites > MAX_WHITE_DICE:
            raise DiceSetError(f"a game uses two or three white dice, not {whites}")

    @classmethod
    def parse(cls, data: Any, palette: Iterable[str] = PALETTE) -> "Roll":
        """From a list of die objects (``{"color": ..., "pips": n}`` or ``{"color": ..., "dot": c}``).

        Every body and dot colour must be in ``palette``:

        >>> Roll.parse([{"color": "chartreuse", "pips": 3}])
        Traceback (most recent call last):
        ...
        rig.games.blitz.rules.UnknownColourError: die 'chartreuse:3': colour 'chartreuse' is not in the palette (red, orange, yellow, green, blue, black, purple, white)
        """
        if isinstance(data, (str, bytes)) or not isinstance(data, Iterable):
            raise DiceSetError(f"'dice' must be a list of dice, not {data!r}")
        palette = tuple(palette)
        dice = tuple(Die.parse(d) for d in data)
        for die in dice:
            for colour in (die.color, die.dot):
                if colour is not None and colour not in palette:
                    raise UnknownColourError(f"die {str(die)!r}: colour {colour!r} is not in the palette "
                                             f"({', '.join(palette)})")
        return cls(dice)

    def dots(self) -> Counter[str]:
        """How often each dot colour is visible."""
        return Counter(d.dot for d in self.dice if d.dot is not None)

    def dots_elsewhere(self, index: int) -> set[str]:
        """The dot colours visible on the dice other than ``self.dice[index]``."""
        return {d.dot for i, d in enumerate(self.dice) if i != index and d.dot is not None}

    def to_list(self) -> list[dict[str, Any]]:
        return [d.to_dict() for d in self.dice]

    def __str__(self) -> str:
        return " ".join(str(d) for d in self.dice)


@dataclass(frozen=True)
class BlitzScore:
    """The correct answer for a throw, with the pip dice that counted and those excluded."""

    answer: int
    counted: tuple[str, ...]
    excluded: tuple[str, ...]
    swapped: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "counted": list(self.counted), "excluded": list(self.excluded),
                "swapped": self.swapped}


class BlitzRules:
    """The standard rules. Variants subclass this and override :meth:`swapped`."""

    name = "standard"

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def swapped(self, roll: Roll) -> bool:
        """Hook: sum the normally excluded dice instead of the normally counted ones?"""
        return False

    def score(self, roll: Roll) -> BlitzScore:
        normal, hidden = [], []
        for i, die in enumerate(roll.dice):
            if die.pips is None:
                continue
            (hidden if die.color in roll.dots_elsewhere(i) else normal).append(die)
        swapped = self.swapped(roll)
        counted, excluded = (hidden, normal) if swapped else (normal, hidden)
        return BlitzScore(sum(d.pips for d in counted), tuple(d.color for d in counted),
                          tuple(d.color for d in excluded), swapped)


class TwisterRules(BlitzRules):
    """The "Hirnverdreher" variant: a dot colour seen twice or more swaps counted and excluded."""

    name = "twister"

    def swapped(self, roll: Roll) -> bool:
        return any(n >= 2 for n in roll.dots().values())


def rules_for(variant: str) -> BlitzRules:
    """``"standard"`` or ``"twister"``.

    >>> rules_for("twister")
    TwisterRules()
    """
    for cls in (BlitzRules, TwisterRules):
        if cls.name == variant:
            return cls()
    raise UnknownVariantError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")


@dataclass(frozen=True)
class Discs:
    """One player's scoring discs."""

    white: int = 0
    black: int = 0


@dataclass(frozen=True)
class Scoreboard:
    """The discs of every player; immutable, each answer gives a new board.

    ``handicap`` maps a player to how many white discs buy them a black one (the
    rulebook's "Ausgleich unterschiedlicher Spielstärken"; default 3, 1 for a beginner).

    >>> board = Scoreboard.new(["Ada", "Ben"], handicap={"Ben": 1})
    >>> board = board.answered({"Ben": True, "Ada": False})
    >>> board.discs["Ben"], board.discs["Ada"]
    (Discs(white=0, black=1), Discs(white=0, black=0))
    """

    discs: Mapping[str, Discs]
    handicap: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def new(cls, players: Iterable[str], *, handicap: Mapping[str, int] | None = None) -> "Scoreboard":
        players = list(players)
        if len(set(players)) != len(players) or not players:
            raise BlitzError(f"players must be distinct names, not {players!r}")
        handicap = dict(handicap or {})
        for name, n in handicap.items():
            if name not in players:
                raise UnknownPlayerError(f"handicap for {name!r}, who is not playing")
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= WHITES_PER_BLACK:
                raise BlitzError(f"handicap for {name!r} must be 1-{WHITES_PER_BLACK} white discs per black, not {n!r}")
        return cls(MappingProxyType({p: Discs() for p in players}), MappingProxyType(handicap))

    def whites_per_black(self, player: str) -> int:
        return self.handicap.get(player, WHITES_PER_BLACK)

    def answered(self, results: Mapping[str, bool]) -> "Scoreboard":
        """Apply one round: ``{player: True}`` for each correct answer, ``False`` for each wrong one.

        Several players who name the right sum together each get a white disc; a wrong
        answer gives back a white disc if the player has one (black discs are safe).
        """
        discs = dict(self.discs)
        for player, correct in results.items():
            if player not in discs:
                raise UnknownPlayerError(f"{player!r} is not playing (players: {', '.join(discs)})")
            d = discs[player]
            if correct:
                white = d.white + 1
                if white >= self.whites_per_black(player):
                    d = Discs(0, d.black + 1)
                else:
                    d = Discs(white, d.black)
            else:
                d = Discs(max(0, d.white - 1), d.black)
            discs[player] = d
        return replace(self, discs=MappingProxyType(discs))

    @property
    def winners(self) -> tuple[str, ...]:
        """Players with three black discs (more than one only if they got there in the same round)."""
        return tuple(p for p, d in self.discs.items() if d.black >= BLACK_TO_WIN)

    def to_dict(self) -> dict[str, Any]:
        return {"discs": {p: {"white": d.white, "black": d.black} for p, d in self.discs.items()},
                "winners": list(self.winners)}


def score_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """``rig score`` for ``{"game": "blitz", "variant": ..., "dice": [...]}``.

    >>> score_request({"game": "blitz", "dice": [{"color": "red", "pips": 5},
    ...                {"color": "white", "dot": "red"}, {"color": "blue", "pips": 2}]})
    {'answer': 2, 'counted': ['blue'], 'excluded': ['red'], 'swapped': False}
    """
    if not isinstance(data, Mapping):
        raise BlitzError("the request must be a JSON object")
    unknown = set(data) - {"game", "variant", "dice", "palette"}
    if unknown:
        raise BlitzError(f"unknown key(s) {sorted(unknown)}; a Würfelblitz request has 'variant', 'dice' "
                         "and 'palette'")
    if "dice" not in data:
        raise DiceSetError("no 'dice' given")
    rules = rules_for(data.get("variant", "standard"))
    return rules.score(Roll.parse(data["dice"], parse_palette(data.get("palette", PALETTE)))).to_dict()


def parse_palette(value: Any) -> tuple[str, ...]:
    """A palette: a list of distinct colour names, including ``white`` (the dot dice).

    >>> parse_palette(["Red", "white"])
    ('red', 'white')
    >>> parse_palette("red")
    Traceback (most recent call last):
    ...
    rig.games.blitz.rules.BlitzError: 'palette' must be a list of colour names, not 'red'
    """
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise BlitzError(f"'palette' must be a list of colour names, not {value!r}")
    names = tuple(_colour(v, "a palette colour") for v in value)
    if len(set(names)) != len(names) or WHITE not in names:
        raise BlitzError(f"'palette' must list distinct colours including 'white', not {list(names)!r}")
    return names

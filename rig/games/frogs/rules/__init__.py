"""Lunar Laser Frogs: the rules of one turn, in plain standard-library Python.

A turn is six die faces, the other players' card tosses (ordered by time) and the
roller's copy choice. Scoring it:

>>> turn = Turn.parse({
...     "players": ["Ada", "Ben", "Cleo", "Dev", "Eli"], "roller": "Ada",
...     "dice": ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"],
...     "tosses": [{"player": "Ben", "card": "blue", "t_us": 1000},
...                {"player": "Cleo", "card": "pink", "t_us": 2000},
...                {"player": "Dev", "card": "yellow", "t_us": 3000},
...                {"player": "Eli", "card": "gray", "t_us": 4000}],
...     "copy": "Ben"})
>>> score = score_turn(turn)
>>> score.missing
('blue',)
>>> dict(score.points)
{'Ada': 6, 'Ben': 6, 'Cleo': 3, 'Dev': 2, 'Eli': 3}

Legality checks (:meth:`FrogsRules.check_turn`) are separate from scoring
(:meth:`FrogsRules.score`); the variants for 3 and for 6–8 players are subclasses of
:class:`FrogsRules` overriding a few hooks, chosen by :func:`rules_for`.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from types import MappingProxyType
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


@dataclass(frozen=True)
class Turn:
    """One turn as data: seat order, roller, six faces, the tosses, the copy choice.

    ``violations`` counts rule violations per player (the optional penalty rule).
    """

    players: tuple[str, ...]
    roller: str
    dice: tuple[Face, ...]
    tosses: tuple[Toss, ...]
    copy: str | None
    violations: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "dice", tuple(self.dice))
        object.__setattr__(self, "tosses", tuple(self.tosses))
        object.__setattr__(self, "violations", MappingProxyType(dict(self.violations)))

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Turn:
        """A turn from its JSON object (see ``rig score``)."""
        if not isinstance(data, Mapping):
            raise TurnFormatError("a turn must be a JSON object")
        known = {"game", "players", "roller", "dice", "tosses", "copy", "violations"}
        unknown = set(data) - known
        if unknown:
            raise TurnFormatError(f"unknown field(s) in the turn: {', '.join(sorted(unknown))}")
        for key in ("players", "roller", "dice", "tosses"):
            if key not in data:
                raise TurnFormatError(f"the turn is missing {key!r}")
        players, dice, tosses = data["players"], data["dice"], data["tosses"]
        if not isinstance(players, list):
            raise TurnFormatError("'players' must be a list of names")
        if not isinstance(dice, list):
            raise TurnFormatError("'dice' must be a list of six faces")
        if not isinstance(tosses, list):
            raise TurnFormatError("'tosses' must be a list of {player, card, t_us} objects")
        violations = data.get("violations", {})
        if not isinstance(violations, Mapping) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in violations.values()
        ):
            raise TurnFormatError("'violations' must map player names to counts (whole numbers >= 0)")
        return cls(
            players=tuple(players),
            roller=data["roller"],
            dice=tuple(Face.parse(face) for face in dice),
            tosses=tuple(Toss.parse(toss) for toss in tosses),
            copy=data.get("copy"),
            violations=violations,
        )


@dataclass(frozen=True)
class CardScore:
    """What one tossed card earned, and why."""

    position: int  # 1-based place in the stack
    player: str
    card: Card
    t_us: int
    points: int
    reason: str
    margin_us: int | None = None  # time since the previous toss
    dead_heat: bool = False  # landed within the tie window of the previous toss

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "player": self.player,
            "card": self.card.value,
            "t_us": self.t_us,
            "points": self.points,
            "reason": self.reason,
            "margin_us": self.margin_us,
            "dead_heat": self.dead_heat,
        }


@dataclass(frozen=True)
class TurnScore:
    """The outcome of one turn: points per player (≥ 0), the per-card breakdown and the dice counts."""

    roller: str
    copy: str
    points: Mapping[str, int]
    cards: tuple[CardScore, ...]
    missing: tuple[str, ...]
    counts: Mapping[str, int]
    penalties: Mapping[str, int]

    @property
    def net(self) -> dict[str, int]:
        """Points minus penalties, per player (may be negative for the turn)."""
        return {name: self.points[name] - self.penalties.get(name, 0) for name in self.points}

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "frogs",
            "points": dict(self.points),
            "penalties": dict(self.penalties),
            "net": self.net,
            "roller": self.roller,
            "copy": self.copy,
            "copied_points": self.points[self.copy],
            "missing": list(self.missing),
            "lasered": list(self.missing),
            "counts": dict(self.counts),
            "cards": [card.to_dict() for card in self.cards],
        }


def dice_counts(dice: Iterable[Face]) -> tuple[tuple[str, ...], dict[str, int]]:
    """The lasered (missing) colours and how many dice count for each colour and for blank.

    A colour rolled nowhere is lasered onto all six dice; then no die is blank any more.
    Blank is not a colour and is never lasered.

    >>> dice_counts(Face.parse(f) for f in ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"])
    (('blue',), {'blue': 6, 'pink': 3, 'yellow': 2, 'blank': 0})
    >>> dice_counts(Face.parse(f) for f in ["blank"] * 6)
    (('blue', 'pink', 'yellow'), {'blue': 6, 'pink': 6, 'yellow': 6, 'blank': 0})
    """
    dice = tuple(dice)
    rolled = set().union(*(face.colours for face in dice)) if dice else set()
    missing = tuple(colour for colour in COLOURS if colour not in rolled)
    counts = {colour: len(dice) if colour in missing else sum(colour in f.colours for f in dice) for colour in COLOURS}
    counts["blank"] = 0 if missing else sum(face.is_blank for face in dice)
    return missing, counts


class FrogsRules:
    """The basic game (4–5 players). Variants override the hooks below.

    >>> rules_for(4).recommended_turns, rules_for(3).cards_per_opponent, rules_for(7).scoring_cards_per_type
    (2, 2, 2)
    """

    name = "frogs"
    #: cards each other player tosses per turn
    cards_per_opponent = 1
    #: how many cards of each type score (the first, or the first two)
    scoring_cards_per_type = 1
    #: turns per player the rulebook recommends
    recommended_turns = 2
    player_counts = (4, 5)

    def __init__(self, *, penalty_per_violation: int = 0, tie_window_us: int = 0) -> None:
        if isinstance(penalty_per_violation, bool) or not isinstance(penalty_per_violation, int) or penalty_per_violation < 0:
            raise FrogsError(f"penalty_per_violation must be a whole number >= 0, not {penalty_per_violation!r}")
        self.penalty_per_violation = penalty_per_violation
        #: tosses this close (µs) are a dead heat (:func:`is_dead_heat`)
        self.tie_window_us = check_tie_window(tie_window_us)

    def __repr__(self) -> str:
        window = f", tie_window_us={self.tie_window_us}" if self.tie_window_us else ""
        return f"{type(self).__name__}(penalty_per_violation={self.penalty_per_violation}{window})"

    # -- legality ---------------------------------------------------------------------

    def check_turn(self, turn: Turn) -> None:
        """Raise the specific :class:`FrogsError` for the first thing wrong with ``turn``."""
        check_players(turn.players)
        if len(turn.players) not in self.player_counts:
            raise PlayerCountError(f"{type(self).__name__} is for {self.player_counts} players, not {len(turn.players)}")
        if turn.roller not in turn.players:
            raise UnknownPlayerError(f"the roller {turn.roller!r} is not one of the players")
        self.check_dice(turn.dice)
        self.check_tosses(turn)
        self.check_copy(turn)
        for name in turn.violations:
            if name not in turn.players:
                raise UnknownPlayerError(f"violations name {name!r}, who is not playing")

    def check_dice(self, dice: tuple[Face, ...]) -> None:
        if len(dice) != DICE_PER_TURN:
            raise DiceCountError(f"a turn has exactly {DICE_PER_TURN} dice, not {len(dice)}")
        for face, n in Counter(dice).items():
            if face.is_combo and n > DICE_PER_COMBO:
                raise ImpossibleDiceError(f"{n} dice show {face}, but only {DICE_PER_COMBO} dice carry that face")

    def check_tosses(self, turn: Turn) -> None:
        per_player: dict[str, list[Card]] = {name: [] for name in turn.players}
        for toss in turn.tosses:
            if toss.player not in per_player:
                raise UnknownPlayerError(f"a toss by {toss.player!r}, who is not playing")
            if toss.player == turn.roller:
                raise RollerTossedError(f"{toss.player} is rolling this turn and tosses no card")
            per_player[toss.player].append(toss.card)
        expected = self.cards_per_opponent
        for name, cards in per_player.items():
            if name == turn.roller:
                continue
            if len(cards) != expected:
                raise CardCountError(f"{name} tossed {_count(len(cards), 'card')}; each other player tosses {expected}")
            if len(set(cards)) != len(cards):
                raise CardCountError(f"{name} tossed two {cards[0].value} cards but has only one of each")

    def check_copy(self, turn: Turn) -> None:
        if turn.copy is None:
            raise CopyError("the roller must copy another player's points ('copy' is missing)")
        if turn.copy == turn.roller:
            raise CopyError(f"{turn.roller} cannot copy themself")
        if turn.copy not in turn.players:
            raise CopyError(f"{turn.roller} copies {turn.copy!r}, who is not playing")

    # -- scoring ----------------------------------------------------------------------

    def score(self, turn: Turn) -> TurnScore:
        """Check and score ``turn``."""
        self.check_turn(turn)
        missing, counts = dice_counts(turn.dice)
        ordered = order_tosses(turn.tosses)
        seen: Counter[Card] = Counter()
        gray_positions: list[int] = []
        cards: list[CardScore] = []
        previous_t: int | None = None
        for index, toss in enumerate(ordered):
            seen[toss.card] += 1
            rank = seen[toss.card]
            points, reason = self.card_points(toss.card, rank, index, gray_positions, counts)
            if toss.card is Card.GRAY:
                gray_positions.append(index)
            margin = None if previous_t is None else toss.t_us - previous_t
            cards.append(CardScore(index + 1, toss.player, toss.card, toss.t_us, points, reason, margin,
                                   is_dead_heat(margin, self.tie_window_us)))
            previous_t = toss.t_us
        points = {name: 0 for name in turn.players}
        for card in cards:
            points[card.player] += card.points
        points[turn.roller] = points[turn.copy]
        penalties = {
            name: n * self.penalty_per_violation
            for name, n in turn.violations.items()
            if n * self.penalty_per_violation
        }
        return TurnScore(
            roller=turn.roller,
            copy=turn.copy,
            points=MappingProxyType(points),
            cards=tuple(cards),
            missing=missing,
            counts=MappingProxyType(counts),
            penalties=MappingProxyType(penalties),
        )

    def card_points(
        self, card: Card, rank: int, index: int, gray_positions: list[int], counts: Mapping[str, int]
    ) -> tuple[int, str]:
        """Points for the ``rank``-th card of its type, tossed at 0-based stack ``index``.

        >>> FrogsRules().card_points(Card.BLUE, 1, 0, [], {"blue": 1})
        (1, 'first blue: 1 blue die')
        >>> FrogsRules().card_points(Card.GRAY, 1, 1, [], {})
        (1, 'first gray: 1 card before it')
        """
        if rank > self.scoring_cards_per_type:
            n = self.scoring_cards_per_type
            first = f"the first {card.value} card scores" if n == 1 else f"the first {n} {card.value} cards score"
            return 0, f"only {first}"
        ordinal = "first" if rank == 1 else "second"
        if card.colour:
            n = counts[card.colour]
            return n, f"{ordinal} {card.value}: {_count(n, f'{card.colour} die', f'{card.colour} dice')}"
        if card is Card.BLANK:
            n = counts["blank"]
            return 2 * n, f"{ordinal} blank: 2 x {_count(n, 'blank die', 'blank dice')}"
        if not gray_positions:
            return index, f"first gray: {_count(index, 'card')} before it"
        between = index - gray_positions[-1] - 1
        return between, f"second gray: {_count(between, 'card')} since the first gray"


def _count(n: int, one: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards``; ``many`` for irregular plurals (``dice``)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


class ThreePlayerFrogs(FrogsRules):
    """3 players: both other players toss two cards each."""

    cards_per_opponent = 2
    recommended_turns = 3
    player_counts = (3,)


class BigTableFrogs(FrogsRules):
    """6–8 players: the first two cards of each type score; the second gray counts from the first."""

    scoring_cards_per_type = 2
    recommended_turns = 1
    player_counts = (6, 7, 8)


def rules_for(n_players: int, *, penalty_per_violation: int = 0, tie_window_us: int = 0) -> FrogsRules:
    """The rules variant for a table of ``n_players``.

    >>> rules_for(3)
    ThreePlayerFrogs(penalty_per_violation=0)
    >>> rules_for(9)
    Traceback (most recent call last):
    ...
    rig.games.frogs.rules.PlayerCountError: Lunar Laser Frogs needs 3 to 8 players, not 9
    """
    for variant in (ThreePlayerFrogs, FrogsRules, BigTableFrogs):
        if n_players in variant.player_counts:
            return variant(penalty_per_violation=penalty_per_violation, tie_window_us=tie_window_us)
    raise PlayerCountError(f"Lunar Laser Frogs needs 3 to 8 players, not {n_players}")


def score_turn(turn: Turn, *, penalty_per_violation: int = 0, tie_window_us: int = 0) -> TurnScore:
    """Score ``turn`` with the variant for its number of players (tosses within ``tie_window_us``
    of each other are marked ``dead_heat``)."""
    check_players(turn.players)
    rules = rules_for(len(turn.players), penalty_per_violation=penalty_per_violation, tie_window_us=tie_window_us)
    return rules.score(turn)


def score_request(data: Mapping[str, Any]) -> dict[str, Any]:
    """``rig score`` for ``{"game": "frogs", ...}``: a turn's JSON in, the score's JSON out."""
    options = data.get("options", {}) if isinstance(data, Mapping) else {}
    if not isinstance(options, Mapping) or set(options) - {"penalty_per_violation", "tie_window_us"}:
        raise TurnFormatError("'options' may only hold penalty_per_violation and tie_window_us")
    turn_data = {key: value for key, value in data.items() if key != "options"}
    turn = Turn.parse(turn_data)
    return score_turn(turn, penalty_per_violation=options.get("penalty_per_violation", 0),
                      tie_window_us=options.get("tie_window_us", 0)).to_dict()

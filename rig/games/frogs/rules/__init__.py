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

from collections import Counter
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from rig.games.frogs.rules.pieces import (  # noqa: F401 - moved (issue 29); the old import path works
    COLOURS, DICE_PER_TURN, MIN_PLAYERS, MAX_PLAYERS, _COMBO_NAMES, DICE_PER_COMBO, FrogsError, BadFaceError,
    BadCardError, DiceCountError, ImpossibleDiceError, PlayerCountError, DuplicatePlayerError,
    UnknownPlayerError, RollerTossedError, CardCountError, CopyError, TossTimeError, TurnFormatError, Face,
    FACE_NAMES, FACES, Card, Toss, order_tosses, is_dead_heat, check_tie_window, check_players,
)


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
                if len(cards) == 1:
                    raise CardCountError(f"{name} tossed 1 card; each other player tosses {expected}")
                raise CardCountError(f"{name} tossed {len(cards)} cards; each other player tosses {expected}")
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

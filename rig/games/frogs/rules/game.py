"""A whole game of Lunar Laser Frogs: seat order, game length, totals, the end and the winner.

>>> game = GameSetup.parse({"players": ["Ada", "Ben", "Cleo"]})
>>> game.turns_each, game.rules
(3, ThreePlayerFrogs(penalty_per_violation=0))
>>> progress = game.progress([])
>>> progress.next_roller, progress.round, progress.is_over
('Ada', 1, False)

After the recommended turns a tie for the lead adds full rounds until one player leads alone:

>>> tied = [{"Ada": 3, "Ben": 3, "Cleo": 0}] * 9
>>> p = game.progress(tied)
>>> p.is_over, p.extra_rounds, p.next_roller
(False, 1, 'Ada')
>>> p = game.progress(tied + [{"Ada": 1, "Ben": 0, "Cleo": 0}] * 3)
>>> p.outcome
Outcome(winner='Ada', totals={'Ada': 30, 'Ben': 27, 'Cleo': 0}, turns_played=12, extra_rounds=1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from rig.games.frogs.rules import FrogsError, FrogsRules, TurnFormatError, check_players, rules_for


class GameLengthError(FrogsError):
    """A game length that is not a whole number of turns per player >= 1."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winner: str
    totals: Mapping[str, int]
    turns_played: int
    extra_rounds: int

    def __repr__(self) -> str:
        return (
            f"Outcome(winner={self.winner!r}, totals={dict(self.totals)!r}, "
            f"turns_played={self.turns_played}, extra_rounds={self.extra_rounds})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "totals": dict(self.totals),
            "turns_played": self.turns_played,
            "extra_rounds": self.extra_rounds,
        }


@dataclass(frozen=True)
class Progress:
    """Where a game stands after some turns."""

    totals: Mapping[str, int]
    turns_played: int
    round: int  # 1-based round the next turn belongs to
    next_roller: str | None
    extra_rounds: int  # tie-break rounds started so far
    outcome: Outcome | None = None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def leaders(self) -> tuple[str, ...]:
        best = max(self.totals.values())
        return tuple(name for name, total in self.totals.items() if total == best)


def add_turn(totals: Mapping[str, int], net: Mapping[str, int]) -> dict[str, int]:
    """Running totals after one turn. Penalties are paid in point cards, so no total drops below 0.

    >>> add_turn({"Ada": 1, "Ben": 0}, {"Ada": -3, "Ben": 2})
    {'Ada': 0, 'Ben': 2}
    """
    return {name: max(0, total + net.get(name, 0)) for name, total in totals.items()}


@dataclass(frozen=True)
class GameSetup:
    """Who plays (in seat order, starting player first) and how long."""

    players: tuple[str, ...]
    turns_each: int
    rules: FrogsRules = field(compare=False)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> GameSetup:
        if not isinstance(data, Mapping):
            raise TurnFormatError("a game must be a JSON object")
        players = data.get("players")
        if not isinstance(players, (list, tuple)):
            raise TurnFormatError("'players' must be a list of names in seat order")
        return cls.create(
            players,
            turns_each=data.get("turns_each"),
            penalty_per_violation=data.get("penalty_per_violation", 0),
            tie_window_us=data.get("tie_window_us", 0),
        )

    @classmethod
    def create(
        cls, players: Sequence[str], *, turns_each: int | None = None, penalty_per_violation: int = 0,
        tie_window_us: int = 0,
    ) -> GameSetup:
        players = tuple(players)
        check_players(players)
        rules = rules_for(len(players), penalty_per_violation=penalty_per_violation, tie_window_us=tie_window_us)
        if turns_each is None:
            turns_each = rules.recommended_turns
        if isinstance(turns_each, bool) or not isinstance(turns_each, int) or turns_each < 1:
            raise GameLengthError(f"turns_each must be a whole number >= 1, not {turns_each!r}")
        return cls(players, turns_each, rules)

    def roller_of(self, turn_index: int) -> str:
        """Who rolls the ``turn_index``-th turn (0-based): clockwise from the starting player."""
        return self.players[turn_index % len(self.players)]

    def progress(self, turn_nets: Sequence[Mapping[str, int]]) -> Progress:
        """Totals, next roller and (if over) the outcome after the given turns' net points."""
        totals = {name: 0 for name in self.players}
        for net in turn_nets:
            totals = add_turn(totals, net)
        played = len(turn_nets)
        n = len(self.players)
        regular = self.turns_each * n
        extra_rounds = 0 if played < regular else -(-(played - regular) // n)
        at_round_end = played % n == 0
        if played >= regular and at_round_end:
            best = max(totals.values())
            leaders = [name for name, total in totals.items() if total == best]
            if len(leaders) == 1:
                outcome = Outcome(leaders[0], MappingProxyType(totals), played, extra_rounds)
                return Progress(MappingProxyType(totals), played, played // n + 1, None, extra_rounds, outcome)
            extra_rounds += 1
        return Progress(
            MappingProxyType(totals), played, played // n + 1, self.roller_of(played), extra_rounds, None
        )

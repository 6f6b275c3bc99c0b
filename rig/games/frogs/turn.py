"""A turn of Lunar Laser Frogs as the fold keeps it: its tosses (:class:`TossRecord`) and state
(:class:`TurnState`), and which tosses count, in which order, who still has to toss (issue 29: split
from :mod:`rig.games.frogs.engine`, which re-exports every name).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Protocol

ROLLS_PER_TURN = 3
DICE = 6


@dataclass
class TossRecord:
    """A toss as it arrived: who, when (µs on ``clock``), in which order it was logged."""

    player: str
    t_us: int
    order: int  # logged order within the turn
    clock: str | None = None
    late: bool = False  # arrived after the reveal started
    removed: bool = False  # struck out by a correction
    swapped: bool = False  # moved to another place in the order by a correction


@dataclass
class TurnState:
    number: int
    roller: str
    started: bool = False
    start_t_us: int | None = None
    start_clock: str | None = None
    tosses_at_start: int = 0  # tosses logged before the turn started
    rolls: int = 0
    dice: list[str] = field(default_factory=list)
    corrected_dice: set[int] = field(default_factory=set)
    tosses: list[TossRecord] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    corrected_cards: set[int] = field(default_factory=set)
    copy: str | None = None
    copy_confirmed: bool = False
    violations: list[dict[str, Any]] = field(default_factory=list)

    def clone(self) -> TurnState:
        return replace(self, dice=list(self.dice), corrected_dice=set(self.corrected_dice),
                       tosses=[replace(toss) for toss in self.tosses], cards=list(self.cards),
                       corrected_cards=set(self.corrected_cards), violations=list(self.violations))


class Table(Protocol):
    """What a turn's toss rules read of the game (:class:`rig.games.frogs.engine.GameState` has it)."""

    players: tuple[str, ...]
    rules: Any


# --------------------------------------------------------------------------- tosses


def _clock_ranks(turn: TurnState) -> dict[str | None, int]:
    """Clocks (boots) in the order they first appear in the turn's log."""
    ranks: dict[str | None, int] = {}
    for toss in turn.tosses:
        if turn.started and toss.order == turn.tosses_at_start:
            ranks.setdefault(turn.start_clock, len(ranks))
        ranks.setdefault(toss.clock, len(ranks))
    if turn.started:
        ranks.setdefault(turn.start_clock, len(ranks))
    return ranks


def ordered_tosses(turn: TurnState) -> list[TossRecord]:
    """The turn's tosses in landing order: by time, equal times in logged order.

    Times are only comparable on one clock (the monotonic clock restarts at a reboot);
    tosses timed on a later clock (after a power cut) come after those of earlier clocks.
    """
    ranks = _clock_ranks(turn)
    return sorted(turn.tosses, key=lambda t: (ranks[t.clock], t.t_us, t.order))


def effective_times(turn: TurnState, ordered: list[TossRecord]) -> dict[int, int]:
    """µs times on one time line (later clocks shifted after earlier ones), by toss ``order``."""
    out: dict[int, int] = {}
    offset = 0
    last_clock: object = object()
    last_t = None
    for toss in ordered:
        if toss.clock != last_clock and last_t is not None:
            offset = last_t + 1 - toss.t_us
        last_clock = toss.clock
        out[toss.order] = toss.t_us + offset
        last_t = out[toss.order]
    return out


@dataclass(frozen=True)
class TossView:
    toss: TossRecord
    counting: bool
    why: str | None  # why it does not count


def classify_tosses(game: Table, turn: TurnState) -> list[TossView]:
    """Which tosses count, and why the others do not."""
    per_player: dict[str, int] = {}
    limit = game.rules.cards_per_opponent
    views = []
    for toss in ordered_tosses(turn):
        why = None
        if toss.removed:
            why = "struck out by a correction"
        elif not turn.started:
            why = "before the turn started"
        elif toss.clock == turn.start_clock and toss.t_us < (turn.start_t_us or 0):
            why = "before the turn started"
        elif toss.clock != turn.start_clock and toss.order < turn.tosses_at_start:
            why = "before the turn started"  # logged before it, on an earlier boot's clock
        elif toss.player == turn.roller:
            why = f"{toss.player} is rolling and tosses no card"
        elif toss.late:
            why = "after the reveal started"
        elif per_player.get(toss.player, 0) >= limit:
            why = f"{toss.player} had already tossed {'their card' if limit == 1 else f'all {limit} cards'}"
        if why is None:
            per_player[toss.player] = per_player.get(toss.player, 0) + 1
        views.append(TossView(toss, why is None, why))
    return views


def counting_tosses(game: Table, turn: TurnState) -> list[TossRecord]:
    return [view.toss for view in classify_tosses(game, turn) if view.counting]


def still_to_toss(game: Table, turn: TurnState) -> list[str]:
    """Players (seat order) who still owe cards this turn."""
    counts: dict[str, int] = {}
    for toss in counting_tosses(game, turn):
        counts[toss.player] = counts.get(toss.player, 0) + 1
    limit = game.rules.cards_per_opponent
    return [name for name in game.players if name != turn.roller and counts.get(name, 0) < limit]


def cards_expected(game: Table) -> int:
    return game.rules.cards_per_opponent * (len(game.players) - 1)


class TableInTurn(Table, Protocol):
    """A game with its turn under way (what the corrections read and change)."""

    turn: TurnState

"""The common interface of every game's engine fold.

Each game's package has one engine module (``rig.games.<name>.engine``, named by its
:class:`rig.registry.Game`'s ``engine``) with a subclass of :class:`ExtraGame`: the game's state
as a fold over its events. The engine (:mod:`rig.engine.engine`) dispatches to it by the
``game`` of the ``game_started`` event; scoring comes from the game's rules.

A subclass implements :meth:`~ExtraGame.create` (from ``game_started``), ``_apply_<type>``
handlers, :meth:`~ExtraGame.phase`, :meth:`~ExtraGame.view`, and may override
:meth:`~ExtraGame.plan` (events implied before an event), :meth:`~ExtraGame.prepare` (an event
completed before it is applied), :meth:`~ExtraGame.after` (the event as logged and the events it
implies after it), :meth:`~ExtraGame.press` / :meth:`~ExtraGame.release` (what a button means)
and the referee's turn records (:meth:`~ExtraGame.turn_record`). A fold that needs more (its own
checks of the order of play, its own clone) overrides :meth:`~ExtraGame.start` and
:meth:`~ExtraGame.apply` as a whole.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Mapping

from rig import registry
from rig.engine.errors import EventRefused


def game_class(name: str) -> type[ExtraGame]:
    """The fold class of game ``name`` (its :class:`rig.registry.Game`'s ``engine`` module's ``Game``)."""
    return registry.get(name).engine_class()


def seats_for(name: str) -> int | None:
    """How many players ``name`` seats, or None when any count its rules allow will do.

    >>> seats_for("chess") is None
    True
    """
    try:
        return registry.get(name).seats()
    except registry.UnknownGameError:
        return None


class ExtraGame:
    """One game; :meth:`apply` returns a changed copy (the fold never mutates)."""

    name = ""
    #: option name → description, for the "unknown option" refusal
    OPTIONS: Mapping[str, str] = {}
    #: how many players the game seats (None: any number its rules allow)
    seats: int | None = None

    def __init__(self, game_id: int, players: tuple[str, ...], options: dict[str, Any], t_us: int) -> None:
        self.id = game_id
        self.game = self.name
        self.players = players
        self.options = options
        self.started_t_us = t_us
        self.ended: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game} {', '.join(self.players)}: {self.phase()}>"

    # -- set-up -----------------------------------------------------------------------
    @classmethod
    def start(cls, event: Mapping[str, Any], game_id: int) -> ExtraGame:
        options = dict(event.get("options") or {})
        unknown = sorted(set(options) - set(cls.OPTIONS))
        if unknown:
            known = ", ".join(cls.OPTIONS) or "none"
            raise EventRefused(f"unknown {cls.name} option(s): {', '.join(unknown)} (options: {known})")
        players = event["players"]
        if not all(isinstance(name, str) and name.strip() for name in players):
            raise EventRefused("players must be a list of names")
        players = tuple(name.strip() for name in players)
        if len(set(players)) != len(players):
            raise EventRefused(f"player names must differ: {', '.join(players)}")
        return cls.create(game_id, players, options, event["t_us"])

    @classmethod
    def create(cls, game_id: int, players: tuple[str, ...], options: dict[str, Any], t_us: int) -> ExtraGame:
        raise NotImplementedError

    # -- the fold ---------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.ended is not None

    def clone(self) -> ExtraGame:
        """A copy to change: plain containers copied deeply, the immutable rules objects shared."""
        game = copy.copy(self)
        for key, value in vars(game).items():
            if isinstance(value, (dict, list)):
                setattr(game, key, copy.deepcopy(value))
        return game

    def apply(self, event: Mapping[str, Any], *, replay: bool = False) -> ExtraGame:
        """This game after ``event`` (a copy). Raises :class:`EventRefused`.

        ``replay``: the event is already in the log (see :func:`rig.engine.game.apply`).
        """
        handler: Callable[[Mapping[str, Any]], None] | None = getattr(self, f"_apply_{event['type']}", None)
        if handler is None:
            raise EventRefused(f"a {event['type']} event has no meaning in {self.name}")
        game = self.clone()
        getattr(game, f"_apply_{event['type']}")(event)
        return game

    def _apply_game_ended(self, event: Mapping[str, Any]) -> None:
        if self.is_over:
            raise EventRefused("the game has ended already")
        self.ended = self.outcome(event.get("reason") or "abandoned")

    def outcome(self, reason: str) -> dict[str, Any]:
        """The ``ended`` record for a ``game_ended`` with ``reason`` (the winner, if the game has one)."""
        winner = self.winner()
        if winner is not None:
            return {"reason": "finished", "winner": winner, "outcome": {"winner": winner, "totals": self.totals()}}
        return {"reason": reason, "winner": None, "outcome": None}

    def winner(self) -> str | None:
        return None

    #: the phase in which a finished turn waits to be booked (None: the game has no turns to book)
    review_phase: str | None = None

    def plan(self, event: dict[str, Any], derived: Callable[..., dict[str, Any]]) -> list[dict[str, Any]]:
        """The events to log for ``event``: what it implies first, then itself.

        In :attr:`review_phase` a new throw (or turn start) books the finished turn first, and a
        throw seen before anyone started the turn starts it.
        """
        kind, current = event["type"], self.phase()
        if self.review_phase is None:
            return [event]
        if kind in ("roll_settled", "turn_started") and current == self.review_phase:
            plan = [derived("turn_scored")]
            if kind == "roll_settled":
                plan.append(derived("turn_started"))
            return plan + [event]
        if kind == "roll_settled" and current == "waiting" and not self.turn["started"]:
            return [derived("turn_started"), event]
        return [event]

    def prepare(self, item: dict[str, Any]) -> dict[str, Any]:
        """``item`` completed before it is applied to this state (default: as it is)."""
        return item

    def after(self, item: dict[str, Any], before: ExtraGame | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``item`` as logged (enriched) and the events it implies, on the state after applying it
        (``before``: the state it was applied to)."""
        if item["type"] == "game_ended":
            ended = self.ended or {}
            item = {**item, "winner": ended.get("winner"), "totals": self.totals(), "outcome": ended.get("outcome")}
            return item, []
        if self.winner() is not None and not self.is_over:
            return item, [{"type": "game_ended", "t_us": item["t_us"], "source": "engine",
                           **({"clock": item["clock"]} if "clock" in item else {})}]
        return item, []

    # -- what the world sees ----------------------------------------------------------
    def phase(self) -> str:
        raise NotImplementedError

    @property
    def turn_number(self) -> int:
        return 0

    def totals(self) -> dict[str, int]:
        return {name: 0 for name in self.players}

    def turns_played(self) -> int:
        return 0

    def status(self) -> str:
        ended = self.ended
        return "playing" if ended is None else ("over" if ended["winner"] else ended["reason"])

    def view(self) -> dict[str, Any]:
        """``game``, ``turn`` and the rest of the state (everything but ``version`` and ``notices``)."""
        raise NotImplementedError

    def game_view(self, **extra: Any) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "players": list(self.players), "options": _plain(self.options),
                "turns_played": self.turns_played(), "whose_turn": None, "status": self.status(), **extra}

    # -- the referee's look back (rig.engine.turns) ------------------------------------
    #: the tie window of the game's toss timing (µs; None: the game times no tosses)
    tie_window_us: int | None = None

    def turn_under_way(self) -> int | None:
        """The number of the turn under way, for the referee's turn records (None: the game keeps none)."""
        return None

    def rolls_in_turn(self) -> int:
        """How many rolls the turn under way has had."""
        return 0

    def turn_record(self, rolls: list[dict[str, Any]], scored: bool) -> dict[str, Any]:
        """The referee's record of the turn under way (see :func:`rig.engine.turns.game_turns`)."""
        raise NotImplementedError

    # -- the players' inputs ----------------------------------------------------------
    def press(self, player: str, t_us: int, source: str, clock: str | None) -> list[dict[str, Any]]:
        return []

    def release(self, player: str, t_us: int, held_us: int, source: str, clock: str | None,
                *, hold_us: int) -> list[dict[str, Any]]:
        return []


def event(kind: str, t_us: int, source: str, clock: str | None, **payload: Any) -> dict[str, Any]:
    out = {"type": kind, "t_us": t_us, "source": source, **payload}
    if clock is not None:
        out["clock"] = clock
    return out


def need(event_: Mapping[str, Any], key: str, what: str) -> Any:
    if event_.get(key) is None:
        raise EventRefused(f"a {what} needs {key!r}")
    return event_[key]


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value

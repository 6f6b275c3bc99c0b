"""Lunar Laser Frogs' engine fold: the state machine of one game, as a fold over its events.

:class:`GameState` holds one game (players in seat order, the scored turns, the turn under
way); :func:`apply` takes it one event further or raises :class:`EventRefused` leaving it
untouched. The scoring and the game's progress (whose turn, game end, tie-break rounds)
come from :mod:`rig.games.frogs.rules`: the engine adds no scoring of its own.

Turn phases, in the rulebook's order of play: ``waiting`` (for the roller to start),
``rolling`` (fewer than three rolls and fewer than six dice), ``tossing`` (someone still has
to toss), ``copy`` (every card is in, the roller has not confirmed whom to copy: the stack
stays face down until they have), ``reveal`` (cards being turned over), ``review`` (scored,
waiting for ``turn_scored``) and ``over`` (the game ended).

The copy choice may be made (and changed) any time from the start of the turn until the
first card is turned over; after that it stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from rig.engine.errors import EventRefused
from rig.engine.extra import ExtraGame
from rig.games.frogs.rules import Card, Face, FrogsError, Toss, Turn, dice_counts
from rig.games.frogs.rules.game import GameSetup, Progress
from rig.games.frogs.turn import (  # noqa: F401 - moved (issue 29); the old import path works
    ROLLS_PER_TURN, DICE, TossRecord, TurnState, _clock_ranks, ordered_tosses, effective_times, TossView,
    classify_tosses, counting_tosses, still_to_toss, cards_expected,
)
from rig.games.frogs.corrections import (  # noqa: F401 - moved (issue 29); the old import path works
    _need_started, _check_cards, _correction, _swap_tosses, _need, _face, _check_dice,
)


@dataclass(repr=False)
class GameState(ExtraGame):
    """One game: set-up, scored turns, the turn under way, the end."""

    id: int
    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    setup: GameSetup
    started_t_us: int
    turn: TurnState
    scored: list[dict[str, Any]] = field(default_factory=list)  # {"number", "roller", "score"}
    ended: dict[str, Any] | None = None  # {"reason", "winner", "outcome"}

    def clone(self) -> GameState:
        """A copy to change (the set-up and the scored turns are never changed in place, so shared)."""
        return replace(self, options=dict(self.options), turn=self.turn.clone(), scored=list(self.scored),
                       ended=None if self.ended is None else dict(self.ended))

    @property
    def rules(self):
        return self.setup.rules

    def progress(self) -> Progress:
        return self.setup.progress([turn["score"]["net"] for turn in self.scored])

    @property
    def is_over(self) -> bool:
        return self.ended is not None

    # -- the fold (rig.engine.extra.ExtraGame's interface) -------------------------------
    @classmethod
    def start(cls, event: Mapping[str, Any], game_id: int) -> GameState:
        return start_game(event, game_id, cls)

    def apply(self, event: Mapping[str, Any], *, replay: bool = False) -> GameState:
        return apply(self, event, replay=replay)

    def phase(self) -> str:
        return phase(self)

    @property
    def turn_number(self) -> int:
        return self.turn.number

    def totals(self) -> dict[str, int]:
        return dict(self.progress().totals)

    def turns_played(self) -> int:
        return self.progress().turns_played

    def plan(self, event: dict[str, Any], derived: Callable[..., dict[str, Any]]) -> list[dict[str, Any]]:
        """A roll (or a turn start) in review books the finished turn first; a roll before the turn started starts it."""
        kind, current = event["type"], phase(self)
        if kind in ("turn_started", "roll_settled") and current == "review":
            plan = [derived("turn_scored")]
            if kind == "roll_settled":
                plan.append(derived("turn_started", t_us=event.get("started_us", event["t_us"])))
            return plan + [event]
        if kind == "roll_settled" and current == "waiting":
            return [derived("turn_started", t_us=event.get("started_us", event["t_us"])), event]
        return [event]

    def prepare(self, item: dict[str, Any]) -> dict[str, Any]:
        """A ``turn_scored`` carries the turn's number and score."""
        if item["type"] == "turn_scored" and not self.is_over:
            score = score_turn(self)
            if score is not None:
                return {**item, "turn": self.turn.number, "score": score}
        return item

    def after(self, item: dict[str, Any],
              before: ExtraGame | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        kind = item["type"]
        if kind == "roll_settled":
            early = early_dice_violation(before, self, item)
            return item, [early] if early is not None else []
        if kind == "turn_scored":
            item = {**item, "totals": self.totals()}
            if self.progress().outcome is not None:
                return item, [{"type": "game_ended", "t_us": item["t_us"], "source": "engine",
                               **({"clock": item["clock"]} if "clock" in item else {})}]
            return item, []
        if kind == "game_ended":
            ended = self.ended or {}
            return {**item, "winner": ended.get("winner"), "totals": self.totals(),
                    "outcome": ended.get("outcome")}, []
        return item, []

    # -- the referee's look back ------------------------------------------------------------
    @property
    def tie_window_us(self) -> int:  # type: ignore[override]
        return self.rules.tie_window_us

    def turn_under_way(self) -> int | None:
        return self.turn.number

    def rolls_in_turn(self) -> int:
        return self.turn.rolls


# --------------------------------------------------------------------------- phases and scoring


def phase(game: GameState) -> str:
    turn = game.turn
    if game.is_over:
        return "over"
    if not turn.started:
        return "waiting"
    if turn.rolls < ROLLS_PER_TURN and len(turn.dice) < DICE and not turn.cards:
        return "rolling"
    if still_to_toss(game, turn):
        return "tossing"
    if not (turn.copy and turn.copy_confirmed):
        return "copy"
    if len(turn.cards) < cards_expected(game):
        return "reveal"
    return "review"


def rules_turn(game: GameState, turn: TurnState) -> Turn:
    """The turn as :mod:`rig.rules` sees it (cards paired with the counting tosses in order)."""
    ordered = counting_tosses(game, turn)
    times = effective_times(turn, ordered)
    tosses = tuple(Toss(t.player, Card.parse(card), times[t.order]) for t, card in zip(ordered, turn.cards))
    violations: dict[str, int] = {}
    for violation in turn.violations:
        violations[violation["player"]] = violations.get(violation["player"], 0) + 1
    return Turn(game.players, turn.roller, tuple(Face.parse(f) for f in turn.dice), tosses,
                turn.copy if turn.copy_confirmed else None, violations)


def score_problem(game: GameState) -> str | None:
    """Why the turn under way cannot be scored yet (None when it can)."""
    turn = game.turn
    current = phase(game)
    if current == "over":
        return "the game is over"
    if current == "waiting":
        return f"{turn.roller}'s turn has not started"
    owed = still_to_toss(game, turn)
    if owed:
        return f"still to toss: {', '.join(owed)}"
    if len(turn.dice) != DICE:
        return f"the box shows {len(turn.dice)} dice, a turn has {DICE}: correct the dice"
    if not (turn.copy and turn.copy_confirmed):
        return f"{turn.roller} has not confirmed whom to copy (the cards stay face down until then)"
    if len(turn.cards) < cards_expected(game):
        return f"{len(turn.cards)} of {cards_expected(game)} cards revealed"
    try:
        game.rules.check_turn(rules_turn(game, turn))
    except FrogsError as exc:
        return str(exc)
    return None


def score_turn(game: GameState) -> dict[str, Any] | None:
    """The rules' score of the turn under way (``TurnScore.to_dict()``), or None if it cannot be scored yet."""
    if score_problem(game) is not None:
        return None
    return game.rules.score(rules_turn(game, game.turn)).to_dict()


# --------------------------------------------------------------------------- applying events


def start_game(event: Mapping[str, Any], game_id: int, cls: type[GameState] | None = None) -> GameState:
    """A new game (a ``cls``) from a ``game_started`` event (raises :class:`EventRefused` for bad set-ups)."""
    name = event.get("game", "frogs")
    options = dict(event.get("options") or {})
    unknown = sorted(set(options) - {"turns_each", "penalty_per_violation", "tie_window_us"})
    if unknown:
        raise EventRefused(f"unknown game option(s): {', '.join(unknown)} "
                           "(options: turns_each, penalty_per_violation, tie_window_us)")
    players = event["players"]
    if not all(isinstance(name, str) for name in players):
        raise EventRefused("players must be a list of names")
    players = tuple(name.strip() for name in players)
    try:
        setup = GameSetup.create(players, turns_each=options.get("turns_each"),
                                 penalty_per_violation=options.get("penalty_per_violation", 0),
                                 tie_window_us=options.get("tie_window_us", 0))
    except FrogsError as exc:
        raise EventRefused(str(exc)) from None
    options = {"turns_each": setup.turns_each, "penalty_per_violation": setup.rules.penalty_per_violation}
    if setup.rules.tie_window_us:
        options["tie_window_us"] = setup.rules.tie_window_us
    return (cls or GameState)(game_id, name, players, options, setup, event["t_us"],
                              TurnState(1, setup.roller_of(0)))


def apply(game: GameState, event: Mapping[str, Any], *, replay: bool = False) -> GameState:
    """``game`` after ``event`` (a copy; ``game`` itself is not changed). Raises :class:`EventRefused`.

    The checks every game shares come first (:func:`rig.engine.game.apply`). ``replay``: the
    event is already in the log (a fold at start-up or after an undo): the order-of-play checks
    that came with the copy-before-reveal rule are not applied again, so a log written before
    them still folds.
    """
    kind = event["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise EventRefused(f"a {kind} event has no meaning in {game.game}")
    if not replay:
        _check_order(game, event)
    game = game.clone()
    handler(game, event)
    return game


def _check_order(game: GameState, event: Mapping[str, Any]) -> None:
    """The rulebook's order: whom to copy is chosen before the first card is turned over."""
    turn = game.turn
    kind = event["type"]
    if kind == "card_revealed" and phase(game) == "copy":
        if turn.copy:
            raise EventRefused(f"a card reveal before the copy choice: {turn.roller} has picked {turn.copy} but not "
                               "confirmed (the cards stay face down until then)")
        raise EventRefused(f"a card reveal before the copy choice: {turn.roller} has not chosen whom to copy "
                           "(the cards stay face down until then)")
    if kind == "copy_chosen" and turn.cards and phase(game) != "copy":  # "copy" with cards up: an older log
        if turn.copy:
            raise EventRefused(f"the copy choice ({turn.copy}) stands once the cards are being turned over: "
                               "undo the reveal to change it")
        raise EventRefused("the copy choice stands once the cards are being turned over: undo the reveal to change it")


def _turn_started(game: GameState, event: Mapping[str, Any]) -> None:
    turn = game.turn
    if turn.started:
        raise EventRefused(f"{turn.roller}'s turn is already under way")
    player = event.get("player")
    if player is not None and player != turn.roller:
        if player not in game.players:
            raise EventRefused(f"{player!r} is not playing")
        raise EventRefused(f"it is {turn.roller}'s turn, not {player}'s")
    turn.started = True
    turn.tosses_at_start = len(turn.tosses)
    turn.start_t_us = event["t_us"]
    turn.start_clock = event.get("clock")


def _roll_settled(game: GameState, event: Mapping[str, Any]) -> None:
    turn = _need_started(game, "a roll")
    if turn.rolls >= ROLLS_PER_TURN:
        raise EventRefused(f"a turn has exactly {ROLLS_PER_TURN} rolls and {turn.roller} has had them: "
                           "correct the dice instead")
    if turn.cards:
        raise EventRefused("a roll after the reveal started")
    dice = event["dice"]
    if len(dice) > DICE:
        raise EventRefused(f"{len(dice)} dice read, but the game has {DICE}")
    try:
        faces = [str(Face.parse(face)) for face in dice]
    except FrogsError as exc:
        raise EventRefused(str(exc)) from None
    turn.rolls += 1
    turn.dice = faces
    turn.corrected_dice = set()


def early_dice_violation(before: ExtraGame | None, after: ExtraGame,
                         roll: Mapping[str, Any]) -> dict[str, Any] | None:
    """The violation a roll implies when it brings the sixth die before the third roll.

    A turn is exactly three rolls with at least one die each, so all six dice in the first
    roll (or the last of them in the second) breaks the rule like a fourth roll does.
    """
    if not isinstance(after, GameState) or not isinstance(before, GameState):
        return None
    turn = after.turn
    if len(turn.dice) != DICE or turn.rolls >= ROLLS_PER_TURN or len(before.turn.dice) == DICE:
        return None
    which = "first" if turn.rolls == 1 else "second"
    left = ROLLS_PER_TURN - turn.rolls
    detail = (f"all {DICE} dice by the {which} roll: a turn is exactly {ROLLS_PER_TURN} rolls with at least "
              f"one die each, and {left} roll{'s' if left != 1 else ''} had no die left")
    event = {"type": "violation", "t_us": roll["t_us"], "source": "engine", "kind": "too_few_rolls",
             "player": turn.roller, "detail": detail}
    if "clock" in roll:
        event["clock"] = roll["clock"]
    return event


def _toss(game: GameState, event: Mapping[str, Any]) -> None:
    player = event["player"]
    if player not in game.players:
        raise EventRefused(f"a toss by {player!r}, who is not playing ({', '.join(game.players)})")
    turn = game.turn
    late = bool(turn.cards) or phase(game) == "review"
    turn.tosses.append(TossRecord(player, event["t_us"], len(turn.tosses), event.get("clock"), late))


def _copy_chosen(game: GameState, event: Mapping[str, Any]) -> None:
    turn = _need_started(game, "a copy choice")
    player = event["player"]
    if player == turn.roller:
        raise EventRefused(f"{player} cannot copy themself")
    if player not in game.players:
        raise EventRefused(f"{turn.roller} cannot copy {player!r}, who is not playing")
    turn.copy = player
    turn.copy_confirmed = bool(event.get("confirmed", True))


def _card_revealed(game: GameState, event: Mapping[str, Any]) -> None:
    turn = _need_started(game, "a card reveal")
    owed = still_to_toss(game, turn)
    if owed:
        raise EventRefused(f"a card reveal before all tosses: still to toss: {', '.join(owed)}")
    if turn.rolls < ROLLS_PER_TURN and len(turn.dice) < DICE:
        raise EventRefused(f"a card reveal while {turn.roller} is still rolling "
                           f"({turn.rolls} of {ROLLS_PER_TURN} rolls, {len(turn.dice)} dice)")
    expected = cards_expected(game)
    if len(turn.cards) >= expected:
        raise EventRefused(f"all {expected} cards are revealed already: correct a card instead")
    try:
        card = Card.parse(event["card"]).value
    except FrogsError as exc:
        raise EventRefused(str(exc)) from None
    turn.cards.append(card)
    _check_cards(game, turn)


def _violation(game: GameState, event: Mapping[str, Any]) -> None:
    turn = _need_started(game, "a violation")
    player = event.get("player") or turn.roller
    if player not in game.players:
        raise EventRefused(f"a violation by {player!r}, who is not playing")
    turn.violations.append({"player": player, "kind": event["kind"], "detail": event.get("detail"),
                            "t_us": event["t_us"]})


def _turn_scored(game: GameState, event: Mapping[str, Any]) -> None:
    problem = score_problem(game)
    if problem is not None:
        raise EventRefused(f"the turn cannot be scored yet: {problem}")
    score = score_turn(game)
    game.scored.append({"number": game.turn.number, "roller": game.turn.roller, "score": score})
    progress = game.progress()
    if progress.next_roller is not None:
        game.turn = TurnState(game.turn.number + 1, progress.next_roller)


def _game_ended(game: GameState, event: Mapping[str, Any]) -> None:
    if game.is_over:
        raise EventRefused("the game has ended already")
    progress = game.progress()
    if progress.outcome is not None:
        game.ended = {"reason": "finished", "winner": progress.outcome.winner, "outcome": progress.outcome.to_dict()}
    else:
        game.ended = {"reason": event.get("reason") or "abandoned", "winner": None, "outcome": None}


_HANDLERS = {
    "turn_started": _turn_started,
    "roll_settled": _roll_settled,
    "toss": _toss,
    "copy_chosen": _copy_chosen,
    "card_revealed": _card_revealed,
    "correction": _correction,
    "violation": _violation,
    "turn_scored": _turn_scored,
    "game_ended": _game_ended,
}


def lasered(dice: list[str]) -> tuple[str, ...]:
    """The colours lasered onto every die (rolled nowhere)."""
    return dice_counts(Face.parse(face) for face in dice)[0] if dice else ()

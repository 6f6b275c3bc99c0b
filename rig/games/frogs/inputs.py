"""What a Lunar Laser Frogs toss input means: a toss, the roller starting their turn, or the roller choosing whom to copy.

Every player has one input (button or break-beam). The roller's own input doubles as the
copy selector: a short press (released within ``hold_us``) moves the choice to the next
player in seat order, a hold of at least ``hold_us`` (1 s) confirms it — before any card is
turned over (the rulebook's order: the reveal waits for the choice); once everything is
scored, another hold finishes the turn. These pure functions turn a press or a release into
the engine events it stands for (possibly none).

>>> from rig.engine.log import EventLog
>>> from rig.engine.engine import Engine
>>> engine = Engine(EventLog(":memory:"))
>>> _ = engine.submit({"type": "game_started", "t_us": 0, "source": "doc", "players": ["Ada", "Ben", "Cleo", "Dev"]})
>>> [e["type"] for e in events_for_press(engine.game, "Ada", 1000, "gpio")]
['turn_started']
>>> _ = engine.submit(events_for_press(engine.game, "Ada", 1000, "gpio")[0])
>>> events_for_press(engine.game, "Ada", 2000, "gpio")
[]
>>> [(e["player"], e["confirmed"]) for e in events_for_release(engine.game, "Ada", 2100, 100, "gpio")]
[('Ben', False)]
"""

from __future__ import annotations

from typing import Any

from rig.engine.extra import event as _event
from rig.engine.inputs import HOLD_CONFIRM_US
from rig.games.frogs.engine import GameState, phase, score_turn


def next_roller_after(game: GameState) -> str:
    """Who sits left of the current roller (rolls next if the game goes on)."""
    players = game.players
    return players[(players.index(game.turn.roller) + 1) % len(players)]


def _scoring_ends_game(game: GameState) -> bool:
    score = score_turn(game)
    if score is None:
        return False
    nets = [turn["score"]["net"] for turn in game.scored] + [score["net"]]
    return game.setup.progress(nets).outcome is not None


def events_for_press(game: GameState, player: str, t_us: int, source: str,
                     clock: str | None = None) -> list[dict[str, Any]]:
    """The events a press (or beam break) of ``player``'s input stands for (in a game under way)."""
    turn = game.turn
    current = phase(game)
    if player == turn.roller:
        if current == "waiting":
            return [_event("turn_started", t_us, source, clock, player=player)]
        return []  # the roller's press acts on release (copy selector)
    if current == "review" and player == next_roller_after(game):
        if _scoring_ends_game(game):
            return [_event("turn_scored", t_us, source, clock)]
        return [_event("turn_started", t_us, source, clock, player=player)]  # scores the turn first
    return [_event("toss", t_us, source, clock, player=player)]


def events_for_release(game: GameState, player: str, t_us: int, held_us: int, source: str,
                       clock: str | None = None, *, hold_us: int = HOLD_CONFIRM_US) -> list[dict[str, Any]]:
    """The events a release of ``player``'s input after ``held_us`` stands for (only the roller's count)."""
    turn = game.turn
    if player != turn.roller or not turn.started:
        return []
    pressed_at = t_us - held_us
    if clock == turn.start_clock and pressed_at <= (turn.start_t_us or 0):
        return []  # the press that started the turn
    current = phase(game)
    if held_us >= hold_us:
        if current == "review":
            return [_event("turn_scored", t_us, source, clock)]
        if turn.copy and not turn.copy_confirmed:
            return [_event("copy_chosen", t_us, source, clock, player=turn.copy, confirmed=True)]
        return []
    if turn.cards:
        return []  # the copy choice stands once the cards are being turned over
    others = [name for name in game.players if name != turn.roller]
    if turn.copy in others:
        choice = others[(others.index(turn.copy) + 1) % len(others)]
    else:
        seat = game.players.index(turn.roller)
        choice = game.players[(seat + 1) % len(game.players)]
    return [_event("copy_chosen", t_us, source, clock, player=choice, confirmed=False)]

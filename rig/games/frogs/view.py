"""A Lunar Laser Frogs game's part of the engine's state (``GET /api/state``, see docs/engine.md),
and the referee's record of a turn.
"""

from __future__ import annotations

from typing import Any

from rig.engine.view import format_margin
from rig.games.frogs.engine import (
    GameState,
    cards_expected,
    classify_tosses,
    effective_times,
    lasered,
    phase,
    score_problem,
    score_turn,
    still_to_toss,
)
from rig.games.frogs.rules import Face, is_dead_heat


def dead_heat_text(first: str, second: str, margin_us: int, window_us: int) -> str:
    """What the board says for two tosses too close to call.

    >>> dead_heat_text("Ben", "Cleo", 3, 50)
    'dead heat (Δ 3 µs): Ben and Cleo within the 50 µs tie window; Ben counts first'
    >>> dead_heat_text("Ben", "Cleo", 0, 0)
    'dead heat (Δ 0 µs): Ben and Cleo in the same µs; Ben was logged first and counts first'
    """
    if margin_us == 0 and window_us == 0:
        return (f"dead heat (Δ 0 µs): {first} and {second} in the same µs; "
                f"{first} was logged first and counts first")
    return (f"dead heat (Δ {margin_us} µs): {first} and {second} within the {window_us} µs tie window; "
            f"{first} counts first")


def _dice_view(dice: list[str], corrected: set[int]) -> tuple[list[dict[str, Any]], list[str]]:
    missing = list(lasered(dice)) if len(dice) == 6 else []
    out = []
    for index, name in enumerate(dice):
        face = Face.parse(name)
        out.append({"index": index, "face": name, "colours": sorted(face.colours),
                    "lasered": missing, "corrected": index in corrected})
    return out, missing


def _tosses_view(game: GameState, score: dict[str, Any] | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    turn = game.turn
    views = classify_tosses(game, turn)
    counting = [v.toss for v in views if v.counting]
    times = effective_times(turn, counting)
    cards_scored = score["cards"] if score else []
    position = {toss.order: k for k, toss in enumerate(counting)}
    out: list[dict[str, Any]] = []
    dead_heats: list[dict[str, Any]] = []
    previous = None
    for index, view in enumerate(views):
        toss = view.toss
        entry: dict[str, Any] = {
            "index": index, "player": toss.player, "t_us": toss.t_us, "counting": view.counting,
            "why": view.why, "swapped": toss.swapped, "position": None, "card": None, "card_corrected": False,
            "points": None, "reason": None, "margin_us": None, "margin_text": None, "dead_heat": False,
        }
        if view.counting:
            k = position[toss.order]
            entry["position"] = k + 1
            if k < len(turn.cards):
                entry["card"] = turn.cards[k]
                entry["card_corrected"] = k in turn.corrected_cards
            if k < len(cards_scored):
                entry["points"] = cards_scored[k]["points"]
                entry["reason"] = cards_scored[k]["reason"]
            if previous is not None:
                margin = times[toss.order] - times[previous.order]
                entry["margin_us"] = margin
                if is_dead_heat(margin, game.rules.tie_window_us):
                    entry["dead_heat"] = True
                    text = dead_heat_text(previous.player, toss.player, margin, game.rules.tie_window_us)
                    entry["margin_text"] = text
                    dead_heats.append({"first": previous.player, "second": toss.player, "t_us": toss.t_us,
                                       "margin_us": margin, "text": text})
                elif previous.player == toss.player:
                    entry["margin_text"] = f"{toss.player} again, {format_margin(margin)} later"
                else:
                    entry["margin_text"] = f"{previous.player} beat {toss.player} by {format_margin(margin)}"
            previous = toss
        out.append(entry)
    return out, dead_heats


def turn_view(game: GameState) -> dict[str, Any]:
    turn = game.turn
    score = score_turn(game) if not game.is_over else None
    dice, missing = _dice_view(turn.dice, turn.corrected_dice)
    tosses, dead_heats = _tosses_view(game, score)
    problem = score_problem(game)
    return {
        "number": turn.number,
        "roller": turn.roller,
        "phase": phase(game),
        "started": turn.started,
        "start_t_us": turn.start_t_us,
        "rolls": turn.rolls,
        "dice": dice,
        "lasered": missing,
        "tosses": tosses,
        "dead_heats": dead_heats,
        "still_to_toss": still_to_toss(game, turn) if turn.started else [],
        "cards_revealed": len(turn.cards),
        "cards_expected": cards_expected(game),
        "copy": {"player": turn.copy, "confirmed": turn.copy_confirmed} if turn.copy else None,
        "violations": list(turn.violations),
        "score": score,
        "problem": problem,
    }


def game_view(game: GameState) -> dict[str, Any]:
    progress = game.progress()
    ended = game.ended
    return {
        "id": game.id,
        "game": game.game,
        "players": list(game.players),
        "options": dict(game.options),
        "turns_each": game.setup.turns_each,
        "cards_per_opponent": game.rules.cards_per_opponent,
        "turns_played": progress.turns_played,
        "round": progress.round if progress.next_roller else progress.round - 1,
        "extra_rounds": progress.extra_rounds,
        "whose_turn": None if ended else game.turn.roller,
        "status": "playing" if ended is None else ("over" if ended["winner"] else ended["reason"]),
    }


def state_part(game: GameState) -> dict[str, Any]:
    """``game``, ``turn``, ``totals``, ``turns``, ``last_turn``, ``outcome`` and ``winner``."""
    progress = game.progress()
    turns = [{"number": t["number"], "roller": t["roller"], "copy": t["score"]["copy"],
              "points": t["score"]["points"], "net": t["score"]["net"]} for t in game.scored]
    ended = game.ended
    return {
        "game": game_view(game),
        "turn": None if ended else turn_view(game),
        "totals": dict(progress.totals),
        "turns": turns,
        "last_turn": ({"number": game.scored[-1]["number"], "roller": game.scored[-1]["roller"],
                       "score": game.scored[-1]["score"]} if game.scored else None),
        "outcome": ended,
        "winner": ended["winner"] if ended else None,
    }


def turn_record(game: GameState, rolls: list[dict[str, Any]], scored: bool) -> dict[str, Any]:
    """The referee's record of the turn under way (:func:`rig.engine.turns.game_turns`)."""
    view = turn_view(game)
    return {
        "number": view["number"], "roller": view["roller"], "scored": scored, "phase": view["phase"],
        "start_t_us": view["start_t_us"], "dice": [d["face"] for d in view["dice"]],
        "corrected_dice": [d["index"] for d in view["dice"] if d["corrected"]],
        "lasered": view["lasered"], "tosses": view["tosses"], "dead_heats": view["dead_heats"],
        "copy": view["copy"], "score": view["score"], "rolls": rolls,
    }

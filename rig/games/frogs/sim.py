"""Lunar Laser Frogs played by a simulated table (the league's demo and benchmark, :mod:`rig.league.simtable`).

``table`` is the table (``rng``, ``service``, ``turns_each``, ``tick()``, ``submit(event)``); each step
yielded is one input: a press, a roll, a copy choice, a card.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

FACES = ("blue", "pink", "yellow", "blank", "blank")
COMBOS = ("pink+blue", "pink+blue", "yellow+pink", "yellow+pink", "blue+yellow", "blue+yellow")
CARDS = ("blue", "pink", "yellow", "blank", "gray")


def options(table: Any) -> dict[str, Any]:
    """A new game's options."""
    return {"turns_each": table.turns_each}


def turn_inputs(table: Any, state: dict[str, Any]) -> Iterator[Callable[[], Any]]:
    """The inputs of the turn under way, from its start to its score."""
    game, turn = state["game"], state["turn"]
    roller = turn["roller"]
    others = [p for p in game["players"] if p != roller]
    if turn["phase"] == "waiting":
        yield lambda: table.service.press(roller, table.tick(), source="sim")
    dice = [table.rng.choice((*FACES, combo)) for combo in COMBOS]
    tossers = others * game["cards_per_opponent"]
    table.rng.shuffle(tossers)
    for count, chunk in ((2, tossers[:len(tossers) // 2]), (4, tossers[len(tossers) // 2:]), (6, [])):
        for player in chunk:
            yield lambda p=player: table.service.press(p, table.tick(), source="sim")
        yield lambda n=count: table.submit({"type": "roll_settled", "dice": dice[:n]})
    copy = table.rng.choice(others)
    yield lambda: table.submit({"type": "copy_chosen", "player": copy})
    hands = {p: table.rng.sample(CARDS, game["cards_per_opponent"]) for p in others}
    for player in tossers:
        yield lambda p=player: table.submit({"type": "card_revealed", "card": hands[p].pop()})
    yield lambda: table.submit({"type": "turn_scored"})

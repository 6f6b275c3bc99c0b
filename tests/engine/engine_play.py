"""Seeded simulated games for the engine tests: a script of inputs, and the truth behind it.

A script is a list of steps, each ``("press", player, t_us)``, ``("release", player, t_us, held_us)``
or ``("submit", event)``; :func:`make_script` builds it by playing against a throw-away
in-memory service, so every step is one the real service accepts.
"""

from __future__ import annotations

import random
from typing import Any

from rig.engine.service import EngineService
from rig.games.frogs.rules import score_turn, Turn

# the six dice: four single colours and blanks, plus each die's combo face
COMBOS = ("pink+blue", "pink+blue", "yellow+pink", "yellow+pink", "blue+yellow", "blue+yellow")
CARDS = ("blue", "pink", "yellow", "blank", "gray")
S = 1_000_000


def roll_dice(rng: random.Random) -> list[str]:
    return [rng.choice(["blue", "pink", "yellow", "blank", "blank", combo]) for combo in COMBOS]


def run_step(service: EngineService, step: tuple) -> Any:
    kind = step[0]
    if kind == "press":
        return service.press(step[1], step[2], source=step[3] if len(step) > 3 else "gpio")
    if kind == "release":
        return service.release(step[1], step[2], step[3], source=step[4] if len(step) > 4 else "gpio")
    try:
        return service.submit(step[1])
    except ValueError as exc:  # refusals are part of some scripts
        return exc


def make_script(seed: int, players: list[str], *, turns_each: int | None = None, corrections: bool = True,
                tie_scores: bool = False) -> tuple[list[tuple], list[dict[str, Any]]]:
    """Steps for a whole game and the truth per scored turn (for checking against rig.rules)."""
    rng = random.Random(seed)
    service = EngineService.in_memory(clock="sim")
    steps: list[tuple] = []
    truths: list[dict[str, Any]] = []
    t = 10 * S

    def do(step: tuple) -> Any:
        steps.append(step)
        return run_step(service, step)

    options = {} if turns_each is None else {"turns_each": turns_each}
    do(("submit", {"type": "game_started", "t_us": t, "source": "sim", "clock": "sim", "players": players,
                   "options": options}))
    while service.state()["game"]["status"] == "playing":
        state = service.state()
        roller = state["turn"]["roller"]
        others = [p for p in players if p != roller]
        per = state["game"]["cards_per_opponent"]
        t += 5 * S
        start = t
        if state["turn"]["phase"] == "waiting":
            do(("press", roller, start))
            do(("release", roller, start + 80_000, 80_000))
        dice = [] if tie_scores else roll_dice(rng)
        if tie_scores:
            dice = ["blank"] * 6  # every colour lasered: the blanks score 0
        # tosses: times within 3 s of the start, a dead heat now and then, arriving out of order
        hands = {p: rng.sample(CARDS, per) for p in others}
        tosses = []
        for p in others:
            for k in range(per):
                tosses.append((p, start + rng.randrange(1, 3 * S)))
        if rng.random() < 0.5 and len(tosses) > 1:
            tosses[1] = (tosses[1][0], tosses[0][1])  # dead heat
        arrivals = sorted(tosses, key=lambda x: x[1] + rng.randrange(0, 300))
        stray = rng.choice(others) if rng.random() < 0.5 else None
        counts = [rng.randint(1, 2), rng.randint(1, 2)]
        rolls = [dice[: counts[0]], dice[: counts[0] + counts[1]], dice]
        for i, roll in enumerate(rolls):
            for p, tt in arrivals[i::3]:
                do(("press", p, tt))
            do(("submit", {"type": "roll_settled", "t_us": start + (i + 1) * S, "source": "camera",
                           "clock": "sim", "dice": list(roll)}))
        if stray:
            do(("press", stray, start + 3 * S + 5))  # a press by someone who has tossed: shown, not counted
        # the roller's copy selector: a few short presses, then a hold
        t = start + 4 * S
        for _ in range(rng.randint(1, len(others))):
            t += 300_000
            do(("press", roller, t))
            do(("release", roller, t + 90_000, 90_000))
        t += 300_000
        do(("press", roller, t))
        do(("release", roller, t + 1_200_000, 1_200_000))
        t += 2 * S
        state = service.state()
        copy = state["turn"]["copy"]["player"]
        counting = [x for x in state["turn"]["tosses"] if x["counting"]]
        used = {p: 0 for p in others}
        cards = []
        for x in counting:
            cards.append(hands[x["player"]][used[x["player"]]])
            used[x["player"]] += 1
        if tie_scores:
            cards = ["blank"] * len(counting)
            if per == 2:
                cards = ["blank", "blue"] * (len(counting) // 2)
                cards = []
                seen: dict[str, int] = {}
                for x in counting:
                    cards.append(["blank", "blue"][seen.get(x["player"], 0)])
                    seen[x["player"]] = seen.get(x["player"], 0) + 1
        for k, card in enumerate(cards):
            if corrections and not tie_scores and k == 0 and rng.random() < 0.5:
                wrong = next(c for c in CARDS if c != card)
                do(("submit", {"type": "card_revealed", "t_us": t, "source": "camera", "clock": "sim",
                               "card": wrong}))
                do(("submit", {"type": "correction", "t_us": t + 1, "source": "display", "clock": "sim",
                               "what": "card", "index": 0, "card": card}))
            else:
                do(("submit", {"type": "card_revealed", "t_us": t, "source": "camera", "clock": "sim",
                               "card": card}))
            t += 200_000
        if corrections and not tie_scores and rng.random() < 0.5:
            good = dice[2]
            wrong = "blank" if good != "blank" else "pink"
            do(("submit", {"type": "correction", "t_us": t, "source": "display", "clock": "sim",
                           "what": "die", "index": 2, "face": wrong}))
            do(("submit", {"type": "correction", "t_us": t + 1, "source": "display", "clock": "sim",
                           "what": "undo"}))
        truth_tosses = [{"player": x["player"], "card": c, "t_us": x["t_us"]} for x, c in zip(counting, cards)]
        truths.append({"players": players, "roller": roller, "dice": dice, "tosses": truth_tosses, "copy": copy})
        state = service.state()
        assert state["turn"]["phase"] == "review", state["turn"]
        # finish: the next roller presses, or (half the time) the roller holds
        t += S
        nxt = players[(players.index(roller) + 1) % len(players)]
        if rng.random() < 0.5:
            do(("press", nxt, t))
            do(("release", nxt, t + 50_000, 50_000))
        else:
            do(("press", roller, t))
            do(("release", roller, t + 1_100_000, 1_100_000))
    service.close()
    return steps, truths


def expected_totals(truths: list[dict[str, Any]], players: list[str]) -> dict[str, int]:
    totals = {p: 0 for p in players}
    for truth in truths:
        score = score_turn(Turn.parse(truth))
        for p in players:
            totals[p] = max(0, totals[p] + score.net[p])
    return totals

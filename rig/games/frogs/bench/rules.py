"""``rig bench rules``: turns scored per second by the rules core (seeded random turns)."""

from __future__ import annotations

import random
import statistics
import time

from rig import argtypes


def add_arguments(parser) -> None:
    parser.add_argument("--turns", type=argtypes.count, default=20000, help="turns to score (default 20000)")
    parser.add_argument("--seed", type=argtypes.seed, default=1)


def random_turns(n: int, seed: int) -> list:
    from rig.games.frogs.rules import FACE_NAMES, Card, Turn, rules_for

    rnd = random.Random(seed)
    turns = []
    while len(turns) < n:
        players = [f"P{i}" for i in range(rnd.randint(3, 8))]
        roller = rnd.choice(players)
        per = rules_for(len(players)).cards_per_opponent
        dice = [rnd.choice(FACE_NAMES) for _ in range(6)]
        if any(dice.count(c) > 2 for c in ("pink+blue", "yellow+pink", "blue+yellow")):
            continue
        tosses = [
            {"player": p, "card": card.value, "t_us": rnd.randrange(5_000_000)}
            for p in players if p != roller
            for card in rnd.sample(list(Card), per)
        ]
        copy = rnd.choice([p for p in players if p != roller])
        turns.append(Turn.parse({"players": players, "roller": roller, "dice": dice, "tosses": tosses, "copy": copy}))
    return turns


def run(args) -> int:
    from rig.games.frogs.rules import score_turn

    turns = random_turns(args.turns, args.seed)
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        for turn in turns:
            score_turn(turn)
        runs.append(time.perf_counter() - start)
    best = min(runs)
    print(f"rules bench: {len(turns)} seeded random turns (3-8 players), 5 runs")
    print(f"  median {statistics.median(runs) * 1e6 / len(turns):.1f} us/turn, best {best * 1e6 / len(turns):.1f} us/turn")
    print(f"  throughput {len(turns) / best:,.0f} turns/s on one thread")
    return 0

"""``rig bench dice``: the die-fairness χ² test on seeded fair and loaded rolls, and how often it flags each.

One seeded set of each is shown in full (what ``rig history --dice`` prints); then ``--trials``
seeded sets of each size give the false-alarm rate on fair dice and the detection rate on
loaded ones at the "looks loaded" level (p < 0.01).
"""

from __future__ import annotations

import random

from rig import argtypes


def add_arguments(parser) -> None:
    parser.add_argument("--turns", type=argtypes.count, default=100, help="turns per set of rolls (6 dice each; default 100)")
    parser.add_argument("--trials", type=argtypes.count, default=200, help="seeded sets per row of the flag-rate table (default 200)")
    parser.add_argument("--load", default="pink=1.5",
                        help="the loaded dice: FACE=WEIGHT, e.g. pink=1.5 (pink lands 1.5x as often; default)")
    parser.add_argument("--seed", type=argtypes.seed, default=1)


def _load(text: str) -> dict[str, float]:
    from rig.errors import RigError
    from rig.games.frogs.rules import FACE_NAMES, Face

    face, sep, weight = text.partition("=")
    try:
        name, value = str(Face.parse(face)), float(weight)
    except ValueError:
        raise RigError(f"--load {text!r}: write FACE=WEIGHT, e.g. pink=1.5 (faces: {', '.join(FACE_NAMES)})") from None
    if not sep or not 0 < value <= 100:
        raise RigError(f"--load {text!r}: the weight is a number above 0 (1 = fair), e.g. pink=1.5")
    return {name: value}


def run(args) -> int:
    from rig.games.frogs.rules.fairness import DiceFairness, simulate_rolls
    from rig.rules.fairness import LOADED_P

    load = _load(args.load)
    what = ", ".join(f"{face} x{weight:g}" for face, weight in load.items())
    for title, weights in (("fair dice", None), (f"loaded dice ({what})", load)):
        test = DiceFairness.of(simulate_rolls(random.Random(args.seed), args.turns, loaded=weights))
        print(f"== {title}, seed {args.seed}, {args.turns} turns")
        print(test.format())
    print(f"== flag rate over {args.trials} seeded sets (looks loaded: p < {LOADED_P:g} on either test)")
    print(f"  {'turns':>6} {'dice':>6} {'fair flagged':>13} {'loaded flagged':>15}")
    sizes = sorted({max(1, args.turns // 4), max(1, args.turns // 2), args.turns, args.turns * 2})
    for turns in sizes:
        flagged = {}
        for kind, weights in (("fair", None), ("loaded", load)):
            hits = 0
            for trial in range(args.trials):
                rng = random.Random(args.seed * 1_000_003 + trial)
                hits += DiceFairness.of(simulate_rolls(rng, turns, loaded=weights)).verdict == "looks loaded"
            flagged[kind] = hits / args.trials
        print(f"  {turns:>6} {turns * 6:>6} {flagged['fair']:>12.1%} {flagged['loaded']:>14.1%}")
    return 0

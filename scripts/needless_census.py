"""Needless flags on twin turns by their FULL set of reasons: what answering one reason, or two, would free (issue 24, round 23).

Reads the turn lines ``scripts/twin_turns.py --out`` wrote and, for every needless turn-light (flagged, every die read
right, no truly cocked or hidden die: the bench's count, :func:`twin_turns.figures`), takes the set of its reasons'
kinds (:func:`twin_turns.reason_kind`). Prints:

- turns flagged by one reason only, by reason (= the turns freed if that reason alone were answered);
- per reason, the turns it is in;
- per pair of reasons, the turns whose reasons are all within the pair (freed if both were answered);
- the commonest full reason sets.

With ``--split-cocked`` a "cocked die" reason is named by the test that called the die at its place cocked (the read
die within 0.8 die sides: ``small top``, ``aspect``, ``flank``, ``?`` for none of these, e.g. the side-face checks).

    .venv/bin/python scripts/needless_census.py --dir ~/.cache/rig/dice/r23/main/thrown \
        --sets 10000:12,10100:12,10200:12,10300:12,10400:12,10500:12,10600:12 [--split-cocked]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from twin_turns import cocked_by, load, needless, reason_kind  # noqa: E402


def cocked_test(line: dict, x: float, y: float) -> str:
    """Which test called the read die nearest (x, y) cocked: small top, aspect, flank, or ``?``."""

    r2, best = (0.8 * line["die_px"]) ** 2, None
    for o in line["seen"]:
        d2 = (o["x"] - x) ** 2 + (o["y"] - y) ** 2
        if d2 < r2:
            r2, best = d2, o
    if best is None:
        return "?"
    return cocked_by(best)


def kinds(line: dict, split_cocked: bool) -> frozenset[str]:
    """The turn-light's reason kinds."""
    from rig.vision.dice_flag import Flag

    out = set()
    for text in line["reasons"]:
        k = reason_kind(text)
        flag = Flag.parse(text)
        if split_cocked and k == "cocked die" and flag is not None:
            k = f"cocked die [{cocked_test(line, *flag.at)}]"
        out.add(k)
    return frozenset(out)


def census(lines: list[dict], split_cocked: bool, label: str, top: int = 25) -> None:
    sets = [kinds(s, split_cocked) for s in lines if needless(s)]
    frames = sum("refused" not in s for s in lines)
    print(f"\n== {label}: {len(sets)} needless turn-lights of {frames}")
    inside, only = Counter(), Counter()
    for ks in sets:
        inside.update(ks)
        if len(ks) == 1:
            only[next(iter(ks))] += 1
    print("\n| reason | in turns | only reason (freed if answered alone) |\n| --- | --- | --- |")
    for k, n in inside.most_common():
        print(f"| {k} | {n} | {only[k]} |")
    pairs = Counter()
    names = [k for k, _ in inside.most_common()]
    for a, b in combinations(names, 2):
        pair = {a, b}
        n = sum(ks <= pair for ks in sets)
        if n > max(only[a], only[b]):
            pairs[(a, b)] = n
    print(f"\n| pair answered | turns freed (of {len(sets)}) | of which by neither alone |\n| --- | --- | --- |")
    for (a, b), n in pairs.most_common(top):
        print(f"| {a} + {b} | {n} | {n - only[a] - only[b]} |")
    print("\n| full reason set | turns |\n| --- | --- |")
    for ks, n in Counter(sets).most_common(top):
        print(f"| {' + '.join(sorted(ks))} | {n} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, required=True, help="twin_turns.py's --out folder")
    ap.add_argument("--sets", required=True)
    ap.add_argument("--split-cocked", action="store_true")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    every = [s for lines in load(args.dir, args.sets).values() for s in lines]
    census(every, args.split_cocked, "all lights", args.top)
    census([s for s in every if s.get("drift") == "same"], args.split_cocked, "same light", args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())

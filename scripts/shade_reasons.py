"""Where the "die in shadow or on edge" flags of needless twin turns lie (issue 24, round 14).

The reader says "die in shadow or on edge" for two things: a die whose top lies in a wall's deep shade (lifted to be
read: the flag at the die's own place) and a blob of die body in shade that no flat die's walls explain (at the
blob's centre). The second look never frees either (neither is a die's own freeable flag). This reads the turn
lines ``scripts/frog_crops.py`` wrote (the reader's flags before the second look) and, for the turns read fully
right with no leaning die ("needless", as the bench counts them), counts those whose reasons hold such a flag by
where it lies:

- ``at a die``: at a die read (within :data:`AT` die sides): the deep-shade flag of that die;
- ``beside``: within :data:`BESIDE` die sides of a die read: a blob by a die — its side face or cast shadow;
- ``far``: farther from every die read: shade of the floor, or where a die may lie unread;

and ``only``: the turns whose every reason is such a flag.

    .venv/bin/python scripts/shade_reasons.py --crops ~/.cache/rig/dice/r13/crops --sets 8700:12,8800:12
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_second_look import load  # noqa: E402

from rig.vision.dice_flag import Flag  # noqa: E402

SHADE = "die in shadow or on edge"
#: a flag this close to a die read (in die sides) is that die's deep-shade flag
AT = 0.05
#: a blob this close to a die read lies beside it
BESIDE = 1.2


def place(line: dict, at: tuple[float, float]) -> str:
    """Where a shade flag at ``at`` (frame px) lies on ``line``: ``at a die``, ``beside`` or ``far``."""
    if not line["seen"]:
        return "far"
    d = min(math.hypot(o["x"] - at[0], o["y"] - at[1]) for o in line["seen"]) / line["side"]
    return "at a die" if d < AT else "beside" if d < BESIDE else "far"


def tally(lines: list[dict]) -> Counter:
    """``(light, what)`` -> needless turns (``what``: ``needless`` all of them, ``any shade``, each place, ``only``);
    light ``same`` or ``drift``."""
    c: Counter = Counter()
    for s in lines:
        if "refused" in s or s["status"] == "ok" or s["wrong"] or s["has_cocked"]:
            continue
        light = "same" if s["drift"] == "same" else "drift"
        c[light, "needless"] += 1
        flags = [Flag.parse(r) for r in s["reasons"]]
        shade = [f for f in flags if f is not None and f.kind == SHADE]
        if not shade:
            continue
        c[light, "any shade"] += 1
        for where in {place(s, f.at) for f in shade}:
            c[light, where] += 1
        if len(shade) == len(flags):
            c[light, "only"] += 1
    return c


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crops", type=Path, required=True)
    ap.add_argument("--sets", default="8700:12,8800:12,8900:12,9000:12")
    args = ap.parse_args(argv)
    lines, _, _ = load(args.crops, args.sets)
    c = tally(lines)
    print("needless turns (before the second look), same light / all drifts:")
    for what in ("needless", "any shade", "at a die", "beside", "far", "only"):
        print(f"  {what:<10} {c['same', what]:>4} / {c['drift', what]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A pyramid level chosen weakly, chosen again on the finder's fainter peaks (issue 25, round 30).

With no size hint the level is chosen on the finder's peaks above ``find_keep`` (:meth:`rig.vision.dicenet.DiceNet.level`).
Dice the finder scores faintly (green dice with white pips on the pip twin's felt, 0.5-0.65) leave a finer level a lone
pip above that floor, read as 1 at 0.98: its mean (0.45) beat three faint dice read right at the coarser level (0.43),
and every pip was read as a die. Chosen again on the peaks above :data:`WEAK_FLOOR`, the pip has its crowding siblings
(:func:`rig.vision.dicepeaks.crowded`) and the dice's level wins. Only a coarser second choice is taken: a finer one cost
the tuning photos' white dice at x1.5 four dice (96.1 -> 95.4 % right).
"""

from __future__ import annotations

from collections.abc import Callable

#: a level chosen below this strength is chosen again (0: never)
WEAK_LEVEL = 0.6
#: ... on the finder's peaks above this
WEAK_FLOOR = 0.2

Level = tuple  # (die size in frame px, strength, finder output): DiceNet.level's answer


def chosen_again(level: Callable[[float], Level], floor: float) -> Level:
    """``level(floor)``'s choice; when weaker than :data:`WEAK_LEVEL`, ``level(WEAK_FLOOR)``'s if that is coarser."""
    first = level(floor)
    if first[1] >= WEAK_LEVEL or floor <= WEAK_FLOOR:
        return first
    again = level(WEAK_FLOOR)
    return again if again[0] > first[0] else first


def once(passes: dict | None, die_px: float, run: Callable[[], tuple]) -> tuple:
    """``run()`` (a finder pass: its output, whether it ran on tiles) unless ``passes`` holds the output of one run whole
    at ``die_px``; one run whole kept there (``passes`` None: always run, nothing kept)."""
    if passes and die_px in passes:
        return passes[die_px], False
    out, tiled = run()
    if passes is not None and not tiled:
        passes[die_px] = out
    return out, tiled


def level_strength(scored, weights) -> float:
    """A pyramid level's strength before its step cost: the mean of its scored peaks' scores, each times its weight
    (added in order, as numpy's mean adds fewer than eight: the same float)."""
    return sum(q * w for (*_, q), w in zip(scored, weights)) / len(scored) if scored else 0.0

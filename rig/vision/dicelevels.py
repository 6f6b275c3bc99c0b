"""The pyramid's coarsest levels that cannot win, their peaks left unread (issue 25, round 30;
:meth:`rig.vision.dicenet.DiceNet.level`).

With no size hint every level at the finder's own size and coarser is run, and each level's :data:`VOUCH
<rig.vision.dicenet.VOUCH>` strongest peaks are read to score it (finder score x the reader's surest pip count, a
crowded peak x ``crowded``, less the level's step cost). The reader gives at most 1, so a level's score is at most
its finder scores' mean (crowding counted) less its step cost: :func:`level_bound`. On coloured photos of 50-65 px
dice at 1280x960 the three coarsest levels (dice of 112-253 px) bound 0.3-0.7 while the level chosen scores 0.85-0.9:
their 5-8 peaks a frame (and their mirrored re-reads) were read for nothing.

The coarsest levels whose bound is below what the likeliest level scores (:func:`unread_coarsest`) are left out of
the search; the search then checks that every level it took as the strongest outscored them all along (its group
rule can lower the leader's score), else it is run again with them read. A level left out holds no peak that could be
a sure die (``sure_die``: a finer level's peaks inside one are its pips) and, being coarser than every level kept,
lowers none by the group rule: the search's choice, and every reading, is the same as with every level read.
"""

from __future__ import annotations

from rig.vision.dicepeaks import crowded

#: a bound is raised by this much: the reader's probability is a float32 (a product with it may round up)
SLACK = 1e-4


def level_bound(level: tuple, crowded_weight: float, step_cost: float) -> tuple[float, float]:
    """The most a pyramid level (``(die_px, steps, output, found, kept)``, as ``DiceNet._level_peaks`` gives it) can
    score whatever the reader says, and the most any of its kept peaks can."""
    _, steps, _, found, kept = level
    scores = [score * (crowded_weight if crowded(x, y, side, found) else 1.0) for x, y, side, score in kept]
    mean = sum(scores) / len(scores) if scores else 0.0
    return mean - step_cost * abs(steps) + SLACK, max(scores, default=0.0) + SLACK


def unread_coarsest(bounds: list[tuple[float, float]], likeliest: float) -> int:
    """How many of the coarsest levels (``bounds``: :func:`level_bound` of each, coarsest first) to leave unread: each
    bounded below ``likeliest`` (what the level with the highest bound scores, read)."""
    n = 0
    while n < len(bounds) and bounds[n][0] < likeliest:
        n += 1
    return n


def strength(scored, weights) -> float:
    """A pyramid level's strength before its step cost: the mean of its scored peaks' scores, each times its weight
    (added in order, as numpy's mean adds fewer than eight: the same float)."""
    return sum(q * w for (*_, q), w in zip(scored, weights)) / len(scored) if scored else 0.0

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

A level chosen weakly is chosen again on the finder's fainter peaks (:func:`chosen_again`, round 30): dice the finder
scores faintly (green dice with white pips on the pip twin's felt, 0.5-0.65) leave a finer level a lone pip above
``find_keep``, read as 1 at 0.98: its mean (0.45) beat three faint dice read right at the coarser level (0.43), and
every pip was read as a die. Chosen again on the peaks above :data:`WEAK_FLOOR`, the pip has its crowding siblings
(:func:`rig.vision.dicepeaks.crowded`) and the dice's level wins. Only a coarser second choice is taken: a finer one
cost the tuning photos' white dice at x1.5 four dice (96.1 -> 95.4 % right).
"""

from __future__ import annotations

from collections.abc import Callable

from rig.vision.dicepeaks import crowded, peaks
from rig.vision.diesplit import GROUP_READ

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


class Passes(dict):
    """The finder passes run whole on a frame, by die size (:func:`once`). ``whole_first`` (:func:`expect_again`): a
    finer level's pass due on tiles runs whole, the tiles cut from that output (the same numbers, to the bit:
    :mod:`rig.vision.dicetiles`) and the whole kept here, for the weak level chosen again (:func:`chosen_again`) runs
    the levels whole: not twice (issue 25, round 34)."""

    whole_first = False


def expect_again(passes: Passes | None, best: tuple | None) -> None:
    """``passes.whole_first`` while the strongest level so far (``best``: die size, strength, ...) is weaker than
    :data:`WEAK_LEVEL`, the finer levels not yet run: the level chosen is likely to be chosen again."""
    if passes is not None:
        passes.whole_first = best is not None and best[1] < WEAK_LEVEL


def once(passes: Passes | None, die_px: float, run: Callable[[dict | None], tuple]) -> tuple:
    """``run(keep)`` (a finder pass: its output, whether it ran on tiles; ``keep``: ``passes`` when ``whole_first``, to
    keep a pass due on tiles run whole in) unless ``passes`` holds the output of one run whole at ``die_px``; one run
    whole kept there (``passes`` None: always run, nothing kept)."""
    if passes and die_px in passes:
        return passes[die_px], False
    out, tiled = run(passes if passes is not None and passes.whole_first else None)
    if passes is not None and not tiled:
        passes[die_px] = out
    return out, tiled


#: a weak level scoring fewer peaks than a level two steps finer sees dice apart outside them has the dice it misses count
#: 0 (:func:`thin_coarser`; False: as before round 31)
THIN_VOUCH = True
#: ... that finer level this many steps finer or more (a level's band takes in dice about a step smaller than its own)
APART_STEPS = 1.9
#: ... its dice apart found from this finder score (a weak level chosen again above WEAK_FLOOR: the fainter are clutter)
APART_FLOOR = 0.45


def apart_in_band(found, scale: float, band: tuple[float, float]) -> list[tuple[float, float, float, float]]:
    """A level's peaks (``found``: (x, y, side, score) in frame px; ``scale``: finder px per frame px) from
    :data:`APART_FLOOR` of the size the level vouches for (``band``, finder px) with none of its other peaks nearer
    than a die's side allows (:func:`rig.vision.dicepeaks.crowded`): the dice that level sees apart."""
    return [f for f in found if f[3] >= APART_FLOOR and band[0] <= f[2] * scale <= band[1]
            and not crowded(f[0], f[1], f[2], found)]


def thin_coarser(seen: list, found: list, read: Callable[[list], dict], band: tuple[float, float], vouch: int,
                 step_cost: float) -> None:
    """The pyramid search's levels (``seen``, coarse to fine: ``[die_px, steps, output, scored, strength, weights,
    thinned]``, the last one just scored, ``found`` its peaks) weaker than :data:`WEAK_LEVEL` and
    :data:`APART_STEPS` coarser, each scoring fewer than ``vouch`` peaks while there are more dice, have their strength
    lowered as if the dice they miss scored 0 (``thinned``: the peaks scored over the dice counted). The dice: its
    scored peaks, and the last level's dice apart (:func:`apart_in_band`) outside their boxes and off its other peaks
    of its band's size or more (from :data:`WEAK_FLOOR`: a die it sees too) that the reader (``read``: peaks read into a
    memo (x, y, side) -> (probabilities, ...)) takes for a die showing 2-6 (:data:`rig.vision.diesplit.GROUP_READ`).

    Dark 15 px dice on a pale floor (coloured ``095859`` at x0.4; issue 25, round 31) leave every level weak: the 38-127
    px levels vouched for one peak each, round two to seven dice (the single dice below their band or unseen), and beat the 17 px level's six dice apart (0.37 less two steps' cost): seven dice read as one showing 4. A large
    die's pips, apart at a level too fine, lie in its box or on a fainter peak of its level (white ``two_29`` at x1.5:
    read as 19 dice showing 1 when they counted), and are read as 1 more often than not."""
    if not THIN_VOUCH or len(seen) < 2:
        return
    apart = apart_in_band(found, seen[-1][2][2], band)
    for level in seen[:-1]:
        n = len(level[3])
        if not n or n >= vouch or level[4] >= WEAK_LEVEL or level[1] - seen[-1][1] < APART_STEPS or not apart:
            continue
        heat, sides, scale = level[2]
        own = [(x / scale, y / scale, side / scale) for x, y, side, _ in peaks(heat, sides, WEAK_FLOOR) if side >= band[0]]
        outside = [f for f in apart if not any(abs(f[0] - x) <= side / 2 and abs(f[1] - y) <= side / 2
                                               for x, y, side in own + [p[:3] for p in level[3]])]
        if not outside or level[6] <= n / min(vouch, n + len(outside)):
            continue
        memo = read(outside)
        want = min(vouch, n + sum(_shows_pips(memo[tuple(f[:3])][0]) for f in outside))
        if level[6] > n / want:
            level[6] = n / want
            level[4] = strength(level[3], level[5]) * level[6] - step_cost * abs(level[1])


def _shows_pips(probs) -> bool:
    """The reader's likeliest class is 2-6 pips, at least :data:`rig.vision.diesplit.GROUP_READ` sure of it."""
    k = int(probs.argmax())
    return k >= 2 and float(probs[k]) >= GROUP_READ

"""The pyramid's levels for a frame, with one level finer for small dice in a small frame (issue 25, round 36;
:meth:`rig.vision.dicenet.DiceNet.level`).

The shipped levels (:data:`rig.vision.dicenet.LEVELS`) reach down to dice of 0.026 of the frame's longer side, and
only to dice of at least :data:`MIN_DIE <rig.vision.dicenet.MIN_DIE>` (16) px: in a 640 px frame the finest level is
16.7 px, its finder input 0.9 times the frame, where a die of 12-15 px is 11-13 finder px (the finder was fitted on
15) and scores 0.35-0.6 or nothing. The coloured tuning photos at x0.4 (dice 10-28 px) left 10 dice of 12-20 px not
found so, most of them in frames whose level chosen is that finest one; the finder a step finer (11.1 px in a 640 px
frame) peaks on each at 0.43-0.82.

So the pyramid has one level more, a step of 1.5 finer than the finest shipped one, where its dice are under
``min_die`` px and :data:`SMALL_DIE` px or more (frames 576-921 px long: 11.1 px at 640). It is the search's finest:
run, like the other finer levels, only while it could still beat the strongest level so far and the dice found sure
are not too big for it, on tiles around what the passes run whole responded to, and only when small dice were seen
(:func:`small_dice_seen`): run on every frame it could win, the pip twin's throws scaled to 640x480 (30-40 px dice)
ran it on 4 of 6 frames, +68 % finder px, for nothing. Larger frames keep the shipped levels: there the step finer is
a level of 17 px and up, whose dice the finest shipped level (25 px and up) already vouches for, and on the pip twin's
1280x960 and 1920x1080 frames it found nothing and cost 60-70 % more (round 29).
"""

from __future__ import annotations

#: the level a step finer than the shipped ones runs where its dice are under ``min_die`` px and this many px or more
SMALL_DIE = 10.0
STEP = 1.5  # the pyramid's step between levels
#: a level more than this many steps finer than the finder's own size is the extra level (the shipped finest: -2)
EXTRA_STEPS = -2.5


def pyramid_levels(long_side: int, levels: tuple[float, ...], min_die: float, find_die: float, find_max: int
                   ) -> list[float]:
    """The levels (the dice's side as a fraction of ``long_side``, fine to coarse) the pyramid runs on a frame whose
    longer side is ``long_side`` px: those of ``levels`` whose dice are ``min_die`` px or more and whose finder input
    is at most ``find_max`` px long (the finder's die ``find_die`` px), and the level a step finer than ``levels``
    where its dice are under ``min_die`` px and :data:`SMALL_DIE` px or more.

    >>> from rig.vision.dicenet import FIND_DIE, FIND_MAX, LEVELS, MIN_DIE
    >>> [len(pyramid_levels(side, LEVELS, MIN_DIE, FIND_DIE, FIND_MAX)) for side in (480, 640, 1280, 1920)]
    [5, 7, 6, 6]
    >>> round(pyramid_levels(640, LEVELS, MIN_DIE, FIND_DIE, FIND_MAX)[0] * 640, 1)
    11.1
    """
    def fits(r: float) -> bool:
        return find_die / (r * long_side) <= find_max / long_side

    shipped = [r for r in levels if r * long_side >= min_die and fits(r)]
    finer = min(levels) / STEP
    if SMALL_DIE <= finer * long_side < min_die and fits(finer):
        return [finer, *shipped]
    return shipped


def small_dice_seen(steps: float, seen: list, best: tuple) -> bool:
    """Whether the search (:meth:`rig.vision.dicenet.DiceNet.level`) may run the level ``steps`` from the finder's own
    size, coarse to fine: a shipped level, always; the extra one only when the strongest level's dice so far (``best``:
    die px, strength, finder output, its scored peaks' median side) are under a step above the finest shipped level's
    die size (the last of ``seen``: die px, ...). Coloured tuning photos at x0.4 (dice 10-28 px): 13-20 px in 52 of
    the 56 frames that could run the extra level; ``scripts/pip_speed.py``'s other 640x480 frames that could: 29-69 px
    (the pip twin's throws scaled down, white dice, some with drawn things). The finest shipped level's own peaks mostly
    under its size let it run too on coloured x0.4's ``IMG_20191209_095849`` (5 more dice right) but on white x0.6's
    ``dice_8`` (the same numbers: a 37.5 px level leading at 0.2-0.25, peaks of 12-14 px) found a faint extra die,
    and on large white dice their pips: left out.

    >>> finest = [16.7, -2.0, None, []]
    >>> [small_dice_seen(-3.0, [finest], (px, 0.5, None, side)) for px, side in ((16.7, 14), (25, 24.9), (37.5, 35))]
    [True, True, False]
    >>> small_dice_seen(-2.0, [], None)
    True
    """
    return steps > EXTRA_STEPS or best[3] < STEP * seen[-1][0]

"""A die the reader is unsure of, read alike in four box sizes turned four ways: freed (issue 25, round 35).

"Pips unclear" (:func:`rig.vision.dicenet.judge`: the reader below ``read_ok`` for its number) is the commonest flag on
the coloured tuning photos' frames read fully right (35 / 28 / 23 / 39 of 154 at x0.4 / x0.6 / x1 / x1.5), and one
reading does not tell a die read right from one misread (round 32). A box a little off, or a die of a few hundred
pixels, moves one reading; a number that holds when the box is drawn 0.9, 1, 1.1 and 1.25 times as wide and turned
each quarter does not. A small die (under :data:`rig.vision.diesmall.SMALL_SIDE` px, its crop read from a few hundred
pixels) flagged for that alone (not the second pass's alone) that :mod:`rig.vision.dieagree`'s three readers did not
free is ``ok`` when the reader's mean for its number over those 16 views is at least ``[anydie] agree_sized``; the
checks that can only flag an ``ok`` die still follow. Measured in docs/games.md "Round 35".
"""

from __future__ import annotations

import numpy as np

from rig.vision import diesmall
from rig.vision.anydie_params import AnyDieParams
from rig.vision.dicecandidate import Candidate
from rig.vision.dicenet import crop_die
from rig.vision.pips import PipCount, PipDie

#: the box's side, times the die's as found, in each of which the reader reads it
SIZES = (1.0, 0.9, 1.1, 1.25)


def sized_mean(frame: np.ndarray, c: Candidate, pips: int, nets) -> float:
    """The reader's mean probability of ``pips`` over the candidate's crop at each of :data:`SIZES`, each turned 0, 90,
    180 and 270 degrees (one batch of 16)."""
    views = []
    for grow in SIZES:
        views += diesmall.turned_views(crop_die(frame, c.x, c.y, c.side * grow, size=nets.crop))
    return float(nets.read(views)[:, pips].mean())


def sized_free(frame: np.ndarray, c: Candidate, die: PipDie, p: AnyDieParams, nets) -> PipDie:
    """``die`` (flagged only "pips unclear", not the second pass's alone: the caller's test), ``ok`` when it is small
    and its number holds in every box size and turn (module doc); ``agree_sized`` 0: unchanged."""
    if p.agree_sized <= 0 or c.side >= diesmall.SMALL_SIDE or sized_mean(frame, c, die.count.pips, nets) < p.agree_sized:
        return die
    return PipDie(die.box, PipCount(die.count.pips, die.count.centres, die.count.confidence, "ok", ()))

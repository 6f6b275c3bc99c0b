"""An ``ok`` pip die read again in another crop of it: the shared step of the checks that can only flag
(:mod:`rig.vision.dieturn`, :mod:`rig.vision.diewide`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rig.vision.pips import PipDie


def reread_ok(dice: list[PipDie], nets, crop_of: Callable[[PipDie], np.ndarray], least: float,
              why: Callable[[int, float], str]) -> list[PipDie]:
    """``dice`` with each ``ok`` die flagged ``why(pips, q)`` when the reader gives its crop ``crop_of(die)`` less
    than ``least`` for the number it read (``least`` 0: none looked at). The crops are read in one batch: the reader
    gives a crop the same numbers alone or in a batch, to the bit, with both engines (issue 25, round 23)."""
    todo = [i for i, d in enumerate(dice) if least > 0 and d.count.status == "ok" and 1 <= d.count.pips <= 6]
    if not todo:
        return list(dice)
    probs = nets.read([crop_of(dice[i]) for i in todo])
    out = list(dice)
    for i, row in zip(todo, probs):
        q = float(row[dice[i].count.pips])
        if q < least:
            out[i] = dice[i].flagged(why(dice[i].count.pips, q))
    return out

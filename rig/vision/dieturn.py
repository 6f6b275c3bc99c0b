"""A die read again turned half round: a check on the learned reader's ``ok`` dice that can only flag.

A die shows as many pips turned any way: the reader (:class:`rig.vision.dicenet.DiceNet`) should read a die's crop
turned half round (180 degrees: the same pixels in the other order, nothing resampled) as it read it the right way
up. A blurred die whose pips hardly stand out from a marbled face can be read sure one way (0.92–0.98) and not at all
the other: the reader sees a pattern, not the pips. An ``ok`` die whose half-turned crop the reader gives less than
``[anydie] turned_ok`` for the number it read is flagged. Issue 25, docs/games.md "No pip die misread in silence
(issue 25, round 14)".
"""

from __future__ import annotations

import numpy as np

from rig.vision.dicenet import crop_die
from rig.vision.dierecheck import reread_ok
from rig.vision.pips import PipDie


def turned_probability(frame: np.ndarray, box: tuple[int, int, int, int], pips: int, nets) -> float:
    """The reader's probability of ``pips`` for the die in ``box`` (its crop as the reader takes it, centred on the
    box, its side the box's) turned half round."""
    return float(nets.read([_turned_crop(frame, box, nets)])[0][pips])


def _turned_crop(frame: np.ndarray, box: tuple[int, int, int, int], nets) -> np.ndarray:
    x, y, w, h = box
    crop = crop_die(frame, x + w / 2, y + h / 2, max(w, h), size=nets.crop)
    return np.ascontiguousarray(crop[::-1, ::-1])


def turned_reason(frame: np.ndarray, die: PipDie, nets, least: float) -> PipDie:
    """``die`` flagged when it is ``ok`` and its half-turned crop is read as its number less than ``least`` surely
    (``least`` 0: unchanged)."""
    return turned_reasons(frame, [die], nets, least)[0]


def turned_reasons(frame: np.ndarray, dice: list[PipDie], nets, least: float) -> list[PipDie]:
    """:func:`turned_reason` of each die, the ``ok`` dice's half-turned crops read in one batch."""
    return reread_ok(dice, nets, lambda d: _turned_crop(frame, d.box, nets), least,
                     lambda pips, q: f"read otherwise turned half round ({pips}: {q:.2f}): pips unclear")

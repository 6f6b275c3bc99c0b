"""A die read again turned half round: a check on the learned reader's ``ok`` dice that can only flag.

A die shows as many pips turned any way: the reader (:class:`rig.vision.dicenet.DiceNet`) should read a die's crop
turned half round (180 degrees: the same pixels in the other order, nothing resampled) as it read it the right way
up. A blurred die whose pips hardly stand out from a marbled face can be read sure one way (0.92–0.98) and not at all
the other: the reader sees a pattern, not the pips. An ``ok`` die whose half-turned crop the reader gives less than
``[anydie] turned_ok`` for the number it read is flagged. Issue 25, docs/games.md "No pip die misread in silence
(issue 25, round 14)".
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rig.vision.dierecheck import Look, box_crop, rereads_ok
from rig.vision.pips import PipDie


def turned_probability(frame: np.ndarray, box: tuple[int, int, int, int], pips: int, nets) -> float:
    """The reader's probability of ``pips`` for the die in ``box`` (its crop as the reader takes it, centred on the
    box, its side the box's) turned half round."""
    return float(nets.read([_turned_crop(frame, box, nets)])[0][pips])


def _turned_crop(frame: np.ndarray, box: tuple[int, int, int, int], nets) -> np.ndarray:
    return _half_turned(box_crop(frame, box, nets))


def _half_turned(crop: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(crop[::-1, ::-1])


def turned_reason(frame: np.ndarray, die: PipDie, nets, least: float) -> PipDie:
    """``die`` flagged when it is ``ok`` and its half-turned crop is read as its number less than ``least`` surely
    (``least`` 0: unchanged)."""
    return turned_reasons(frame, [die], nets, least)[0]


def turned_reasons(frame: np.ndarray, dice: list[PipDie], nets, least: float) -> list[PipDie]:
    """:func:`turned_reason` of each die, the ``ok`` dice's half-turned crops read in one batch."""
    return rereads_ok(dice, nets, [turned_look(frame, nets, least)])


def turned_look(frame: np.ndarray, nets, least: float, crop_of: Callable[[PipDie], np.ndarray] | None = None) -> Look:
    """:func:`turned_reasons`'s check as a look of :func:`rig.vision.dierecheck.rereads_ok` (``crop_of``: a die's
    :func:`rig.vision.dierecheck.box_crop`, shared with other looks; default made here)."""
    crop_of = crop_of or (lambda d: box_crop(frame, d.box, nets))
    return (lambda d: _half_turned(crop_of(d)), least,
            lambda pips, q: f"read otherwise turned half round ({pips}: {q:.2f}): pips unclear")

"""A die read again in a wider crop: a check on the learned reader's ``ok`` dice that can only flag.

The reader (:class:`rig.vision.dicenet.DiceNet`) reads the crop the finder's box gives it. A box on a part of a die
(a column of a 6's pips, the lower half of a top seen at a slant) or between two touching dice is read surely as the
pips it holds: fewer than the die shows, or a count of two dice's halves (issue 25, round 21: a 2 read as 4 in a box
between two touching red dice at x0.4, a 4 read as 2 in a box about 0.65 of a dark die at x1.5, a twin 6 read as 3
in a box on one column of its pips). A whole die read in a crop a little wider still shows the same pips, now with a
rim of floor; a part of a die shows pips the box cut off. An ``ok`` die whose crop grown ``[anydie] wide_grow`` times
(about its centre) the reader gives less than ``[anydie] wide_ok`` for the number it read is flagged. Measured with
K3 at 1.4 / 0.5 (round 21, off); on since round 25 at 1.2 / 0.6 with the shipped nets (the pip twin's two silent dice
were such boxes; 1.4 / 0.5 flags too many right dice at x1.5). Issue 25, docs/games.md "The reader's sure
misreadings: a wider crop's second look, and a label found wrong (issue 25, round 21)" and "The pip twin's silent
dice ... (issue 25, round 25)".
"""

from __future__ import annotations

import numpy as np

from rig.vision.dicenet import crop_die
from rig.vision.dierecheck import Look, rereads_ok
from rig.vision.pips import PipDie


def wide_probability(frame: np.ndarray, box: tuple[int, int, int, int], pips: int, nets, grow: float) -> float:
    """The reader's probability of ``pips`` for the die in ``box`` read in a crop ``grow`` times its usual side,
    centred on the box."""
    return float(nets.read([_wide_crop(frame, box, nets, grow)])[0][pips])


def _wide_crop(frame: np.ndarray, box: tuple[int, int, int, int], nets, grow: float) -> np.ndarray:
    x, y, w, h = box
    return crop_die(frame, x + w / 2, y + h / 2, grow * max(w, h), size=nets.crop)


def wide_reason(frame: np.ndarray, die: PipDie, nets, grow: float, least: float) -> PipDie:
    """``die`` flagged when it is ``ok`` and, in a crop ``grow`` times wider, is read as its number less than
    ``least`` surely (``grow`` or ``least`` 0: unchanged)."""
    return wide_reasons(frame, [die], nets, grow, least)[0]


def wide_reasons(frame: np.ndarray, dice: list[PipDie], nets, grow: float, least: float) -> list[PipDie]:
    """:func:`wide_reason` of each die, the ``ok`` dice's wider crops read in one batch."""
    return rereads_ok(dice, nets, [wide_look(frame, nets, grow, least)])


def wide_look(frame: np.ndarray, nets, grow: float, least: float) -> Look:
    """:func:`wide_reasons`'s check as a look of :func:`rig.vision.dierecheck.rereads_ok`."""
    return (lambda d: _wide_crop(frame, d.box, nets, grow), least if grow > 0 else 0.0,
            lambda pips, q: f"read otherwise in a wider crop ({pips}: {q:.2f}): a part of a die, or two?")

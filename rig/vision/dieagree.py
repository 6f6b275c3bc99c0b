"""A die the learned reader is unsure of, read alike three ways: freed (issue 25, round 32).

"Pips unclear" (:func:`rig.vision.dicenet.judge`: the reader below ``read_ok`` for its number) was the commonest flag
on the coloured tuning photos' dice read right, and the reader's own probability does not tell those from the dice it
misreads (0.33-0.91 on dice read right, 0.32-0.88 on dice read wrong, coloured x1). A die flagged for that alone is
``ok`` when three readers that err apart agree on its number: the reader on its crop turned the four ways and
mirrored (:func:`turned_mean`, the mean of its number at least ``[anydie] agree_turned``), the classical counter
(``count``: :func:`rig.vision.anydie.counted_in_frame`) and the classical pip net (``pipnet``:
:class:`rig.vision.pipnet.PipNet`, its number at least ``agree_pipnet`` sure). A die found by the finder's second
pass alone, or flagged for anything more, is left as it is; the checks that can only flag an ``ok`` die still follow.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rig.vision.anydie_params import AnyDieParams
from rig.vision.dicecandidate import Candidate
from rig.vision.dicenet import crop_die
from rig.vision.diesized import sized_free
from rig.vision.diesmall import turned_views
from rig.vision.pips import PipCount, PipDie

UNCLEAR = "pips unclear"  # the start of judge's reason for a reader unsure of the number


def turned_mean(frame: np.ndarray, c: Candidate, pips: int, nets) -> float:
    """The reader's mean probability of ``pips`` over the candidate's crop turned 0, 90, 180 and 270 degrees, each as
    it is and mirrored (one batch of eight)."""
    views = turned_views(crop_die(frame, c.x, c.y, c.side, size=nets.crop), mirrored=True)
    return float(nets.read(views)[:, pips].mean())


def unclear_only(die: PipDie) -> bool:
    """Whether ``die`` is flagged for its pips being unclear and for nothing else."""
    reasons = die.count.reasons
    return die.count.status != "ok" and bool(reasons) and all(r.startswith(UNCLEAR) for r in reasons)


def agreed(frame: np.ndarray, p: AnyDieParams, nets, count: Callable, pipnet) -> Callable[[Candidate, PipDie], PipDie]:
    """``agree(candidate, die)``: ``die``, ``ok`` when it is flagged only "pips unclear", not the second pass's alone,
    and the three readers agree on its number (module doc; ``agree_turned`` 0 or no pip net: not asked), or the one
    reader in 16 views (:func:`rig.vision.diesized.sized_free`)."""
    def agree(c: Candidate, die: PipDie) -> PipDie:
        if c.alone or not unclear_only(die):
            return die
        if p.agree_turned <= 0 or pipnet is None:
            return sized_free(frame, c, die, p, nets)
        k = die.count.pips
        # the cheapest reader first (counter ~0.8 ms a die, pip net ~1.2, the eight views ~1.9)
        inside = count(frame, die.box, p)
        if inside is None or inside[1] != k:
            return sized_free(frame, c, die, p, nets)
        net_k, net_p = pipnet.classify(frame, inside[0])
        if net_k != k or net_p < p.agree_pipnet or turned_mean(frame, c, k, nets) < p.agree_turned:
            return sized_free(frame, c, die, p, nets)  # rig.vision.diesized: one reader, 16 views
        return PipDie(die.box, PipCount(k, die.count.centres, die.count.confidence, "ok", ()))
    return agree

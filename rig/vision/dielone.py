"""A die the finder scores nearly as high as the dice it found, the dice count not known: the frame asks (issue 25,
round 36).

:mod:`rig.vision.diemissing` makes a frame ask when its faint peaks the reader is sure of are at least two and no
fewer than the dice found. A die missed on its own went unseen: on the pip twin 12405 throw 0 (white dice on felt, 97
px, 640x480) a 1 half in the tray wall's shadow scored 0.43 (``[anydie] find_keep`` 0.45) in a box a third off its
middle, the reader calling that box no die (0.54); the 6 beside it, scored 0.76, was read ``ok`` and the frame said
``ok`` with one of its two dice. Peaks just under ``find_keep`` are common beside dice the finder is sure of (a
binder's holes, keys, side faces: 0.40-0.45 beside dice of 0.86-0.95 on the tuning photos), not beside dice it
scores faintly. So a frame also asks when a peak below ``find_keep``, of the found dice's size
(:data:`rig.vision.diemissing.SIZE_BAND` of their median side) and on none of them (nearer than the overlap of the
larger side), scores at least ``[anydie] lone_ask`` times the strongest of them. Nothing is read or added: the frame
only asks, from the peaks the finder gives :func:`rig.vision.diemissing.worth_reading` (no net runs for it), and
only when the dice's size is not known (the image pyramid's peaks).
"""

from __future__ import annotations

from statistics import median

from rig.vision.anydie_params import AnyDieParams
from rig.vision.dicepeaks import nearer
from rig.vision.diemissing import SIZE_BAND, worth_reading


def lone_faint(found: list, keep: float, overlap: float, share: float) -> tuple[str, ...]:
    """The frame's reason to ask (one, or none): the strongest of the finder's peaks ``found`` ((x, y, side, score,
    ...)) below ``keep``, of the size of those from ``keep`` up and on none of them, when it scores at least ``share``
    times the strongest of those; ``share`` 0: none."""
    strong = [f for f in found if f[3] >= keep]
    if share <= 0 or not strong:
        return ()
    side, best = median(f[2] for f in strong), max(f[3] for f in strong)
    lone = [f[3] for f in found if share * best <= f[3] < keep and 1 / SIZE_BAND <= f[2] / side <= SIZE_BAND
            and not any(nearer(f, g, overlap) for g in strong)]
    if not lone:
        return ()
    return (f"a faint die beside the dice found (finder {max(lone):.2f}, the surest {best:.2f}): a die may be missing",)


def asking_worth(missing: list, overlap: float, p: AnyDieParams):
    """``worth(found, keep)`` for :meth:`rig.vision.dicenet.DiceNet.candidates`: the peaks worth reading
    (:func:`rig.vision.diemissing.worth_reading`, ``[anydie] touch_reach``), the frame's reason to ask for a lone
    faint die (:func:`lone_faint`, ``lone_ask``) appended to ``missing`` when the dice's size is not known (``die_px``
    0: the pyramid's peaks; at a size learned the one level's peaks beside the dice are others, and a frame that asks
    is read again on the pyramid, :class:`rig.vision.readers.DieSize`)."""
    share = p.lone_ask if p.die_px <= 0 else 0.0

    def worth(found: list, keep: float) -> list:
        missing.extend(lone_faint(found, keep, overlap, share))
        return worth_reading(found, keep, overlap, p.touch_reach)
    return worth

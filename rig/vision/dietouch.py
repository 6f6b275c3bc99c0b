"""A faint die touching a die found, the dice count not known (issue 25, round 33): read, flagged, when the frame asks.

In a cluster of small dice the finder scores a die whose neighbours touch it low: of the coloured tuning photos' dice
not found at x0.4 (16) and x0.6 (13; ``scripts/pip_photo_causes.py --dice``) 7 and 2 had a peak at 0.26-0.45, below
``[anydie] find_keep``, that the reader read right and ``read_ok`` sure (2-6 pips), its centre 0.75-1.04 of the larger
side from a die found above ``find_keep`` (under 0.8 where that die was found larger than it is): a die's neighbour, a
side away. White dice's faint peaks so near were side faces, most read as 1. Without a dice count no faint die was kept
(:mod:`rig.vision.diefaint`: the faint peaks the reader is sure of were mostly keys, prints and the side faces of
white dice, many far from any die). Such a peak is now added as a die, flagged "faint die"
(:func:`rig.vision.dicenet.judge`), never ``ok``, and only to a frame that asks already (a die flagged, or a die
missing): a frame said ``ok`` keeps its dice. (The faint peaks read for it count towards
:func:`rig.vision.diemissing.looks_missing` too; on the tuning photos no frame came to ask so.) The white dice's side
faces touching a die and read 2-6 are added too (flagged extras, in frames that ask).
"""

from __future__ import annotations

import math

from rig.vision.anydie_params import AnyDieParams


def touches(die: tuple[float, float, float], others, overlap: float, reach: float) -> bool:
    """Whether ``die`` (x, y, side) lies beside one of ``others`` ((x, y, side, ...)): its centre within ``reach``
    times the larger side, and not on it (a pip of it, or it found twice: nearer than ``overlap`` times the two's mean
    side; a die found larger than it is, beside a small one, would hide it by the larger side)."""
    return any(overlap * (die[2] + o[2]) / 2 <= math.hypot(die[0] - o[0], die[1] - o[1]) <= reach * max(die[2], o[2])
               for o in others)


def on_none(die: tuple[float, float, float], others, overlap: float) -> bool:
    """Whether ``die`` (x, y, side) lies on none of ``others`` (nearer than ``overlap`` times the two's mean side)."""
    return all(math.hypot(die[0] - o[0], die[1] - o[1]) >= overlap * (die[2] + o[2]) / 2 for o in others)


def worth_touching(found: list, keep: float, overlap: float, reach: float) -> set[int]:
    """The ``id`` of each faint peak of ``found`` ((x, y, side, score, ...), below ``keep``) touching one from ``keep``
    up (:func:`touches`): read, so :func:`touching_faint` can weigh it (0 ``reach``: none)."""
    if reach <= 0:
        return set()
    strong = [f for f in found if f[3] >= keep]
    return {id(f) for f in found if f[3] < keep and touches(f[:3], strong, overlap, reach)}


def touching_faint(kept: list, dice: list, p: AnyDieParams, overlap: float, missing: list) -> list:
    """The faint dice of ``kept`` ((candidate, die) pairs; kept below ``find_keep`` only when the reader is sure,
    :func:`rig.vision.diefaint.faint_kept`) to add to ``dice`` (those found from ``find_keep``): read as 2-6 pips,
    touching a die found (:func:`touches`, ``[anydie] touch_reach``), on none nearer, the surest first and none on
    another added; none when the frame would say ``ok`` (every die of ``dice`` ``ok`` and nothing in ``missing``)."""
    if p.touch_reach <= 0 or (all(d.count.status == "ok" for d in dice) and not missing):
        return []
    strong = [(c.x, c.y, c.side) for c, _ in kept if c.score >= p.find_keep]
    faint = sorted(((c, d) for c, d in kept if c.score < p.find_keep and c.pips >= 2
                    and touches((c.x, c.y, c.side), strong, overlap, p.touch_reach)
                    and on_none((c.x, c.y, c.side), strong, overlap)),
                   key=lambda cd: -cd[0].score * float(cd[0].probs[cd[0].pips]))
    added: list = []
    for c, d in faint:
        if on_none((c.x, c.y, c.side), [(a.x, a.y, a.side) for a, _ in added], overlap):
            added.append((c, d))
    return [d for _, d in added]

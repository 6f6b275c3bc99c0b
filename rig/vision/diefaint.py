"""Faint dice the reader is sure of (issue 25, round 15): a finder peak below ``[anydie] find_keep`` kept, flagged.

The finder, trained on two photo sets' dice, scores dice of another table and camera low: on the pip twin's tables
(path-traced dice seen from 18-50 cm, their side faces in view, some in a die's or a lamp's shadow) its heat at a
die lying flat in full view, the frame scaled to the die's own size, has a median of 0.48 (tables 9200-9211; 39 % of
the dice below 0.45) where the photo sets' dice found score a median of 0.83-0.88; below ``find_keep`` (0.45) such a
die was not read at all (counted missed) though the reader, given its place, reads its pips surely and right. A peak
(from ``faint_keep``) is kept when the game's dice count is known and the dice found above ``find_keep`` are fewer
(the surest faint ones, as many as are missing: :func:`with_faint`), the reader is ``read_ok`` sure of a pip count
(more than of "no die") and no stronger die lies on it (its pips seen as dice, a die found twice: :func:`unshadowed`):
it is read, always flagged ("faint die", :func:`rig.vision.dicenet.judge`), never ``ok``. Without a dice count (the
photo benchmarks, plain ``rig read --game pips``) no faint die is added: on the tuning photos read so, faint peaks the
reader was sure of were laptop keys, a cable tag's print and the side faces of dice (52 of 53 at x1, white set); but
for one touching a die found, read as 2-6, in a frame that asks anyway (:mod:`rig.vision.dietouch`, round 33).
The pyramid's level (the dice's size) is still chosen on the peaks above ``find_keep``, as before.
"""

from __future__ import annotations

from rig.vision.anydie_params import AnyDieParams
from rig.vision.dicepeaks import nearer
from rig.vision.diemissing import looks_missing
from rig.vision.dietouch import touching_faint


def faint_kept(score: float, probs, p: AnyDieParams, filling: bool = False) -> bool:
    """Whether a finder peak of ``score`` below ``find_keep`` is kept: from ``faint_keep`` (0: never) with the
    reader's class probabilities ``probs`` (index 0 = not a die) ``read_ok`` sure of a pip count, or ``faint_fill_read``
    sure when ``filling`` (the game's dice count known: it can only fill a die missing, flagged)."""
    if p.faint_keep <= 0 or score < p.faint_keep:
        return False
    k = 1 + int(probs[1:].argmax())
    return float(probs[k]) >= (p.faint_fill_read if filling else p.read_ok) and float(probs[k]) > float(probs[0])


def unshadowed(kept: list, p: AnyDieParams, overlap: float) -> list:
    """``kept`` ((candidate, die) pairs) without the faint ones (finder score below ``find_keep``) lying within
    ``overlap`` of the larger side of a die found above ``find_keep``: a pip of it, or it found twice."""
    strong = [(c.x, c.y, c.side) for c, _ in kept if c.score >= p.find_keep]
    return [(c, d) for c, d in kept if c.score >= p.find_keep
            or not any(nearer((c.x, c.y, c.side), s, overlap) for s in strong)]


def with_faint(kept: list, p: AnyDieParams, overlap: float, opinion, want: int = 0, missing: list | None = None) -> list:
    """The judged dice: those found above ``find_keep`` through the second opinion (``opinion``, as
    :func:`rig.vision.dicenet.second_opinion`; it rates a die against the frame's other candidates, so the faint
    ones are left out of it: flagged already, they change nothing it says); then, when they are fewer than ``want``
    (the game's dice count; 0: not known, no faint die), the surest faint ones (finder x reader) :func:`unshadowed`,
    as many as are missing. ``want`` 0 and ``missing`` a list: the frame's reason to ask for a die faintly seen
    appended to it (:func:`rig.vision.diemissing.looks_missing`)."""
    dice = opinion([(c, d) for c, d in kept if c.score >= p.find_keep], p)
    if missing is not None and not want:
        missing.extend(looks_missing([c for c, _ in kept if c.score >= p.find_keep], len(dice),
                                     [c for c, _ in unshadowed(kept, p, overlap) if c.score < p.find_keep], p))
        dice = dice + touching_faint(kept, dice, p, overlap, missing)
    if len(dice) >= want:
        return dice
    faint = [(c, d) for c, d in unshadowed(kept, p, overlap) if c.score < p.find_keep]
    faint.sort(key=lambda cd: -cd[0].score * float(cd[0].probs[1:].max()))
    return dice + [d for _, d in faint[:want - len(dice)]]

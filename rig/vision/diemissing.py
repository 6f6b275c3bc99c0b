"""A die the finder scores too faintly to keep, the dice count not known (issue 25, round 31): the frame asks.

With the game's dice count known a missing die makes the frame uncertain, and a faint peak the reader is sure of
fills it (:mod:`rig.vision.diefaint`). Without it (plain ``rig read --game pips``) a die the finder scores below
``[anydie] find_keep`` was not read and the frame said ``ok`` with the dice found: on the pip twin (red dice on knotted
wood, 9970 and 9986; green on knotted wood, 9793) 2-3 dice of a throw scored 0.20-0.44, the reader sure of each one's
pips, while 1-2 dice were found. On the tuning photos faint peaks the reader is sure of are common too (laptop keys, a
cable tag's print, a die's side face or pips: in 16-23 of the 210 white frames a scale read ``ok``), but fewer than
the dice found beside them, or of another size (pips). So the frame is made uncertain ("a die may be missing") when the faint
peaks the reader is sure of (:func:`rig.vision.diefaint.faint_kept`, on no stronger die:
:func:`rig.vision.diefaint.unshadowed`) of the found dice's size (within :data:`SIZE_BAND` of their median side) are at
least :data:`AT_LEAST` and no fewer than the dice found: a table whose dice the finder scores low, not a stray thing
beside dice read surely. Nothing is added to the dice: the frame only asks. The finder's passes are those run for the
peaks from ``find_keep`` (tiled alike: :meth:`rig.vision.dicenet.DiceNet.candidates`' ``worth``), and only the faint
peaks that could make the frame ask are read (:func:`worth_reading`): the dice found and read are main's.
"""

from __future__ import annotations

from statistics import median

from rig.vision.anydie_params import AnyDieParams
from rig.vision.dicepeaks import merged, nearer
from rig.vision.dietouch import worth_touching

#: a faint peak counts when its side is within this factor of the found dice's median side
SIZE_BAND = 1.5
#: ... and the frame asks when at least this many count, and no fewer than the dice found
AT_LEAST = 2


def looks_missing(strong: list, found: int, faint: list, p: AnyDieParams) -> tuple[str, ...]:
    """The frame's reason to ask (one, or none): ``strong`` the candidates from ``[anydie] find_keep`` up, ``found``
    the dice read from them, ``faint`` the candidates below it the reader is sure of, on no stronger die."""
    if not found or not strong:
        return ()
    side = median(c.side for c in strong)
    alike = [c for c in faint if c.score < p.find_keep and 1 / SIZE_BAND <= c.side / side <= SIZE_BAND]
    if len(alike) < max(AT_LEAST, found):
        return ()
    best = max(c.score for c in alike)
    return (f"{len(alike)} faint dice beside the {found} found (finder up to {best:.2f}): a die may be missing",)


def worth_reading(found: list, keep: float, overlap: float, reach: float = 0.0) -> list:
    """The finder's peaks ``found`` ((x, y, side, score, ...), in order) worth reading: those from ``keep`` up, and
    the faint ones only when enough to make the frame ask could be among them: of those's size (:data:`SIZE_BAND` of
    their median side), on none of them (nearer than ``overlap`` of the larger side, as
    :func:`rig.vision.diefaint.unshadowed`), at least :data:`AT_LEAST` and as many as the dice those show (a die's
    peaks in two passes counted once: :func:`rig.vision.dicepeaks.merged`); and those touching one from ``keep`` up
    (``reach``: :func:`rig.vision.dietouch.worth_touching`). The rest, read for nothing, cost a frame ~10 % (round 31)."""
    strong = [f for f in found if f[3] >= keep]
    if not strong:
        return strong
    side = median(f[2] for f in strong)
    alike = [f for f in found if f[3] < keep and 1 / SIZE_BAND <= f[2] / side <= SIZE_BAND
             and not any(nearer(f, g, overlap) for g in strong)]
    dice = len(merged([f[:3] for f in strong], [f[3] for f in strong]))
    enough = len(merged([f[:3] for f in alike], [f[3] for f in alike])) >= max(AT_LEAST, dice)
    faint = ({id(f) for f in alike} if enough else set()) | worth_touching(found, keep, overlap, reach)
    return [f for f in found if f[3] >= keep or id(f) in faint]

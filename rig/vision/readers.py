"""What the roll tracker (:class:`rig.vision.rolls.RollTracker`) wants of a game's dice reader.

A game's reader (``rig.registry.get(name).reader(profile=..., params=...)``, built in its package
``rig.games.<name>``) is ``read(frame, *, thrown=None) -> reading`` whose reading has ``dice`` (each with
``face``, ``x``, ``y``, ``confidence``), ``status`` and ``reasons``. ``thrown``: after a turn's last roll, a
reading short of the game's dice is read again with how many were thrown; a reader may then look harder (the
frog reader searches a wall's deep shade, :func:`rig.vision.dice_missed.shade_dice`) or read as before. An empty box is a sure
reading (status ``ok``, no dice), so the tracker sees the box being cleared between throws:
:func:`empty_is_sure` makes a pip reader's reading so.

>>> from rig.vision.anydie import PipDiceReading
>>> empty_is_sure(PipDiceReading((), "uncertain", ("0 dice seen, the game has 2",))).status
'ok'
"""

from __future__ import annotations

from dataclasses import replace
from statistics import median
from typing import Any


def empty_is_sure(reading: Any) -> Any:
    """A reading without dice is a sure one (the box was cleared), whatever the reader thought."""
    if not reading.dice and reading.status != "ok":
        return replace(reading, status="ok", reasons=())
    return reading


def pip_params(params: Any = None) -> Any:
    """The pip reader's parameters: ``params``, or ``calibration/pips.toml``."""
    from rig.vision.pips import PipParams

    return params if params is not None else PipParams.load()


#: the size kept is this times the median side of the sure reading's dice: the finder's boxes are a little
#: larger than the size it reads best at (tuning photos, x0.4 / x1 / x1.5: 0.8 found 94.5-99.2 % of the dice,
#: 1.0 found 89.1-98.8 %; ``rig bench vision --game pips --scales``)
LEARN_SCALE = 0.8
#: a frame read at the learned size whose dice are not sure, or whose size (as learned) is more than this
#: factor (one pyramid step) off the learned one, is read again on the pyramid: the camera moved, or the
#: dice are another size (pips read as dice at a size too small are silently wrong)
DRIFT = 1.5
#: a die flagged so is maybe no die at all (:func:`rig.vision.dicenet.judge`): a pip, a coin or a knot read as a 1 at
#: a level too fine; a frame with one teaches no size (:func:`counted`)
NOT_A_SIZE = ("a 1 the finder is unsure",)


def _reasons(die: Any) -> tuple[str, ...]:
    """Why ``die`` is flagged (nothing: read ``ok``): a pip die's count's reasons, or a game's die's own."""
    return tuple(getattr(getattr(die, "count", die), "reasons", ()))


def counted(reading: Any, count: int | None) -> bool:
    """Whether ``reading``, though flagged, shows the dice's size (issue 25, round 16): the game's dice count
    (``count``; ``None``: not known, never), at least one die read ``ok``, none flagged as maybe no die
    (:data:`NOT_A_SIZE`) and their sides within :data:`DRIFT` of their median. On another table the finder scores
    the dice low (faint dice, :mod:`rig.vision.diefaint`) and no frame may ever be read surely; pips read as dice
    at a level too fine come as 1s the finder is unsure of, or as frames without a sure die."""
    if count is None or not reading.dice or len(reading.dice) != count:
        return False
    reasons = [_reasons(d) for d in reading.dice]
    if all(reasons) or any(r.startswith(NOT_A_SIZE) for rs in reasons for r in rs):
        return False
    sides = sorted(max(d.box[2], d.box[3]) for d in reading.dice)
    middle = float(sides[len(sides) // 2])
    return sides[-1] <= DRIFT * middle and middle <= DRIFT * sides[0]


class DieSize:
    """The dice's size on this table, learned once: from the first sure reading that shows the game's
    dice count (``count``; ``None``: any number of dice, at least one), or, the count known, the first flagged one
    that shows the size all the same (:func:`counted`: on a table whose dice the finder scores low no frame may be
    read surely), the pip reader's finder runs once
    per frame at that size instead of on its pyramid (:meth:`rig.vision.dicenet.DiceNet.level`). A size
    set in the parameters (``[anydie] die_px``, ``rig read --die-px``) is kept and never relearned.
    :meth:`read` checks every frame read at a learned size (:data:`DRIFT`) and reads it again on the
    pyramid when it does not fit, relearning from that reading. ``kept``: where the size is kept between
    runs (:class:`rig.vision.kept_size.KeptDieSize`): read at the size kept for a frame's size from its first
    frame on, and each size learned kept.

    >>> from rig.vision.pips import PipParams
    >>> size = DieSize(PipParams(), 2)
    >>> size.die_px, size.params.anydie.die_px
    (0.0, 0.0)
    """

    def __init__(self, params: Any, count: int | None, *, kept: Any = None) -> None:
        self.params, self.count, self.kept = params, count, kept
        self.fixed = params.anydie.die_px > 0
        self.pyramid = replace(params, anydie=replace(params.anydie, die_px=0.0))
        self.used = 0.0  # the size the last frame was read at (0: on the pyramid)
        self.shape: tuple[int, ...] = ()  # the frames' size (rows, columns): a size kept is per frame size

    def _frame_size(self, frame: Any) -> None:
        shape = tuple(getattr(frame, "shape", ())[:2])
        if self.kept is None or self.fixed or shape == self.shape:
            return
        self.shape = shape
        self.params = replace(self.pyramid, anydie=replace(self.pyramid.anydie, die_px=self.kept.get(shape)))

    def read(self, frame: Any, read: Any) -> Any:
        """``read(frame, params)`` at the size known, else (or when the reading does not fit it: not sure,
        or dice of another size, :data:`DRIFT`) on the pyramid, learning from it; returns the reading. A reading
        at the size that is flagged but shows it (:func:`counted`) is returned when the pyramid's does not show
        the dice (a die missing, pips taken for dice: issue 25, round 16), else the pyramid's, as before."""
        self._frame_size(frame)
        self.used = self.die_px
        sized = None
        if self.used > 0:
            reading = read(frame, self.params)
            fits = self.fits(reading)
            if self.fixed or (reading.status == "ok" and fits):
                return reading
            sized = reading if fits else None
        reading = read(frame, self.pyramid)
        teaches = self.teaches(reading)
        if sized is not None and not teaches:
            return sized
        self.used = 0.0
        if teaches and not self.fixed:
            self.params = self.pyramid  # relearned below (the camera moved, or the first size was wrong)
        return self.learn(reading)

    def fits(self, reading: Any) -> bool:
        """Whether ``reading`` (made at the learned size) fits it: dice that show their size (:meth:`teaches`: sure,
        or flagged but the game's dice count and of one size, :func:`counted`) within :data:`DRIFT` of the learned
        one. No dice never fits: a tray read as empty at a size learned wrong (or the camera moved) would stay
        empty, said ``ok``; the pyramid confirms it (or finds the dice). Their size is their sides' median: of two
        dice their mean (the larger alone, two touching 1s read ``ok`` in 24 and 36 px boxes at 17.6 px did not fit,
        and the pyramid read them as one box; issue 25, round 35)."""
        if not self.teaches(reading):
            return False
        ratio = LEARN_SCALE * median(max(d.box[2], d.box[3]) for d in reading.dice) / self.die_px
        return 1 / DRIFT <= ratio <= DRIFT

    @property
    def die_px(self) -> float:
        return float(self.params.anydie.die_px)

    def teaches(self, reading: Any) -> bool:
        """Whether ``reading``'s dice show their size: read surely (and the game's dice count, when known), or
        flagged but showing the size (:func:`counted`)."""
        if reading.status == "ok" and reading.dice:
            return self.count is None or len(reading.dice) == self.count
        return counted(reading, self.count)

    def learn(self, reading: Any) -> Any:
        """Take the size from ``reading`` (when it :meth:`teaches` it, and none is known yet); returns it."""
        if self.fixed or self.die_px > 0 or not self.teaches(reading):
            return reading
        sides = sorted(max(d.box[2], d.box[3]) for d in reading.dice)
        self.params = replace(self.params, anydie=replace(self.params.anydie, die_px=LEARN_SCALE * float(sides[len(sides) // 2])))
        if self.kept is not None and self.shape:
            self.kept.put(self.shape, self.die_px)
        return reading

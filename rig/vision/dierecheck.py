"""An ``ok`` pip die read again in another crop of it: the shared step of the checks that can only flag
(:mod:`rig.vision.dieturn`, :mod:`rig.vision.diewide`, :mod:`rig.vision.dierelit`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rig.vision.dicenet import crop_die
from rig.vision.pips import PipDie

#: one such check: the crop it reads a die in, the least the reader must give the die's number there (0: the check is
#: off), and why a die is flagged (from its number and what the reader gave it)
Look = tuple[Callable[[PipDie], np.ndarray], float, Callable[[int, float], str]]


def box_crop(frame: np.ndarray, box: tuple[int, int, int, int], nets) -> np.ndarray:
    """The reader's crop of the die in ``box``: centred on the box, its side the box's."""
    x, y, w, h = box
    return crop_die(frame, x + w / 2, y + h / 2, max(w, h), size=nets.crop)


def shared_box_crops(frame: np.ndarray, nets) -> Callable[[PipDie], np.ndarray]:
    """:func:`box_crop` of a die, made once per box for every look that starts from it (turned, relit)."""
    made: dict[tuple[int, int, int, int], np.ndarray] = {}

    def crop_of(die: PipDie) -> np.ndarray:
        if die.box not in made:
            made[die.box] = box_crop(frame, die.box, nets)
        return made[die.box]

    return crop_of


def reread_ok(dice: list[PipDie], nets, crop_of: Callable[[PipDie], np.ndarray], least: float,
              why: Callable[[int, float], str]) -> list[PipDie]:
    """``dice`` with each ``ok`` die flagged ``why(pips, q)`` when the reader gives its crop ``crop_of(die)`` less
    than ``least`` for the number it read (``least`` 0: none looked at)."""
    return rereads_ok(dice, nets, [(crop_of, least, why)])


def rereads_ok(dice: list[PipDie], nets, looks: list[Look], settled: float = 0.0,
               seen: dict[Look, dict[int, float]] | None = None) -> list[PipDie]:
    """:func:`reread_ok` of each look in turn (a die one look flags is ``ok`` no more: the next ones leave it), every
    look's crops of the ``ok`` dice read in one batch. The reader gives a crop the same numbers alone or in a batch,
    to the bit, with both engines (issue 25, round 23); a die flagged by an earlier look has its later crops read for
    nothing, so the flags are the looks' one by one (round 29: one reader call a frame instead of one a look).
    ``settled`` above 0 (the first and last looks on): the last look is left out for a die the first gives at least
    ``settled`` for its number (its crops of the other dice read in a second batch; issue 25, round 33). ``seen``: a
    dict each look's probabilities of the ``ok`` dice's numbers go into (look -> die's index -> probability; a die
    flagged by an earlier look may have none), for a later check (:mod:`rig.vision.diebodyread`)."""
    todo = [i for i, d in enumerate(dice) if d.count.status == "ok" and 1 <= d.count.pips <= 6]
    settled = settled if looks and looks[0][1] > 0 and looks[-1][1] > 0 else 0.0  # the first or last look off: no skip
    looks = [look for look in looks if look[1] > 0]
    if not todo or not looks:
        return list(dice)
    if settled <= 0 or len(looks) == 1:
        return _flagged(dice, nets, looks, todo, seen=seen)
    probs = nets.read([crop_of(dice[i]) for crop_of, _, _ in looks[:-1] for i in todo])
    unsettled = [i for j, i in enumerate(todo) if float(probs[j][dice[i].count.pips]) < settled]
    return _flagged(_flagged(dice, nets, looks[:-1], todo, probs, seen), nets, looks[-1:], unsettled, seen=seen)


def _flagged(dice: list[PipDie], nets, looks: list[Look], todo: list[int], probs=None,
             seen: dict[Look, dict[int, float]] | None = None) -> list[PipDie]:
    """``dice`` with the ``ok`` ones of ``todo`` flagged by ``looks`` in turn (``probs``: their crops' reads, else
    read here in one batch; ``seen``: :func:`rereads_ok`'s)."""
    if probs is None:
        todo = [i for i in todo if dice[i].count.status == "ok"]
        if not todo:
            return list(dice)
        probs = nets.read([crop_of(dice[i]) for crop_of, _, _ in looks for i in todo])
    out = list(dice)
    for k, (_, least, why) in enumerate(looks):
        for j, i in enumerate(todo):
            if out[i].count.status != "ok":
                continue
            q = float(probs[k * len(todo) + j][dice[i].count.pips])
            if seen is not None:
                seen.setdefault(looks[k], {})[i] = q
            if q < least:
                out[i] = dice[i].flagged(why(dice[i].count.pips, q))
    return out

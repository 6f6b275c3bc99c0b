"""Big dice boxed on part of their top, read again in a box of the frame's dice size (issue 25, round 34).

On the pip twin's big dice (150-230 px in 1920x1080) the finder often peaks on part of a die's top: a box of
69-150 px on a 160 px die, which the reader reads as the 1 or 2 pips it holds (12205's black dice, 12208's green ones).
A die judged (dropped ones stay dropped) whose side is below :data:`GROW_BELOW` of the median side of the frame's
dice found surely (at least :data:`GROW_OTHERS` of them, each read as a die; that side from :data:`GROW_FROM` px) is
read again in boxes of that side laid on it, its centre and the eight shifted by half the sides' difference: the count
most of their probability goes to, read in the surest of them, replaces its reading when another count and surer than
its own (never "no die"); its box stays as found (the dice's overlaps judged on it as before) and it is flagged.
"""

from __future__ import annotations

from dataclasses import replace
from statistics import median

import numpy as np

from rig.vision.diebody import bodies_grown
from rig.vision.dicecandidate import Candidate

#: a candidate smaller than this share of the frame's sure dice's median side is read again in a box of that side
GROW_BELOW = 0.8
#: ... given this many sure dice (finder from find_keep, read as a die) to take the side from
GROW_OTHERS = 2
#: ... only when that side is at least this many frame px (big dice; below, the crops cost more than they mend: a
#: photo of small dice and distractors has many small boxes)
GROW_FROM = 80.0
#: the flag of a die read again so
GROWN = "read again in a box of the frame's dice size (its box was on part of a die?)"


def _is_die(c: Candidate) -> bool:
    return float(c.probs[c.pips]) > float(c.probs[0])


def grown(cands: list[Candidate], keep: float, frame: np.ndarray, nets, crop, p=None) -> list[Candidate]:
    """``cands`` (the dice judged so far; finder scores from ``keep`` sure) with each small one (above) read again where
    that is surer (``grown``, its box as found); ``nets`` a :class:`rig.vision.dicenet.DiceNet`, ``crop`` its crops;
    then, given ``p`` (:class:`rig.vision.anydie_params.AnyDieParams`), each one unsure read again at its body's size
    (:func:`rig.vision.diebody.bodies_grown`)."""
    out = _to_frame_size(cands, keep, frame, nets, crop)
    return out if p is None else bodies_grown(out, frame, nets, crop, p)


def _to_frame_size(cands: list[Candidate], keep: float, frame: np.ndarray, nets, crop) -> list[Candidate]:
    sure = [c.side for c in cands if c.score >= keep and _is_die(c)]
    if len(sure) < GROW_OTHERS:
        return cands
    side = median(sure)
    if side < GROW_FROM:
        return cands
    out = list(cands)
    for i, c in enumerate(cands):
        if c.side >= GROW_BELOW * side or not _is_die(c):
            continue
        shift = (side - c.side) / 2
        boxes = [(c.x + dx * shift, c.y + dy * shift, side) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        probs, hidden = nets.read_features([crop(frame, *b, size=nets.crop) for b in boxes])
        k = 1 + int(probs[:, 1:].mean(axis=0).argmax())
        best = int(np.argmax(probs[:, k]))
        if k == c.pips or float(probs[best, k]) <= float(c.probs[c.pips]) or probs[best, k] <= probs[best, 0]:
            continue
        out[i] = replace(c, probs=probs[best], features=None if hidden is None else hidden[best], grown=True)
    return out

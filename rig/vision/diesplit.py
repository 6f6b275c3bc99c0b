"""Two dice found as one? A check on the learned reader's ``ok`` dice that can only flag.

Small dice far from the camera can be taken by the pyramid (:meth:`rig.vision.dicenet.DiceNet.level`) for the pips
of one large die: two dice a few sides apart on a plain floor are read as a 2 whose box holds both. Such a "die" has
the floor for its face: the middle of its box is the colour of everything around the box
(:func:`rig.vision.dieface.face_all_round`, every band near and far within ``[anydie] merged_same``), and the
finder, looking closer (run on the box's surroundings as if dice were ``merged_scale`` of its side, and once more as if
they were ``merged_fine`` of it), finds two dice inside it (peaks from ``merged_find``, read as a die, more than a side
apart; the two looks' dice pooled). A real die whose face is the floor's colour (a white die on a pale tray) shows no
such pair: its pips, looked at closer, are too near each other for dice. Issue 25, docs/games.md "No pip die misread
in silence at any scale"; the finer look: "The pip twin's dice not found, by cause (issue 25, round 20)" (a finder
that, told the dice are 0.4 of an 80 px box, saw one of its two 16-20 px dice and, told 0.2, both).
"""

from __future__ import annotations

import math

import numpy as np

from rig.vision.dicepeaks import crowded, peaks, pip_of_bigger, shows_pips
from rig.vision.dieface import face_all_round


def dice_inside(frame: np.ndarray, box: tuple[int, int, int, int], nets, scale: float, find: float, least: int = 1
                ) -> list[tuple[float, float, float, float]]:
    """The dice (x, y, side, score in frame px) the finder sees inside ``box`` with dice ``scale`` of its side (only the
    box's surroundings, a side out, are looked at), from score ``find``, read by the reader as a die (1-6 pips at
    least as likely as none and at least 0.5) showing ``least`` pips or more."""
    x, y, w, h = box
    side = max(w, h)
    height, width = frame.shape[:2]
    cx, cy = x + w / 2, y + h / 2
    x0, y0 = max(0, int(cx - side)), max(0, int(cy - side))
    x1, y1 = min(width, int(cx + side) + 1), min(height, int(cy + side) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return []
    heat, sides, s = nets.heat(np.ascontiguousarray(frame[y0:y1, x0:x1]), scale * side)
    found = [(px / s + x0, py / s + y0, ps / s, q) for px, py, ps, q in peaks(heat, sides, find)]
    found = [f for f in found if x <= f[0] <= x + w and y <= f[1] <= y + h]
    if not found:
        return []
    probs = nets.read_at(frame, [f[:3] for f in found])
    return [f for f, p in zip(found, probs) if p[0] < 0.5 and p[1:].max() >= 0.5 and 1 + int(np.argmax(p[1:])) >= least]


#: the finer look counts only the dice it reads as showing this many pips or more: on the coloured tuning photos at x1
#: it found a real die's pips (white dice on the white tray) as dice, 38 of 40 read as 1 (issue 25, round 20)
FINE_LEAST = 2


def two_dice_as_one(frame: np.ndarray, box: tuple[int, int, int, int], nets, same: float, scale: float,
                    find: float, fine: float = 0.0, bands=None) -> bool:
    """The box's face is the floor (:func:`rig.vision.dieface.face_all_round`) and two dice more than a side apart
    lie inside it (:func:`dice_inside`, dice ``scale`` of the box's side, and, with ``fine``, that many of it too, the
    dice read as 1 there left out (:data:`FINE_LEAST`): the two looks' dice pooled; one die seen by both is less than a
    side from itself, never a pair). ``bands``: the box's :func:`rig.vision.dieface.surroundings`, if made already."""
    if not face_all_round(frame, box, same, bands):
        return False
    inside = dice_inside(frame, box, nets, scale, find)
    if fine > 0 and not _a_pair(inside):  # a real die's pips, looked at that close, are dice showing 1: not counted
        inside += dice_inside(frame, box, nets, fine, find, least=FINE_LEAST)
    return _a_pair(inside)


def _a_pair(inside: list[tuple[float, float, float, float]]) -> bool:
    """Two of the dice (x, y, side, score) more than the larger one's side apart."""
    return any(math.hypot(a[0] - b[0], a[1] - b[1]) > max(a[2], b[2])
               for i, a in enumerate(inside) for b in inside[i + 1:])


#: a finer pyramid level's peak whose likeliest class is 2-6 pips at this or more, no other of its level's peaks nearer
#: than 0.75 of its side (:func:`rig.vision.dicepeaks.crowded`), is a die of its own for :func:`ungrouped`
GROUP_READ = 0.3
#: ... and a coarser level's peak holding two such is a group of dice when its face is the floor's colour within this
#: (8-bit Lab, :func:`rig.vision.dieface.face_all_round`; ``[anydie] merged_same``'s default): a white die showing 2
#: or 6 at x1 or x1.5, whose finer peaks on its pips read as dice too, keeps its face's own colour
GROUP_SAME = 20.0


def dice_at_level(scored, memo: dict, here) -> list[tuple[float, float]]:
    """The (x, y) of a level's scored peaks ((x, y, side, score); ``memo``: (x, y, side) -> (class probabilities,
    ...)) read as dice showing pips (:data:`GROUP_READ`) and not crowded by the level's other peaks ``here``."""
    out = []
    for x, y, side, _ in scored:
        probs = memo[(x, y, side)][0]
        k = int(np.argmax(probs))
        if k >= 2 and float(probs[k]) >= GROUP_READ and not crowded(x, y, side, here):
            out.append((x, y))
    return out


def ungrouped(frame: np.ndarray, coarse, dice_here, weight: float) -> list[tuple[float, float, float, float]]:
    """A coarser level's scored peaks ((x, y, side, score)), each holding two or more of a finer level's dice
    (``dice_here``, :func:`dice_at_level`) with its face the floor's colour (:data:`GROUP_SAME`) scored ``weight``
    times: a group of small dice, not one die (the pyramid's level chosen for it reads them as its pips; issue 25,
    round 28: coloured ``095849`` and ``112648`` at x0.4)."""
    def group(x: float, y: float, side: float) -> bool:
        box = (int(round(x - side / 2)), int(round(y - side / 2)), int(round(side)), int(round(side)))
        return pip_of_bigger(x, y, dice_here, [(x, y, side)]) and face_all_round(frame, box, GROUP_SAME)
    return [(x, y, side, q * weight if group(x, y, side) else q) for x, y, side, q in coarse]


#: a coarser level's peak read surely (:func:`rig.vision.dicepeaks.shows_pips`) as showing 2-6 pips, its face not the
#: floor's colour (:data:`GROUP_SAME`), is a sure die whatever the finder scores it (:func:`sure_dice`; False: from
#: ``sure_die``, finder x reader, only, as before round 31)
READ_DIE = True
#: ... from this finder score (a peak's finder x reader over the reader's surest count): below it, left to ``sure_die``
#: (0.5 before round 32: white ``two_31`` at x1.5, a 72 px die read 2 at 0.94-0.97 and scored 0.45-0.46, its pips won)
READ_DIE_FIND = 0.4
#: a coarser level's sure die read surely as showing 2-6 pips (:func:`rig.vision.dicepeaks.shows_pips`) has a finer
#: level's one peak inside it read as a die showing 1 for its pip, or for itself seen off its middle (:func:`pip_of_sure`;
#: False: only two or more peaks inside it are its pips, as before round 32)
LONE_PIP = True


def pip_of_sure(x: float, y: float, side: float, here, sure, memo: dict) -> bool:
    """Whether a finer level's peak (x, y, side) is a pip of one of the ``sure`` dice ((x, y, side), :func:`sure_dice`):
    it lies in one holding two or more of its level's peaks ``here`` ((x, y, ...)), or (:data:`LONE_PIP`) the reader
    reads it as a die showing 1 and it lies in one read surely as showing 2-6 (``memo``: (x, y, side) -> (class
    probabilities, ...)). The caller leaves out the peaks read surely as showing pips: dice of their own.

    White dice of 50-100 px showing 2 (the tuning photos at x1.5; issue 25, round 32): the level a step finer than
    the dice's saw one peak on a die, read 1 at 0.84-0.95 (white ``two_34``, ``two_5``), so no die held two and that
    level won, its peaks taken for dice showing 1. Any lone peak so taken (not only one read as 1) lost 3 white dice at
    x0.4 (2 of them silent), 2 at x0.6 and 3 at x1: a die read 2 or 4 inside a group read as one die showing 4 or 6,
    a die showing 1 inside itself read at a coarser level."""
    if pip_of_bigger(x, y, here, sure):
        return True
    if not LONE_PIP or int(np.argmax(memo[(x, y, side)][0])) != 1:
        return False
    return any(pip_of_bigger(x, y, here, [die], 1) and shows_pips(memo[die][0]) for die in sure if die in memo)


def sure_dice(frame: np.ndarray, levels, memo: dict, sure_die: float, here, unread=(), read=None
              ) -> list[tuple[float, float, float]]:
    """The (x, y, side) of the pyramid levels' scored peaks (each level's fourth item: (x, y, side, finder x reader))
    that are sure dice, a finer level's peaks inside one its pips (:func:`pip_of_sure`):
    scored from ``sure_die``, or (:data:`READ_DIE`) read surely as showing 2-6 pips with a face of its own (``memo``:
    (x, y, side) -> (probabilities, ...); the face looked at once, kept there under ("face", x, y, side), and only on a
    peak holding one (:data:`LONE_PIP`; else two) or more of the finer level's peaks ``here``, (x, y, ...): the others
    are no one's pips anyway).
    The pyramid's coarsest levels left unread (``unread``: (die_px, steps, output, found, kept), :mod:`rig.vision.
    dicelevels`) have those of their kept peaks read (``read``: peaks read into ``memo``) that could be such a die here:
    uncrowded, from :data:`READ_DIE_FIND`, holding two of ``here`` (the search read every left-out level again for any
    such peak: 1.12-1.15 x the time per pip twin frame; white ``two_38`` x1.5's dice showing 2 are on the 84 px level,
    left out).

    White dice of 50-100 px (the tuning photos at x1.5; issue 25, round 31): the dice's level read each die showing 2 at
    0.95-0.97 but the finder scored it 0.45-0.65 (under ``sure_die`` 0.7 with the reader), and a level one to three
    steps finer, reading the pips as dice showing 1 at 0.9-0.98, won: 16 of the 18 dice not found there showed 2. The
    face: three white 9 px dice showing 1 on a pale floor (white ``dice_28`` at x0.4) are read by a coarse level as one
    die showing 2 at 0.95, its box's middle the floor."""
    def own_face(x: float, y: float, side: float) -> bool:
        key = ("face", x, y, side)
        if key not in memo:
            box = (int(round(x - side / 2)), int(round(y - side / 2)), int(round(side)), int(round(side)))
            memo[key] = not face_all_round(frame, box, GROUP_SAME)
        return memo[key]
    def read_die(x: float, y: float, side: float, q: float) -> bool:
        return (READ_DIE and shows_pips(memo[(x, y, side)][0]) and q >= READ_DIE_FIND * float(memo[(x, y, side)][0][1:].max())
                and pip_of_bigger(x, y, here, [(x, y, side)], 1 if LONE_PIP else 2) and own_face(x, y, side))
    sure = [(x, y, side) for level in levels for x, y, side, q in level[3] if q >= sure_die or read_die(x, y, side, q)]
    maybe = [p for level in unread for p in level[4] if READ_DIE and p[3] >= READ_DIE_FIND
             and not crowded(p[0], p[1], p[2], level[3]) and pip_of_bigger(p[0], p[1], here, [p[:3]])]
    if maybe and read is not None:
        read(maybe)
        sure += [p[:3] for p in maybe if read_die(p[0], p[1], p[2], p[3] * float(memo[p[:3]][0][1:].max()))]
    return sure


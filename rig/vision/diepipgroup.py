"""A big die's pips found as dice, read again as the one die their layout spans (issue 25, round 36).

On the pip twin's biggest dice in a small frame (12407: a 137 px green die in 640x480, its top 144-172 px) the
pyramid's finest level wins and each pip is boxed as a die (20-27 px boxes, read unsurely as 5s and 6s): six "dice"
where the game has one. With the game's dice count known and more dice found than it, flagged dice lying near one
another (centres within :data:`GROUP_LINKS` of their sides) are a group; the die their pips lie on is looked for
around the group's middle: the patch of the colour between them (:func:`rig.vision.diebody.body_box`) and boxes of
:data:`GROUP_SPANS` times the group's span. The reading the reader is surest of, when a count no smaller than the
group's size, :data:`GROUP_SURE` sure and more than "no die", in a box at least :data:`GROUP_GROWTH` times the
group's largest box, replaces the group (one die, flagged); never so many that fewer dice than the count are left. Then,
still fewer than the count, :func:`rig.vision.diecolour.coloured` looks for the rest by the dice's colour.
"""

from __future__ import annotations

import math
from statistics import median

import numpy as np

from rig.vision.diebodies import missing_bodies
from rig.vision.diebody import body_box, in_patch, patch_die
from rig.vision.diecolour import coloured, read_dice as read_coloured
from rig.vision.dicenet import crop_die
from rig.vision.pips import PipDie

#: two flagged dice whose centres are nearer than this many times the larger's side are one group (a die's pips):
#: tried widest first, the dice of the groups not read as one tried again at the next (two dice's pips chain at 6)
GROUP_LINKS = (6.0, 4.0, 2.5)
#: the boxes tried besides the body's: these times the group's span (its centres' extent), about its middle
GROUP_SPANS = (1.8, 2.2)
#: ... and for a group of :data:`GROUP_MANY` or more, these too: a die turned aslant spreads its pips over more of its
#: upright box (twin 12505 throw 1: a black 5's five pips over 94 px of its 123, read 5 at 0.97 in 1.2-1.4 spans), where
#: two dice chained, each found as one, span far more than a die (12502 throw 0: a 1 and a 2, 1.2 spans over both read 2)
GROUP_SPANS_MANY = (1.2, 1.4)
GROUP_MANY = 3
#: the group's die is read at least this sure ...
GROUP_SURE = 0.9
#: ... in a box at least this many times the group's largest box (a die seen aslant, its top and a front pip: 2x)
GROUP_GROWTH = 2.5
#: ... no larger than this many times the frame's dice read ``ok`` (their median side; none: any size) nor than
#: :data:`GROUP_BODY` times the group's span (its body's patch; a floor of the box's colour is no die's top), and
#: holding no other die's centre (twin 9990, 12206: two real dice flagged, their box over four dice read a 2 or 3)
GROUP_OK_SIDES = 1.5
GROUP_BODY = 3.5
#: the flag of a die so read
GROUPED = "read as one die from the pips found as dice (a level too fine)"


def read_dice(frame: np.ndarray, p, nets, want: int = 0, missing: list | None = None, blank=None, agree=None
              ) -> list[PipDie]:
    """:func:`rig.vision.diecolour.read_dice`, then with more dice than ``want`` (given) groups of pips merged
    (:func:`merged`) and, fewer than ``want`` left, dice of their colour added."""
    dice = read_coloured(frame, p, nets, want, missing, blank, agree)
    if not want or len(dice) == want:
        return dice
    dice = merged(frame, dice, nets, want) if len(dice) > want else dice
    if len(dice) < want:  # none found surely: dice by their bodies (rig.vision.diebodies), then more of their colour
        dice = dice + missing_bodies(frame, dice, nets, want - len(dice))
    if len(dice) < want and dice:
        dice = dice + coloured(frame, dice, nets, want - len(dice))
    return sorted(dice, key=lambda d: (d.box[1], d.box[0]))


def groups(dice: list[PipDie], link: float, among: set[int] | None = None) -> list[list[int]]:
    """The flagged ``dice`` (indices; ``among`` these, given) whose centres are nearer than ``link`` times the larger's
    side chained, in groups of two or more."""
    flagged = [i for i, d in enumerate(dice) if d.count.status != "ok" and (among is None or i in among)]
    parent = {i: i for i in flagged}

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for a in flagged:
        for b in flagged:
            if a < b:
                (xa, ya), (xb, yb) = dice[a].centre, dice[b].centre
                if np.hypot(xa - xb, ya - yb) < link * max(dice[a].box[2], dice[b].box[2]):
                    parent[root(a)] = root(b)
    out: dict[int, list[int]] = {}
    for i in flagged:
        out.setdefault(root(i), []).append(i)
    return [g for g in out.values() if len(g) >= 2]


def merged(frame: np.ndarray, dice: list[PipDie], nets, want: int) -> list[PipDie]:
    """``dice`` with each group (:func:`groups`, at each of :data:`GROUP_LINKS`) read surely as one die replaced by it,
    largest groups first, as long as ``want`` dice or more are left."""
    out = list(dice)
    gone: set[int] = set()
    for link in GROUP_LINKS:
        for group in sorted(groups(dice, link, set(range(len(dice))) - gone), key=len, reverse=True):
            if len(out) - len(gone) - len(group) + 1 < want:
                continue
            others = [d for i, d in enumerate(out) if i not in gone and i not in group]
            die = _one_die(frame, [dice[i] for i in group], others, nets)
            if die is not None:
                gone |= set(group)
                out.append(die)
    return [d for i, d in enumerate(out) if i not in gone]


def _one_die(frame: np.ndarray, group: list[PipDie], others: list[PipDie], nets) -> PipDie | None:
    xs, ys = [d.centre[0] for d in group], [d.centre[1] for d in group]
    x, y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    least = GROUP_GROWTH * max(d.box[2] for d in group)
    sure = [d.box[2] for d in others if d.count.status == "ok"]
    most = GROUP_OK_SIDES * float(median(sure)) if sure else math.inf
    spans = GROUP_SPANS_MANY + GROUP_SPANS if len(group) >= GROUP_MANY else GROUP_SPANS
    boxes = [(x, y, m * span) for m in spans]
    body = body_box(frame, x, y, span)
    boxes = [b for b in ([body] if body is not None and body[2] <= GROUP_BODY * span else []) + boxes
             if least <= b[2] <= most and not any(in_patch(d.centre, b) for d in others)]
    if not boxes:
        return None
    probs = nets.read([crop_die(frame, *b, size=nets.crop) for b in boxes])
    best, k, pk = None, 0, 0.0
    for b, pr in zip(boxes, probs):
        n = 1 + int(np.argmax(pr[1:]))
        if pr[n] > pk and pr[n] > pr[0]:
            best, k, pk = b, n, float(pr[n])
    if best is None or pk < GROUP_SURE or k < len(group):
        return None
    return patch_die(best, k, pk, GROUPED)

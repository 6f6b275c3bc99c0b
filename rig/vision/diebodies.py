"""Dice found by their bodies when no die found can lend its colour (issue 25, round 36).

:mod:`rig.vision.diecolour` fills a missing die from the colour of the dice found; on the pip twin some frames have
none found surely: 12301 throw 0 (six 113 px green dice on yellow knotted wood, the finder 0.04-0.33 on them at any
size) finds nothing, 12300 throw 1 (four 258 px blue dice) only a bead. The finder's faint peaks still lie on the dice
(on a pip, an edge): each peak's body patch (:func:`rig.vision.diebody.body_box`, as square as a die's top) read
:data:`SEED_SURE` sure is a die. With the dice count known, fewer found and none of them ``ok``, the pyramid's levels
are run from :data:`SEED_FLOOR` (their :data:`SEED_PEAKS` strongest peaks each, off the patches seen and the dice
found), coarse to fine until as many patches as are missing are read surely; the surest is added (flagged), with
those of about its size (:data:`rig.vision.diecolour.COLOUR_SIZE`) off every die found, as many as are missing.
"""

from __future__ import annotations

import numpy as np

from rig.vision.diebody import BODY_REREAD_ELONGATION, body_box, in_patch, patch_die
from rig.vision.diecolour import COLOUR_APART, COLOUR_SIZE
from rig.vision.dicenet import FIND_DIE, FIND_MAX, LEVELS, MIN_DIE, crop_die
from rig.vision.pips import PipDie

#: the finder's peaks looked at from this score ...
SEED_FLOOR = 0.05
#: ... this many of each level's strongest
SEED_PEAKS = 8
#: a body patch read this sure as a die (and more than "no die") is one
SEED_SURE = 0.9
#: two patches whose centres are nearer than this many times the smaller's side are one die's
SEED_SAME = 0.5
#: the flag of a die so found
BODIED = "found by its body's colour around the finder's faint peak (no die found surely)"


def missing_bodies(frame: np.ndarray, dice: list[PipDie], nets, room: int) -> list[PipDie]:
    """Up to ``room`` dice found by their bodies (above), off ``dice``; none when any of ``dice`` is ``ok``."""
    if room <= 0 or any(d.count.status == "ok" for d in dice):
        return []
    long_side = max(frame.shape[:2])
    bodies: list[tuple[float, float, float]] = []
    read: list[tuple[float, int, tuple[float, float, float]]] = []
    for r in reversed(LEVELS):  # coarse to fine, until as many as are missing are read surely
        px = r * long_side
        if px < MIN_DIE or FIND_DIE / px > FIND_MAX / long_side:
            continue
        new = []
        for x, y, side, _ in nets.find(frame, floor=SEED_FLOOR, die_px=px)[:SEED_PEAKS]:
            if any(in_patch((x, y), b) for b in bodies + new) or any(in_patch((x, y), _as_body(d)) for d in dice):
                continue  # on a patch seen already, or on a die found
            body = body_box(frame, x, y, side, BODY_REREAD_ELONGATION)
            if body is not None and not any(_same(body, b) for b in bodies + new) \
                    and not any(_near(body, d) for d in dice):
                new.append(body)
        if new:
            probs = nets.read([crop_die(frame, *b, size=nets.crop) for b in new])
            for b, pr in zip(new, probs):
                k = 1 + int(np.argmax(pr[1:]))
                if pr[k] >= SEED_SURE and pr[k] > pr[0]:
                    read.append((float(pr[k]), k, b))
            bodies += new
        if len(read) >= room:
            break
    read.sort(key=lambda f: -f[0])
    found: list[PipDie] = []
    for q, k, (x, y, side) in read:
        if len(found) == room:
            break
        if found and (not COLOUR_SIZE[0] * found[0].box[2] <= side <= COLOUR_SIZE[1] * found[0].box[2]
                      or any(_near((x, y, side), d) for d in found)):
            continue
        found.append(patch_die((x, y, side), k, q, BODIED))
    return found


def _same(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    return np.hypot(a[0] - b[0], a[1] - b[1]) < SEED_SAME * min(a[2], b[2])


def _as_body(die: PipDie) -> tuple[float, float, float]:
    return die.centre[0], die.centre[1], float(die.box[2])


def _near(body: tuple[float, float, float], die: PipDie) -> bool:
    return abs(body[0] - die.centre[0]) < COLOUR_APART * body[2] and abs(body[1] - die.centre[1]) < COLOUR_APART * body[2]

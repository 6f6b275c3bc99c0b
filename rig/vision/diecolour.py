"""Dice the finder missed, found by the colour of the dice it found (issue 25, round 35).

With the game's dice count known and fewer dice found, the frame is looked at for more patches of a found die's body
colour (:data:`rig.vision.diebody.BODY_NEAR` of it), scaled so that the found dice are
:data:`rig.vision.diebody.BODY_PX` px: a patch about their size (:data:`COLOUR_SIZE`), square
(:func:`rig.vision.diebody.square_patch`), off every die found, that the reader reads as a die
:data:`COLOUR_SURE` sure is one more die, flagged; the surest first, only as many as are missing. On the pip twin the
finder scores some tables' dice faintly at any size (12301's green dice on yellow wood: 0.04-0.24), the reader reads
them 0.95-0.99 sure in their labelled boxes.
"""

from __future__ import annotations

from statistics import median

import cv2
import numpy as np

from rig.vision.diebody import BODY_PX, body_box, near_colours, patch_die, square_patch
from rig.vision.dicenet import crop_die, read_dice as read_found
from rig.vision.pips import PipDie

#: a patch's side within these times the found dice's (their bodies' where seen whole)
COLOUR_SIZE = (0.7, 1.4)
#: ... read as a die at least this sure
COLOUR_SURE = 0.9
#: ... its centre farther than this many sides from every die found
COLOUR_APART = 0.8
#: the flag of a die so found
COLOURED = "found by the colour of the dice found (the finder missed it)"


def read_dice(frame: np.ndarray, p, nets, want: int = 0, missing: list | None = None, blank=None, agree=None
              ) -> list[PipDie]:
    """:func:`rig.vision.dicenet.read_dice`, then with ``want`` more than found the dice of the found dice's colour
    added (:func:`coloured`)."""
    dice = read_found(frame, p, nets, want, missing, blank, agree)
    if not dice or len(dice) >= want:
        return dice
    return sorted(dice + coloured(frame, dice, nets, want - len(dice)), key=lambda d: (d.box[1], d.box[0]))


def coloured(frame: np.ndarray, dice: list[PipDie], nets, room: int) -> list[PipDie]:
    """Up to ``room`` dice of the colour of ``dice`` (above), flagged :data:`COLOURED`."""
    sides, colours = [], []
    for d in dice:
        x, y, s = d.centre[0], d.centre[1], float(d.box[2])
        body = body_box(frame, x, y, s / 2)  # its inner half: a box larger than its die holds the floor too
        sides.append(body[2] if body is not None and 0.5 * s <= body[2] <= 1.5 * s else s)
    side = float(median(sides))
    scale = min(1.0, BODY_PX / side)
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    sx, sy = w / small.shape[1], h / small.shape[0]
    for d in dice:
        x0, y0, bw, bh = d.box
        cx, cy, r = int(d.centre[0] / sx), int(d.centre[1] / sy), max(1, int(bw / sx / 4))
        colours.append(np.median(lab[max(0, cy - r):cy + r + 1, max(0, cx - r):cx + r + 1].reshape(-1, 3), axis=0))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(near_colours(lab, colours), connectivity=4)
    boxes = []
    for i in range(1, n):
        bx, by, bw, bh = stats[i, :4]
        if not COLOUR_SIZE[0] * side <= max(bw * sx, bh * sy) <= COLOUR_SIZE[1] * side:
            continue
        patch = square_patch((labels[by:by + bh, bx:bx + bw] == i).astype(np.uint8), bx * sx, by * sy, sx, sy)
        if patch is None or any(abs(patch[0] - d.centre[0]) < COLOUR_APART * side
                                and abs(patch[1] - d.centre[1]) < COLOUR_APART * side for d in dice):
            continue
        boxes.append(patch)
    if not boxes:
        return []
    probs = nets.read([crop_die(frame, *b, size=nets.crop) for b in boxes])
    found = []
    for b, pr in zip(boxes, probs):
        k = 1 + int(np.argmax(pr[1:]))
        if pr[k] >= COLOUR_SURE and pr[k] > pr[0]:
            found.append((float(pr[k]), patch_die(b, k, float(pr[k]), COLOURED)))
    return [d for _, d in sorted(found, key=lambda f: -f[0])[:room]]

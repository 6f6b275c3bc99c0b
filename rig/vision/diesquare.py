"""A die the second opinion doubts, its square body seen whole: ``ok`` again (issue 25, round 34).

The second opinion (:mod:`rig.vision.diecheck`, ``[anydie] check_ok``) flags an ``ok`` die it finds unlike the dice
the reader knows: a coin, a ring, a screw head, a knot, a card corner read as a die. On the coloured tuning photos it
is the commonest flag after "pips unclear" on frames read fully right, and it flagged no die read wrong there: it
flags real coloured dice, mostly showing 1, the reader sure of them (docs/games.md "Round 34"). What those things
lack is a die's body: a square, seen whole, standing apart from the floor.

A die flagged for that alone (no other reason) is ``ok`` again when the thing in its box
(:func:`rig.vision.dieface.outline_part`, the window inside the frame, touching nothing) is square: it fills its
smallest rotated rectangle at least ``[anydie] square_rect`` (a square 1, a disk pi/4 = 0.79), fills its smallest
enclosing circle at most ``square_circle`` (a square 0.64, a disk 1), its sides alike (elongation at most
:data:`ELONGATED`, a knot's 1.3 or more), and no glint in the box (:func:`rig.vision.dieone.glints`). The checks that
only flag an ``ok`` die still follow (:func:`rig.vision.anydie.read_pip_dice`).

>>> import numpy as np, cv2
>>> frame = np.full((200, 200, 3), (150, 150, 150), np.uint8)
>>> frame[80:120, 80:120] = (40, 40, 200)                              # a red die showing 1
>>> _ = cv2.circle(frame, (100, 100), 5, (230, 230, 230), -1)
>>> square_body(frame, (80, 80, 40, 40), 0.85, 0.9)
True
>>> frame[:] = 150; _ = cv2.circle(frame, (100, 100), 20, (60, 120, 170), -1)   # a coin
>>> square_body(frame, (80, 80, 40, 40), 0.85, 0.9)
False
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from rig.vision.anydie_params import AnyDieParams
from rig.vision.dieface import outline_part, part_elongation, whole_outline
from rig.vision.dieone import glints
from rig.vision.pips import PipCount, PipDie

UNLIKE = "unlike the dice the reader knows"  # the start of the second opinion's reason
#: a square's sides are alike: its outline's elongation (:func:`rig.vision.dieface.outline_elongation`) at most this
ELONGATED = 1.2


def square_body(frame: np.ndarray, box: tuple[int, int, int, int], rect: float, circle: float) -> bool:
    """Whether the thing in ``box`` is a square body seen whole (module doc): it fills its smallest rotated rectangle
    at least ``rect`` and its smallest enclosing circle at most ``circle``."""
    seen = outline_part(frame, box)
    if seen is None or any(seen[1].values()) or glints(frame, box):
        return False
    whole = whole_outline(seen[0], box)
    if whole is None:
        return False
    outline, area = whole
    _, (w, h), _ = cv2.minAreaRect(outline)
    _, radius = cv2.minEnclosingCircle(outline)
    long = part_elongation(seen[0], box)  # (the part found above: outline_elongation would find it again)
    # the outline runs through the edge pixels' centres: the rectangle one pixel wider than it
    return (area / ((w + 1) * (h + 1)) >= rect and area / (math.pi * max(radius, 0.5) ** 2) <= circle
            and long is not None and long <= ELONGATED)


def doubted_only(die: PipDie) -> bool:
    """Whether ``die`` is flagged by the second opinion and for nothing else."""
    reasons = die.count.reasons
    return die.count.status != "ok" and bool(reasons) and all(r.startswith(UNLIKE) for r in reasons)


def squares_freed(frame: np.ndarray, dice: list[PipDie], p: AnyDieParams) -> list[PipDie]:
    """``dice``, each flagged by the second opinion alone whose body is square (:func:`square_body`) ``ok`` again;
    ``square_rect`` 0: unchanged."""
    if p.square_rect <= 0:
        return dice
    return [PipDie(d.box, PipCount(d.pips, d.count.centres, d.count.confidence, "ok", ()))
            if doubted_only(d) and square_body(frame, d.box, p.square_rect, p.square_circle) else d for d in dice]

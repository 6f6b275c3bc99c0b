"""A found 1 with no die's face around its pip? A check on the learned reader's ``ok`` dice read as 1 that can only flag.

A die showing 1 is a square body, seen whole, around one pip. Things that are no die read as 1 show none (issue 25,
round 33: the pip twin 12108 throw 1, a metal bead at the tray's far corner, its highlight read as a 1 at finder 0.86,
every other check passed):

- *round, its pip a glint*: the thing in the box (:func:`rig.vision.dieface.outline_part`, the window cut to the
  frame) fills its smallest enclosing circle more than ``[anydie] one_circle`` (a square 2/pi = 0.64 at any turn, a
  disk 1) and the box holds a highlight at the camera's clip (:func:`glints`): a metal bead, a coin. Roundness alone
  does not tell: real coloured dice of 40-76 px, blurred and rounded, fill up to 0.85 (the bead 0.83); a disk
  (:data:`DISK`) is flagged glint or none;
- *cut by the frame's edge*: the thing reaches the frame's edge inside the window: no whole face is seen (the knot
  rule, :func:`rig.vision.dieface.outline_elongation`, tells nothing there).

Not told (``None``) when the thing reaches the window's border inside the frame (it touches something: a die beside
it, the tray's wall) or covers less than :data:`rig.vision.dieface.OUTLINE_AREA` of the box (a face the floor's
colour: its pip alone stands out). Issue 25, docs/games.md "Round 33: a round thing read as a 1".

>>> import numpy as np, cv2
>>> frame = np.full((200, 200, 3), (60, 70, 60), np.uint8)
>>> _ = cv2.circle(frame, (100, 100), 25, (170, 170, 170), -1)        # a bead ...
>>> _ = cv2.circle(frame, (108, 108), 7, (255, 255, 255), -1)         # ... and its glint
>>> one_reason(frame, (70, 70, 60, 60), 1.55, 0.75) is not None
True
>>> frame[:] = (60, 70, 60); frame[75:125, 75:125] = (40, 40, 200)   # a red die showing 1
>>> _ = cv2.circle(frame, (100, 100), 7, (255, 255, 255), -1)
>>> one_reason(frame, (70, 70, 60, 60), 1.55, 0.75) is None
True
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from rig.vision.dieface import outline_elongation, outline_part, whole_outline


#: a glint: pixels of the box every channel of which is at least :data:`GLINT_LEVEL` (the camera's clip) on at least
#: :data:`GLINT_SHARE` of the box's area (the bead: 0.033; the real dice read as 1 on the seen sets: none but white twin
#: dice, whose round shape is no disk, 0.002 and 0.29)
GLINT_LEVEL = 250
GLINT_SHARE = 0.01
#: a thing filling this much of its smallest enclosing circle is a disk, glint or none (pip twin 9152 throw 1: a small
#: bead, its highlight at 238, read as a 1 of 15 px: 1.0; the real dice read as 1 on the seen sets: at most 0.92, dice of
#: 13-15 px on the tuning photos at x0.4)
DISK = 0.96


def one_shape(frame: np.ndarray, box: tuple[int, int, int, int]) -> tuple[float, bool] | None:
    """How much of its smallest enclosing circle the thing in ``box`` fills (its holes filled; 0 when it reaches the
    frame's edge), and whether it reaches the frame's edge; ``None`` when not told (the module's last paragraph)."""
    seen = outline_part(frame, box, clipped=True)
    if seen is None:
        return None
    part, reaches, cut = seen
    if any(reaches[k] and cut[k] for k in reaches):
        return 0.0, True
    if any(reaches.values()):
        return None
    whole = whole_outline(part, box)
    if whole is None:
        return None
    outline, area = whole
    _, radius = cv2.minEnclosingCircle(outline)
    return area / (math.pi * max(radius, 0.5) ** 2), False


def glints(frame: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """Whether the box holds a glint (:data:`GLINT_LEVEL`, :data:`GLINT_SHARE`): a highlight at the camera's clip."""
    x, y, w, h = box
    inside = frame[max(0, y):max(0, y + h), max(0, x):max(0, x + w)]
    return inside.size > 0 and int((inside.min(axis=2) >= GLINT_LEVEL).sum()) >= GLINT_SHARE * w * h


def one_reason(frame: np.ndarray, box: tuple[int, int, int, int], elongated: float, circle: float) -> str | None:
    """Why an ``ok`` die read as 1 at ``box`` is no die, or ``None``: its outline more elongated than ``elongated``
    (:func:`rig.vision.dieface.outline_elongation`: a knot; 0: not looked at), else cut by the frame's edge, or round
    (:func:`one_shape` above ``circle``) with a glint (:func:`glints`) for its pip, or a disk (:data:`DISK`) (``circle``
    0: none of these looked at)."""
    long = outline_elongation(frame, box) if elongated > 0 else None
    if long is not None and long > elongated:
        return f"a 1 whose outline is no square ({long:.2f}): a knot?"
    shape = one_shape(frame, box) if circle > 0 else None
    if shape is None:
        return None
    fill, cut = shape
    if cut:
        return "a 1 cut by the frame's edge: no whole face seen"
    if fill >= DISK or fill > circle and glints(frame, box):
        return f"a 1 whose outline is round ({fill:.2f}), no die's square: a bead, a coin?"
    return None

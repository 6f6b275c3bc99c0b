"""A die top the colour table calls shade body, joined to a die read beside it (issue 24, round 26).

:func:`rig.vision.dice_missed.dark_tops` finds a die whose whole top the colour table calls die body in shade (the
light correction at its place darker than the frame's) only as a blob of its own, clear of every die read. A blank
die touching another at a corner is neither: its dark top and the other die's dark body ring are one blob of two or
more tops, and part of it lies in the other die's box. Twin 10900 turn 0 (a blank die touching a blue one, both lit,
at the frame's top edge, where the place's correction is half the frame's): the blank die was not found in any light.

When fewer dice are read than were thrown, :func:`beside_blobs` cuts the read dice's boxes (grown as
:func:`rig.vision.dice_missed._clear_of` grows them) out of that blob, opens what is left to part thin joins, and
yields each die-sized, square, solid part that is mostly shade body: :func:`rig.vision.dice_missed.dark_tops` reads
them as it reads its own blobs (brightened to the die body's lightness, flagged "die top in shade read brightened").
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_missed import _NOT_FLOOR, EDGE_SHARE, _clear_of, _square
from rig.vision.pixel_classes import _IS_EDGE, _K3

#: the blob the read dice's boxes are cut out of must hold at least this many die tops: a blob of one die or less
#: is :func:`rig.vision.dice_missed.dark_tops`' own
JOINED_LEAST = 1.5
#: a part that touches the frame's edge is a die top the frame cuts when its short side is at least this share of its
#: long one (twin 10805 turn 0: a blank die at the frame's top edge, 0.67); elsewhere a top is square (0.75)
CUT_ASPECT = 0.6


def beside_blobs(work, t, dice: list):
    """The shade-body blobs joined to a die read (``dice``): each part of them clear of the dice's grown boxes
    (:func:`rig.vision.dice_missed._clear_of`) that is die-sized, square and solid
    (:func:`rig.vision.dice_missed._square`) and at least :data:`rig.vision.dice_missed.EDGE_SHARE` shade body.
    Yields (x, y, w, h, area, its mask in its box) at the working scale, as
    :func:`rig.vision.dice_missed._shade_blobs` does."""
    labels, a0 = work.labels, work.top_area
    edge = cv2.LUT(labels, _IS_EDGE)
    if cv2.countNonZero(edge) < t.die_area_min * a0:
        return
    blob = cv2.morphologyEx(edge | cv2.LUT(labels, _NOT_FLOOR), cv2.MORPH_OPEN, _K3)  # (as _shade_blobs' blob)
    clear = _clear_of(work, dice)
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(blob, 8, cv2.CV_32S, cv2.CCL_GRANA)
    for i in np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= JOINED_LEAST * a0).tolist():
        if i == 0:
            continue  # the background
        x, y, w, h, _ = (int(v) for v in stats[i])
        box = (cc[y : y + h, x : x + w] == i).view(np.uint8)
        if not np.count_nonzero(clear[y : y + h, x : x + w][box > 0] == 0):
            continue  # clear of every die read: dark_tops' own
        cut = cv2.morphologyEx(box & (clear[y : y + h, x : x + w] > 0), cv2.MORPH_OPEN, _K3)
        m, cc2, stats2, _ = cv2.connectedComponentsWithStats(cut, connectivity=4)
        for k in range(1, m):
            u, v, pw, ph, area = (int(q) for q in stats2[k])
            part = (cc2[v : v + ph, u : u + pw] == k).view(np.uint8)
            at_edge = x + u == 0 or y + v == 0 or x + u + pw == labels.shape[1] or y + v + ph == labels.shape[0]
            if not _square(part, a0, t.die_area_min, t.die_area_max) and not (at_edge and _cut_square(part, a0, t)):
                continue
            if np.count_nonzero(edge[y + v : y + v + ph, x + u : x + u + pw][part > 0]) < EDGE_SHARE * area:
                continue
            yield x + u, y + v, pw, ph, area, part


def _cut_square(part: np.ndarray, a0: float, t) -> bool:
    """Whether ``part`` is a die top's size and solid, its short side at least :data:`CUT_ASPECT` of its long one."""
    n = int(np.count_nonzero(part))
    if not t.die_area_min * a0 <= n <= t.die_area_max * a0:
        return False
    (_, _), (w, h), _ = cv2.minAreaRect(cv2.findNonZero(part))
    return min(w, h) / max(w, h, 1e-6) >= CUT_ASPECT and n >= 0.65 * w * h

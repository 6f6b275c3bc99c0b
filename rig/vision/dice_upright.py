"""A die's side face where a flat die shows none: a leaning die the flank and aspect tests let pass (issue 24, round 15).

A camera looking down from a height H sees a flat die of side s at image point p as its top square and, swept from
it towards the view's nadir (the point straight below the lens), the side faces that face the lens: the die's base
is its top shrunk by (H - s) / H about the nadir, so its outline is its top swept along ``v = -(s / H)(p - nadir)``,
and the side face beyond each edge of its top is as wide as that edge's outward normal along ``v``. In die sides
``v = -VIEW r``, ``r`` the die's offset from the frame centre in frame widths (taken for the nadir) and :data:`VIEW`
the frame's width on the floor over the lens's height.

A flat die at least :data:`SIDE` die sides of side face short beyond an edge facing the nadir and as much die-hued
shade beyond another edge than the sweep puts there is shown the wrong way round: it leans (twin 9711 turn 3's
blue die, leaning on the far side, passed the flank test in three lights of four). On the twin's tuning and
propped tables no flat die left unflagged by the other tests shows both on a turn that was not flagged anyway
(``scripts/flat_outline.py``, docs/vision.md round 15). The measure cannot free a die the flank or aspect test
calls cocked: those dice's outlines lie among the flat dice's as much as the cocked ones' do.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from rig.vision.dice_cocked import _around, _radial, leans
from rig.vision.dice_frames import Work, places
from rig.vision.pixel_classes import IS_TOP

#: the frame's width on the floor over the lens's height (the twin's tables 0.53-0.71; a Camera Module 3 cropped
#: to a box about 0.6 times as wide as the lens is high, as docs/building.md plans it)
VIEW = 0.62
#: die sides: the least side face missing beyond a nadir-facing edge, and the least shade beyond the sweep on
#: another edge, of a die shown the wrong way round (chosen on the twin's tuning and propped tables, round 15)
SIDE = 0.15
#: an edge faces the nadir when the sweep there is at least this wide (die sides)
FACING = 0.1
REASON = "die's side face where a flat die shows none (leaning?)"


def lit_top(around: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The largest lit-top blob in a die's window (:func:`rig.vision.dice_cocked._around`: the die's own pixels only)
    as a mask and its pixels' rows and columns; None without one of a few pixels."""
    found = _lit(around)
    if found is None:
        return None
    ys, xs = np.nonzero(found[0])
    return found[0], ys, xs


def _lit(around: tuple) -> tuple[np.ndarray, tuple[int, int], np.ndarray] | None:
    """:func:`lit_top`'s mask, its first pixel (row, column; in raster order) and its outer contour (float32 points):
    the contour holds every pixel its convex hull can pass through, so its least rectangle is the blob's (the same
    floats: ``cv2.minAreaRect`` takes the points' convex hull first; on all of a few hundred pixels that took a
    third of :func:`side_faces`' time)."""
    _, mine, _, _, _, _, lab = around
    top = cv2.LUT(lab, IS_TOP)
    if mine is not None:
        top[~mine] = 0
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(top, 8, cv2.CV_32S, cv2.CCL_GRANA)  # (the default's
    if n < 2:  # labels and stats: both scan 2 x 2 blocks; a fifth less time on a die's window)
        return None
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[big, cv2.CC_STAT_AREA] < 6:
        return None
    lit = cc == big
    y0 = int(stats[big, cv2.CC_STAT_TOP])
    contours, _ = cv2.findContours(lit.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return lit, (y0, int(np.argmax(lit[y0]))), contours[0].reshape(-1, 2).astype(np.float32)


def top_edges(around: tuple, side: float) -> tuple | None:
    """A die's lit top (:func:`lit_top`) and its silhouette (the lit top and the die's dark pixels joined to it), the
    lit top's least rectangle ``((cx, cy), (w, h), angle)`` in the window, and per edge of it (+e1, -e1, +e2, -e2)
    its outward normal, the silhouette's mean width beyond it (die sides of ``side`` px) and how far beyond it the
    silhouette's pixels there lie (px): ``(lit, silhouette, rect, edges)``; None without a lit top of a few pixels."""
    found = _bands(around, side)
    if found is None:
        return None
    lit, sil, rect, normals, widths, beyond, band = found
    return lit, sil, rect, [(normals[e], widths[e], beyond[e][band[e]]) for e in range(4)]


def _bands(around: tuple, side: float, reach: float = 0.0) -> tuple | None:
    """:func:`top_edges`' numbers with the four edges' bands as arrays: ``(lit, silhouette, rect, normals, widths,
    beyond, band)``, ``beyond`` (4 x n: each shade pixel's distance beyond each edge, px) and ``band`` (4 x n: which
    of them count for that edge) made in one pass for all four edges, each number as one edge at a time made it.
    None without a lit top of a few pixels, or when no edge's shade can be ``reach`` die sides wide: an edge's band
    holds at most the window's dark pixels, spread over at least the lit top's shorter side (plus one)."""
    found = _lit(around)
    if found is None:
        return None
    lit, (y0, x0), outline = found
    rect = cv2.minAreaRect(outline)
    (cx, cy), (w, h), ang = rect
    if reach and cv2.countNonZero(around[0]) < 0.99 * reach * side * (min(w, h) + 1.0):  # (a hundredth spare)
        return None
    a = math.radians(ang)
    axes = (np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)]))
    half = ((w + 1.0) / 2, (h + 1.0) / 2)
    _, body = cv2.connectedComponents((lit | (around[0] > 0)).view(np.uint8), connectivity=8)
    sil = body == body[y0, x0]
    dy, dx = places(sil & ~lit)  # the shade joined to the lit top
    px = np.column_stack([dx - cx, dy - cy]).astype(np.float64)
    u0, u1 = px @ axes[0], px @ axes[1]
    along = np.stack((u0, -u0, u1, -u1))  # per edge (+e1, -e1, +e2, -e2): how far out along its normal ...
    across = np.stack((u1, u1, u0, u0))  # ... and along the edge
    beyond = along - np.array([half[0], half[0], half[1], half[1]])[:, None]
    band = (beyond > 0) & (np.abs(across) <= np.array([half[1] + 0.15 * side] * 2 + [half[0] + 0.15 * side] * 2)[:, None])
    counts = np.count_nonzero(band, axis=1).tolist()
    widths = [counts[e] / max(2 * half[1 - e // 2], 1.0) / side for e in range(4)]  # the shade's mean width there
    normals = (axes[0], -axes[0], axes[1], -axes[1])
    return lit, sil, rect, normals, widths, beyond, band


def side_faces(obs, work: Work, others=(), around: tuple | None = None, reach: float = 0.0
               ) -> tuple[float, float] | None:
    """How far a die's outline is from a flat die's at its place: the most die-hued shade beyond an edge of its lit
    top over what the sweep puts there, and the most side face missing beyond an edge that faces the nadir (die
    sides; 0 when none does). None without a lit top of a few pixels, or (``reach``, die sides) when too few dark
    pixels lie round it for any edge's shade to be that wide (:func:`_bands`). ``around``: the die's window
    (:func:`rig.vision.dice_cocked._around`), when the caller has it."""
    found = _bands(around if around is not None else _around(obs, work, others), work.side, reach)
    if found is None:
        return None
    rx, ry = _radial(obs, work)
    v = -VIEW * np.array([rx, ry])
    extra, missing = -1.0, 0.0
    for normal, width in zip(found[3], found[4]):
        want = max(0.0, float(normal @ v))
        extra = max(extra, width - want)
        if want > FACING:
            missing = max(missing, want - width)
    return extra, missing


def wrong_way(obs, work: Work, others=(), around: tuple | None = None) -> bool:
    """Whether a die shows its side face the wrong way round for a flat die at its place (see the module's text). A
    die nearer the nadir than a side face of :data:`SIDE` is not measured: no side face can be missing there; nor is a
    die with too few dark pixels round it for any edge's shade to be :data:`SIDE` wide (:func:`_bands`' ``reach``:
    then its shade beyond the sweep is less than that, round 16)."""
    if VIEW * math.hypot(*_radial(obs, work)) < SIDE:
        return False
    found = side_faces(obs, work, others, around, reach=SIDE)
    return found is not None and min(found) >= SIDE


def judge(obs, work: Work, t, walls, others=()) -> str | None:
    """The reason a die that lies flat as far as its top tells is flagged for leaning: "cocked die" (the flank test
    and its verdict, :func:`rig.vision.dice_cocked.leans`), :data:`REASON`, or None. The die's window is made once."""
    around = _around(obs, work, others)
    if leans(obs, work, t, walls, others, around=around):
        return "cocked die"
    return REASON if wrong_way(obs, work, others, around) else None

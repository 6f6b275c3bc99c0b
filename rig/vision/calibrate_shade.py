"""The calibration's map of the deep shade in the empty box: where a wall (or the rim) keeps the
lamp off the floor, as the share of the evened floor's light that still arrives there (issue 24).

The reader divides it out (:func:`rig.vision.light.shade_gain`) so a die lying in a wall's shadow has the colours
and contrast of a die in the open: the empty box is the light reference, and the shadow a wall
casts does not move while the lamp stays put. Only large dark areas count — a printed line or
spot on the box bottom is the floor's own colour, not less light — and only down to
:data:`DEEPEST` (darker than that, the camera's noise is all that is left to brighten).
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.dice_frames import prepare
from rig.vision.light import DEEPEST, SHADE_COLS as COLS, SHADE_ROWS as ROWS
from rig.vision.pixel_classes import IS_TOP

#: shade the map records: the floor at most this bright (share of the evened floor's light) ...
SHADE = 0.8
#: ... around a core at most this bright
CORE = 0.55


def fit_shade(empty_small: np.ndarray, floor_cells: np.ndarray, side: float) -> tuple | None:
    """The shade map (``ROWS`` x ``COLS`` x B, G, R per-cent values, 100 = the open floor's light) of the
    empty box ``empty_small`` (glare taken off, lamp gradient evened), or None when no large
    area of the box is in deep shade. ``floor_cells``: the 12 x 16 floor grid; ``side``: the
    die side in ``empty_small``'s pixels."""
    h, w = empty_small.shape[:2]
    lum = cv2.medianBlur(empty_small, 3).astype(np.float32).mean(axis=2)
    grid = cv2.resize(np.asarray(floor_cells, np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    if grid.sum() < 0.1 * w * h:
        return None
    level = float(np.median(lum[grid > 0]))
    # the box: the floor cells' hull, grown by a cell (a wall's deep shade is no floor cell)
    hull = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(cv2.findNonZero(grid)), 1)
    box = cv2.dilate(hull, np.ones((h // 12 * 2 + 1, w // 16 * 2 + 1), np.uint8))
    ratio = cv2.GaussianBlur(lum, (0, 0), max(1.0, side / 8)) / max(level, 1.0)
    # a wall's shade is deep and sharp-edged: its core (darker than CORE) at least a die wide and
    # reaching the box's edge, grown into the half-shade beside it (a lamp's gradient the evening
    # left is shallow and wide; a printed line or spot amid the floor is the floor's own colour)
    k = max(3, int(round(side)) | 1)
    core = cv2.morphologyEx((ratio < CORE).view(np.uint8), cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) & box
    n, cc, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    cell = np.ones((h // 12 | 1, w // 16 | 1), np.uint8)
    rim = (box > 0) & (cv2.erode(hull, cell, borderType=cv2.BORDER_CONSTANT, borderValue=0) == 0)
    wall = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= side * side and np.any(rim[cc == i])]
    if not wall:
        return None
    near = cv2.dilate(np.isin(cc, wall).view(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    dark = ((near > 0) & (ratio < SHADE) & (box > 0)).astype(np.float32)
    # per channel: the shade is lit by what the walls and the room send, often of another colour
    blur = cv2.GaussianBlur(empty_small.astype(np.float32), (0, 0), max(1.0, side / 8))
    floor = np.median(empty_small[grid > 0].reshape(-1, 3).astype(np.float32), axis=0)
    share = np.clip(blur / np.maximum(floor, 1.0), DEEPEST, 1.0)
    share = share * dark[..., None] + (1.0 - dark[..., None])
    share = cv2.resize(share, (COLS, ROWS), interpolation=cv2.INTER_AREA)
    return tuple(tuple(tuple(int(round(100 * v)) for v in px) for px in row) for row in share)


def fit_spots(empty: np.ndarray, profile) -> tuple | None:
    """Where the empty box itself shows die colours (a violet line in a tray's print, a lilac cloth
    beyond the box): ``ROWS`` x ``COLS`` bools, or None when there is no such spot. The reader
    takes no die from a blob lying mostly on these (:func:`rig.vision.light.spots_at`)."""
    work = prepare(empty, profile)
    top = cv2.LUT(work.labels, IS_TOP)
    n, cc, stats, _ = cv2.connectedComponentsWithStats(top, connectivity=8)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= profile.thresholds.fragment_area * work.top_area]
    if not keep:
        return None
    spots = cv2.dilate(np.isin(cc, keep).view(np.uint8), np.ones((3, 3), np.uint8))
    grid = cv2.resize(spots.astype(np.float32), (COLS, ROWS), interpolation=cv2.INTER_AREA) > 0
    return tuple(tuple(bool(v) for v in row) for row in grid)


#: a ritual die's violet over the mapped shade is lit when at least this share of the open dice's (median) ...
LIT = 0.8
#: ... and over-lifted when the map would lift it this much brighter than the brightest open die's
OVER = 1.15


def lit_band(shade: tuple | None, frames: dict, side: float, body_ab: np.ndarray) -> tuple | None:
    """``shade`` with the band along each wall's shade edge where the ritual dice's tops stand in the lamp's
    light taken out (issue 24, round 10; twin card tables 2803, 2813, seen): a die's top stands a die's height
    above the floor, so a wall's shadow falls on it nearer the wall than on the floor; lifted like the shaded
    floor under it, its lit violet reads pink. ``frames``: the ritual frames (``small``: evened, glare off;
    ``masks``: the dice); ``body_ab``: the die body's Lab a, b. The band's width is the deepest an over-lifted
    lit top reaches into that shade; a shade no ritual die lay in keeps its map."""
    if shade is None:
        return None
    some = next(iter(frames.values())).small
    h, w = some.shape[:2]
    share = cv2.resize(np.asarray(shade, np.float32) / 100.0, (w, h), interpolation=cv2.INTER_LINEAR)
    dark = (share.max(axis=2) < 1 / 1.05).view(np.uint8)  # where the reader lifts
    n, cc = cv2.connectedComponents(dark, connectivity=8)
    depth = cv2.distanceTransform(dark, cv2.DIST_L2, 3)  # how far into the shade, from its lit edge
    r = max(1, int(round(side * 0.1)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    tops = []  # per ritual die: its violet's brightness out of the shade (None: in it), its violet in the shade
    for frame in frames.values():
        lab = cv2.cvtColor(frame.small, cv2.COLOR_BGR2Lab).astype(np.float32)
        level = frame.small.astype(np.float32).mean(axis=2)
        for m in frame.masks:
            core = cv2.erode(m.astype(np.uint8), kernel) > 0
            violet = core & (np.hypot(lab[..., 1] - body_ab[0], lab[..., 2] - body_ab[1]) < 20)
            out = violet & (dark == 0)
            tops.append((float(np.median(level[out])) if out.sum() >= 12 and out.sum() >= violet.sum() // 2 else None,
                         level[violet & (dark > 0)], share.mean(axis=2)[violet & (dark > 0)],
                         cc[violet & (dark > 0)], depth[violet & (dark > 0)]))
    open_level = [t[0] for t in tops if t[0] is not None and len(t[1]) == 0]
    if len(open_level) < 3:
        return shade
    ref, hi = float(np.median(open_level)), max(open_level)
    band = np.zeros(n)
    for _, level, mapped, comp, reach in tops:
        over = (level >= LIT * ref) & (level / mapped > OVER * hi)
        if over.sum() >= 4:
            for c in np.unique(comp[over]):
                band[c] = max(band[c], float(reach[over & (comp == c)].max()) + 1.0)
    if not band.any():
        return shade
    share = np.where(((depth > band[cc]) | (dark == 0))[..., None], share, 1.0)
    share = cv2.resize(share, (COLS, ROWS), interpolation=cv2.INTER_AREA)
    return tuple(tuple(tuple(int(round(100 * v)) for v in px) for px in row) for row in share)

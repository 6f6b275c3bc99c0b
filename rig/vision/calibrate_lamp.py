"""Calibration's lamp: the light's gradient over the box from the ritual dice's violet bodies, and the glare's
floor refitted when a wall's deep shade keeps the bodies from giving it (issue 24; moved out of
:mod:`rig.vision.calibrate` in round 18)."""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.calibrate_glare import _fit_glare
from rig.vision.light import COLS, LIGHT_BASIS, ROWS


def _lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.ascontiguousarray(bgr, np.uint8).reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float64)


def _lamp_from_bodies(fr: dict, raw: dict, least: int = 8, clamp: bool = False) -> np.ndarray | None:
    """The lamp's brightness over the 12 x 16 grid (relative, None when too few dice were seen):
    a quadratic surface through the brightness of the die bodies of every ritual frame — the
    same violet everywhere, so what varies is the light.

    A surface that falls to a fifth of the bodies' median somewhere on the grid is implausible (None: the
    floor gives the lamp). With ``clamp`` (a retry after a refused read-back) it is kept, held within the
    darkest and brightest body measured, and None only if it would change nothing (issue 24, round 12: card
    table 3016, seen — a plane through 15 bodies, the dice lit alike but brighter by the left wall, fell to
    7 grey levels in the far corner, beyond every die; the floor then gave the lamp, its wall's shade lifted
    the lit dice by it 1.6-1.9 times and two pink dice read back clipped: "blank")."""
    body = [_lab(_top_pixels(raw["blank"], m, np.sqrt(m.sum()))) for m in fr["blank"].masks]
    if not body:
        return None
    ab = np.median(np.concatenate(body)[:, 1:], axis=0)
    xs, ys, level = [], [], []
    for k, frame in fr.items():
        for m, (cx, cy) in zip(frame.masks, frame.centres):
            px = _top_pixels(raw[k], m, np.sqrt(m.sum()))
            lab = _lab(px)
            sel = np.hypot(*(lab[:, 1:] - ab).T) < 12
            if sel.sum() >= 12:
                h, w = raw[k].shape[:2]
                xs.append((cx + 0.5) / w * COLS - 0.5)
                ys.append((cy + 0.5) / h * ROWS - 0.5)
                level.append(float(np.median(px[sel].astype(np.float32).mean(axis=1))))
    if len(level) < least:
        return None
    x, y, level = (np.array(xs) - 7.5) / 8, (np.array(ys) - 5.5) / 6, np.array(level)
    basis = np.column_stack([np.ones_like(x), x, y, x * x, y * y, x * y])
    if len(level) < 16:
        basis = basis[:, :3]
    coef, *_ = np.linalg.lstsq(basis, level, rcond=None)
    surface = (LIGHT_BASIS[:, : basis.shape[1]] @ coef).reshape(ROWS, COLS)
    med = float(np.median(level))
    implausible = med <= 0 or surface.min() <= 0.2 * med
    if clamp:
        if not implausible or med <= 0:
            return None
        surface = np.clip(surface, level.min(), level.max())
    elif implausible:
        return None  # an implausible fit: fall back to the floor
    return np.clip(surface / med, 0.3, 3.0)


def _glare_off_shade(empty_raw: np.ndarray, glare, fr: dict, raw: dict, least: int, clamp: bool):
    """``(glare, lamp)``: the glare's floor fitted without a wall's deep shade (round 13's ``deep``) when the die
    bodies then give the lamp, else ``glare`` and no lamp as before (issue 24, round 18: twin 10004, seen — the
    near wall's shade band bent the glare's floor down, the lit floor beside it became a broad "glare" of up to 65
    grey levels, taken off the ritual dice there the bodies fell to 37-62 of the open dice's 87-95 and their lamp was
    refused as implausible; the lamp was then fitted to the floor, the band inside its cells, and lit die tops in the
    band were corrected twice over and clipped). Only where that glare was the shade's doing
    (:func:`_glare_bent`). A table whose bodies gave a lamp, or whose glare is the same without the shade, fits the
    profile it did."""
    deeper = _fit_glare(empty_raw, deep=True)
    if deeper == glare or glare is None or not _glare_bent(fr, raw, glare, deeper):
        return glare, None
    lamp = _lamp_from_bodies(fr, {k: _unglared(v, deeper) for k, v in raw.items()}, least, clamp)
    return (glare, None) if lamp is None else (deeper, lamp)


#: a ritual die stands in the first fit's glare when that glare is this bright at it (grey levels, mean of B, G, R) ...
IN_GLARE = 20.0
#: ... and the glare without the deep shade is the shade's bending when at most this share of it is left there ...
BENT_LEFT = 0.25
#: ... and the dice standing in it are at most this much brighter than those out of it (median top brightness; twin
#: 10004, seen: 1.05 — twin 8707 and 9002 and the card tables 2707, 2804 and 2808, seen, 1.07-1.08: their "glare" is
#: partly the lamp's own falloff, and with the refit 8707 read one of its 23 dice wrong in three lights of four)
SAME_LIGHT = 1.06


def _glare_bent(fr: dict, raw: dict, glare, deeper) -> bool:
    """Whether the first fit's glare is the wall's deep shade bending the glare's floor, not a lamp's reflection: the
    ritual dice standing in it (:data:`IN_GLARE`) are no brighter than those out of it (:data:`SAME_LIGHT`: a
    reflection lights a die's top too), and without the deep shade at most :data:`BENT_LEFT` of it is left where they stand (twin 10004: 27-59
    levels there, 0-7 without; 2D 40007, whose broad glare over a dark plank only halves, keeps its fit)."""
    first = np.asarray(glare, np.float32).mean(axis=2)
    then = np.zeros_like(first) if deeper is None else np.asarray(deeper, np.float32).mean(axis=2)
    inside, outside, left = [], [], []
    for k, frame in fr.items():
        h, w = raw[k].shape[:2]
        here = cv2.resize(first, (w, h), interpolation=cv2.INTER_LINEAR)
        there = cv2.resize(then, (w, h), interpolation=cv2.INTER_LINEAR)
        for m in frame.masks:
            level = float(np.median(_top_pixels(raw[k], m, np.sqrt(m.sum())).astype(np.float32).mean(axis=1)))
            g = float(here[m].mean())
            if g >= IN_GLARE:
                inside.append(level)
                left.append(float(there[m].mean()) / g)
            elif g < IN_GLARE / 2:
                outside.append(level)
    if len(inside) < 3 or len(outside) < 3:
        return False
    return np.median(inside) <= SAME_LIGHT * np.median(outside) and np.median(left) <= BENT_LEFT


def _unglared(img: np.ndarray, glare) -> np.ndarray:
    if glare is None:
        return img
    g = cv2.resize(np.asarray(glare, np.float32), (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    return cv2.subtract(img, np.clip(g, 0, 255).astype(np.uint8))


def _top_pixels(small: np.ndarray, mask: np.ndarray, side: float) -> np.ndarray:
    """BGR pixels of a die's flat top: the mask eroded past the dark rounded edges."""
    r = max(1, int(round(side * 0.1)))
    core = cv2.erode(mask.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    px = small[core > 0]
    if len(px) < 10:
        px = small[mask]
    v = px.max(axis=1).astype(np.float32)
    return px[v >= 0.7 * np.percentile(v, 90)]

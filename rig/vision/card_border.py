"""A card's field against its own white border (the light's colour right there, whatever the floor's): how coloured
the field is, whether it is a gray card's — for :mod:`rig.vision.cards`."""

from __future__ import annotations

import cv2
import numpy as np


#: a card whose field is no more coloured than this against its own white border is no coloured card (a gray
#: field under a warm lamp labelled yellow reads 1.04-1.05 on the twin; yellow fields 2.6 and more, blank
#: (violet) 1.5 and more, on the twin's and the virtual table's reveals)
MIN_TINT = 1.25
#: a field alone (its border not in the blob) is this much lighter (L) round it than in it: the white border (twin
#: 3414's blank card 76; a gray card on a dark floor has the floor round it, darker)
BORDER_LIGHTER = 30
#: a card's white border is about this many die sides wide (its field 0.86 x 0.9 of a 3.9 x 5.5 sides card: 0.27-0.28)
BORDER_BAND = 0.25
#: a gray field, each pixel's lightness over the empty box's there, is at most this share of its border's (a white
#: border 243, a field 20 darker: 0.92) — the wall's shade on the border and on the floor under it alike cancels
RELIT_DARKER = 0.9


def _tint(work, blob: np.ndarray, inner: np.ndarray) -> float:
    """How coloured a card's field is against its own white border (the light's colour there): the field's
    channels over the border's, their largest over their smallest (1: as neutral as the border — gray)."""
    ring = work.small[(blob > 0) & (inner == 0)].astype(np.float32)
    field = work.small[(blob > 0) & (inner > 0)].astype(np.float32)
    if len(ring) < 8 or len(field) < 8:
        return 0.0
    bright = ring.sum(axis=1)
    border = np.median(ring[bright >= np.percentile(bright, 70)], axis=0)
    ratio = np.median(field, axis=0) / np.maximum(border, 1.0)
    return float(ratio.max() / max(float(ratio.min()), 1e-3))


def _lab(work, blob: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """The Lab colours of a card's field (inside its white border)."""
    px = work.small[(inner > 0) & (blob > 0)]
    return cv2.cvtColor(px.reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)


def _border_lab(work, rect, blob: np.ndarray) -> np.ndarray | None:
    """The median Lab colour of a card's white border (a ring inside its outline), ``None`` when too little shows."""
    (cx, cy), (rw, rh), ang = rect
    ring = np.zeros_like(blob)
    cv2.fillConvexPoly(ring, np.int32(cv2.boxPoints(((cx, cy), (rw * 0.97, rh * 0.97), ang))), 1)
    cv2.fillConvexPoly(ring, np.int32(cv2.boxPoints(((cx, cy), (rw * 0.88, rh * 0.88), ang))), 0)
    ring &= blob
    if ring.sum() < work.top_area:
        return None
    return np.median(cv2.cvtColor(work.small[ring > 0].reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3), axis=0)


def _grey_against_border(work, rect, blob: np.ndarray, lab: np.ndarray, border: np.ndarray | None = None) -> bool:
    """Whether a card's field is as colourless as its own white border (within 12 in a, b) and clearly darker
    (by 20): a gray card, whatever its pixels' labels say (a light gray field under a bright lamp falls in the
    profile's pale yellow and violet: twin 2503, 108; under a warm lamp in its yellow: 2414)."""
    border = _border_lab(work, rect, blob) if border is None else border
    if border is None or len(lab) == 0:
        return False
    field = np.median(lab, axis=0)
    return as_colourless(field, border) and field[0] < border[0] - 20


def as_colourless(field: np.ndarray, border: np.ndarray) -> bool:
    """Whether a field's median Lab is as colourless as its card's white border: within 12 of it in a, b."""
    return float(np.hypot(*(field[1:] - border[1:]))) < 12


#: a field read by its hue against its own white border (:func:`_by_hue`): coloured at least this much (a, b) ...
HUE_CHROMA = 20.0
#: ... its hue within this many degrees of one card colour's (the profile's, against the same border) and nearer
#: than any other's by at least as much again
HUE_NEAR = 20.0
#: ... or nearer than any other's by this many degrees, when its labels say that colour too (most of its card-coloured
#: pixels: :func:`rig.vision.card_fields.labelled_colour`; twin 5409 and 5305: blank cards on a pile, paler than the
#: profile's violet, 3-7 degrees off its hue and 23-24 off blue's)
HUE_APART_LABELLED = 10.0


def _by_hue(field_ab: np.ndarray, border_ab: np.ndarray, colours: dict, apart: float = HUE_NEAR) -> str | None:
    """The card colour whose hue (its (a, b) against the card's own white border: the light's colour there) a field's
    median lies on, when its labels say none (a violet field under a cool light, paler than the profile's violet, its
    pixels labelled no colour: twin 2810); ``colours``: each card colour's profile (a, b). ``None`` when it is not
    clearly coloured or lies between two colours' hues (the next colour's hue less than ``apart`` degrees further)."""
    d = np.asarray(field_ab, np.float64) - border_ab
    if float(np.hypot(*d)) < HUE_CHROMA:
        return None
    angle = np.degrees(np.arctan2(d[1], d[0]))
    off = sorted((abs((np.degrees(np.arctan2(*(np.asarray(ab, np.float64) - border_ab)[::-1])) - angle + 180) % 360 - 180), c)
                 for c, ab in colours.items())
    (near, best), (second, _) = off[0], off[1]
    if near <= HUE_NEAR and second - near >= apart:
        return best
    return None


def _field_alone(work, blob: np.ndarray, inner: np.ndarray, field_area: float, card_area: float) -> bool:
    """Whether a blob is a card's field alone — its white border on a light floor changed too little from the empty
    box to be in it (a field's size, not a card's; the ring just outside it brighter than the field: the border) —
    and that field is coloured against that border (twin 3414: a blank card whose own outer ring, field too, made
    it as neutral as its border)."""
    area = float(blob.sum())
    if not 0.6 * field_area <= area <= min(1.3 * field_area, 0.85 * card_area):
        return False
    k = max(3, int(0.3 * work.side)) | 1  # (about the border's width)
    out = cv2.dilate(blob, np.ones((k, k), np.uint8)) & (1 - blob)
    ring = work.small[out > 0].astype(np.float32)
    field = work.small[(blob > 0) & (inner > 0)].astype(np.float32)
    if len(ring) < 8 or len(field) < 8:
        return False
    ring_l = cv2.cvtColor(work.small[out > 0].reshape(-1, 1, 3), cv2.COLOR_BGR2Lab)[..., 0].astype(np.float32)
    if np.median(ring_l) < np.median(_lab(work, blob, inner)[:, 0]) + BORDER_LIGHTER:
        return False
    bright = ring.sum(axis=1)
    border = np.median(ring[bright >= np.percentile(bright, 70)], axis=0)
    ratio = np.median(field, axis=0) / np.maximum(border, 1.0)
    return float(ratio.max() / max(float(ratio.min()), 1e-3)) >= MIN_TINT


def _grey_top(work, blob: np.ndarray, field: tuple | None) -> bool:
    """Whether the top card of a pile is gray, measured against its own white border: ``field`` (frame px, the top
    card's field by :func:`rig.vision.card_fields._field_corners`) as colourless as the band just round it inside the
    blob (its border, the pile's top card's: nothing covers it) and clearly darker — :func:`_grey_against_border`
    with the border where it lies. The pile's own rectangle puts its ring on the top card's field wherever the cards
    lie askew (twin 3700 reveal 1: a light gray pile's ring 191-193, its top card's field 187-189, its own border
    222-231)."""
    if field is None:
        return False
    f = work.factor
    inside = np.zeros_like(blob)
    cv2.fillConvexPoly(inside, np.int32(np.float32(field) / f), 1)
    k = max(3, int(BORDER_BAND * work.side)) | 1
    band = cv2.dilate(inside, np.ones((k, k), np.uint8)) & (1 - inside) & blob
    core = cv2.erode(inside, np.ones((3, 3), np.uint8)) & blob
    if band.sum() < work.top_area or core.sum() < 4 * work.top_area:
        return False
    lab = cv2.cvtColor(work.small[core > 0].reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    border = np.median(cv2.cvtColor(work.small[band > 0].reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3), axis=0)
    ring = work.small[band > 0].astype(np.float32)
    tint = np.median(work.small[core > 0].astype(np.float32), axis=0) / np.maximum(np.median(ring, axis=0), 1.0)
    if float(tint.max() / max(float(tint.min()), 1e-3)) >= MIN_TINT:
        return False
    field_lab = np.median(lab, axis=0)
    return as_colourless(field_lab, border) and field_lab[0] < border[0] - 20


def grey_relit(work, empty_lab: np.ndarray, band: np.ndarray, field: np.ndarray) -> bool:
    """Whether a card's field is clearly darker than its white border, each measured against the empty box's
    lightness under it (``empty_lab``: the empty box's Lab picture): a border lying in a wall's deep shade reads
    darker than a field in the light (twin 4608 reveal 0: border L 112, field 116; over the empty box's 130 and 146
    there, 0.86 and 0.79 — the field 0.84 of its border)."""
    if not band.any() or not field.any():
        return False
    size = work.small.shape[1::-1]
    ref = empty_lab if empty_lab.shape[1::-1] == size else cv2.resize(empty_lab, size, interpolation=cv2.INTER_LINEAR)

    def relit(mask: np.ndarray) -> float:  # (the masks' pixels alone converted: Lab is per pixel)
        now = cv2.cvtColor(work.small[mask > 0].reshape(-1, 1, 3), cv2.COLOR_BGR2Lab)[:, 0, 0].astype(np.float32)
        return float(np.median(now / np.maximum(ref[mask > 0][:, 0].astype(np.float32), 8.0)))

    return relit(field) < RELIT_DARKER * relit(band)

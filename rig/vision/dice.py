"""Read colour dice (a colour, blank or two colours per face) from one top-down BGR frame.

The pipeline, all pure functions on numpy arrays (thresholds from the profile):

1. shrink the frame (area average) so a die is about ``work_die_px`` wide;
2. label every pixel through a 64x64x64 colour lookup table built once per profile from its
   Lab colour models (background, die body, body in shade, blue, pink, yellow; unknown;
   clipped) — one table lookup per pixel instead of per-class masks;
3. connected components of die-top pixels (body + frog colours): one per die, since the
   dark rounded edges separate touching dice; merged blobs are split by erosion;
4. per die, the share of its top face in each frog colour gives the face; shape gives
   leaning (cocked) dice; big unknown blobs mean a hand or object, big one-colour blobs a card;
5. the reading is ``"uncertain"`` with reasons whenever any of that is doubtful, or the
   faces are impossible (more than two dice with one combo face, more than six dice).
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter

import cv2
import numpy as np

from rig.vision.light import LIGHT_BASIS, Light, correct, drift_text, even_light, floor_model, floor_surface, spots_at  # noqa: F401
from rig.vision.profile import COLOURS, DICE_IN_SET, DICE_PER_COMBO, Profile
from rig.vision.roll_events import thrown_unseen
from rig.vision.dice_combo import half_on_short_top, half_partner
from rig.vision.dice_cut import cut_by_frame_edge
from rig.vision.dice_hue import NO_FROG, VEIL_SURE, deeply_veiled, frog_means, no_frog_colours, off_hue
from rig.vision.dice_beside import beside_blobs
from rig.vision.dice_missed import GLARED_REASON, dark_dice, glared_die, in_a_die, print_spot, shade_dice
from rig.vision.dice_lampside import side_face_flags
from rig.vision.dice_leanwall import wall_flags
from rig.vision.dice_walldark import wall_dark_flags
from rig.vision.dice_unchanged import as_the_empty_box, unchanged_flags
from rig.vision.dice_piece_unchanged import PIECE_REASON, the_box_itself, unchanged_pieces
from rig.vision.dice_relief import relief_dice
from rig.vision.dice_unglared import bare_body, unglared_dice
from rig.vision.dice_shade_light import shade_light_dice
from rig.vision.dice_body_light import BODY_LIGHT, in_body_light, unsure_blank
from rig.vision.dice_deep_blank import DEEP_BLANK, blank_in_own_light
from rig.vision.dice_specks import speckless
from rig.vision.dice_surround import ringed, surrounded
from rig.vision.dice_overall import BARE_SURE, BLANK_SURE, FLOOR_IN_OVERALL, LIT_ABOVE_SHADE, UNSURE_BLANK, lamp_on_top
from rig.vision.dice_overall import lit_above_shade, overall_counts, past_the_floors_glare, shows_frog, under_glare
from rig.vision.dice_second_look import HALF_KIND, second_look
from rig.vision.dice_unsupported import excuse
from rig.vision.dice_shade import blob as _blob, disc as _disc, off_prints
from rig.vision.dice_upright import judge
from rig.vision.dice_flag import Flag
from rig.vision.dice_reading import DiceReading, DieObservation  # noqa: F401 - moved (issue 24, round 26); the old import path works
from rig.vision.dice_cocked import _flank, _leaning, _radial, leans  # noqa: F401 - _flank, _leaning: their old import path
from rig.vision.dice_walls_seen import _wall_hulls, _walls_seen, a_side_face  # noqa: F401 - _walls_seen: its old import path
from rig.vision.pixel_classes import BG, BODY, EDGE, BLUE, PINK, YELLOW, UNKNOWN, CLIPPED, BLOWN, AMBIG, CLASS_NAMES, COLOUR_CLASSES, IS_TOP, _IS_ODD, _K3, _DISC3, _IS_DARK, _IS_EDGE, _COMBOS  # noqa: F401 - moved (issue 29); the old import path works
from rig.vision.colour_table import (  # noqa: F401 - moved (issue 29); the old import path works
    _grid_colours, _LutBuilder, _LUTS, _BY_TABLE, _lut_key, _code_fingerprint, colour_lut_key, full_colour_lut, adopt_colour_lut, colour_lut,
)
from rig.vision.dice_blobs import _big_blob, _grow, _plausible, _split, held_blob, unsplit  # noqa: F401 - _big_blob, _grow, _plausible: their old path
from rig.vision.dice_frames import (  # noqa: F401 - moved (issue 29); the old import path works
    label_pixels, check_frame, shrink, glare_for, Work, prepare, _censored, _near_floor, _warm_edge, _whole_top, top_fit, _side_faces,
)


#: a die whose top lies this much where a wall's deep shade was lifted is flagged: that part is read from lifted noise
#: (it was a half: fresh twin 8403 turn 1, a yellow+pink die 40-50 % in it, read "blank" in silence)
DEEP_SHARE = 0.25
#: a die whose top (inside its rim) is more than this share the floor's colour is flagged (twin 8002, turn 2)
FLOOR_ON_TOP = 0.4
#: ... and a top read blank whose reading in the frame's overall light is more than FLOOR_ON_TOP the floor's class, and
#: more than this in its place's light (:data:`rig.vision.dice_overall.FLOOR_IN_OVERALL`; round 33)
FLOOR_FIRST = 0.25


def read_dice(frame_bgr: np.ndarray, profile: Profile, *, thrown: int | None = None) -> DiceReading:
    """Read every die in the frame: face, centre, box, confidence; status and reasons. ``thrown``:
    how many dice the game knows are in the box (all of them once a turn's last roll is done) —
    a reading with fewer is uncertain, never ok (a die lost in a wall's deep shadow)."""
    work = prepare(frame_bgr, profile)
    return read_labels(work, profile, thrown)


def read_labels(work: Work, profile: Profile, thrown: int | None = None) -> DiceReading:
    t = profile.thresholds
    labels, a0 = work.labels, work.top_area
    reasons: list[str] = []
    top = cv2.LUT(labels, IS_TOP)
    # a frog's colour blends (two halves meeting, its outline) read as unknown: a thin seam of them must not cut a die
    # top in two (the dark seams between touching dice stay)
    top |= cv2.morphologyEx(top, cv2.MORPH_CLOSE, _K3) & cv2.LUT(labels, _IS_ODD)
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(top, 8, cv2.CV_32S, cv2.CCL_GRANA)
    dice: list[DieObservation] = []
    fragments: list[tuple[float, float, bool, int]] = []
    spots = spots_at(profile, labels.shape)
    for i in np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= t.fragment_area * a0).tolist():  # (specks skipped at once)
        if i == 0:
            continue  # the background
        x, y, w, h, area = (int(v) for v in stats[i])
        if spots is not None and print_spot(spots, cc, i, (x, y, w, h, area), a0, reasons, lambda u, v: _at(u, v, work)):
            continue  # the empty box shows die colour here too: the floor's print, not a die
        if area < 0.25 * a0:
            fragments.append((x + w / 2, y + h / 2, x == 0 or y == 0 or x + w == cc.shape[1] or y + h == cc.shape[0], i))
            continue
        if held_blob(cc, stats, i, t.die_area_min * a0, t.die_area_max * a0):
            continue  # a die top's frog, its outline round it: read with that top (rig.vision.dice_blobs)
        roi = (cc[y : y + h, x : x + w] == i).view(np.uint8)
        lab = labels[y : y + h, x : x + w]
        if area <= t.die_area_max * a0:
            parts = [roi]
        else:
            parts = _split(roi, work.small[y : y + h, x : x + w].max(axis=2), area, a0, work.side)
            if parts is None:  # die-sized squares packed into it, what is left flagged (rig.vision.dice_blobs)
                parts, what, (u, v) = unsplit(lab, roi, area, a0, t)
                if what:
                    reasons.append(_flag(what, x + u, y + v, work))
        for part in parts:
            obs, why = _die(part, lab, x, y, work, t, profile.frog_fraction, profile.walls)
            if obs is not None and work.glare is not None:
                (gx, gy), (gh, gw) = (int(obs.x / work.factor), int(obs.y / work.factor)), work.glare.shape[:2]
                if work.glare[min(gy, gh - 1), min(gx, gw - 1)].max() >= t.glare_flag:
                    why = [*why, _flag("die in a glare spot", gx, gy, work)]
            if obs is not None:
                dice.append(obs)
            reasons.extend(why)
    dark_dice(work, profile, dice, reasons, _die, thrown, beside_blobs)  # a whole top the colours call shade (rig.vision.dice_missed)
    for finder in (shade_dice, relief_dice, unglared_dice, shade_light_dice):  # tops missed: in deep shade, on a floor
        finder(work, profile, dice, reasons, _die, thrown)  # of their hue, hidden by the glare taken off, over-lifted
    # leaning: judged once every die is found (the rims of the dice beside a die are theirs)
    for j, obs in enumerate(dice):  # "cocked die", or a side face the wrong way round (never freed)
        why = None if obs.cocked else judge(obs, work, t, profile.walls, dice)
        if why is not None:
            reasons.append(_flag(why, obs.x / work.factor, obs.y / work.factor, work))
            dice[j] = dataclasses.replace(obs, cocked=True, confidence=obs.confidence * 0.5)
    for a, b in one_place_twice(dice, work.factor * work.side):
        reasons.append(_flag(TWICE_REASON, (a.x + b.x) / 2 / work.factor, (a.y + b.y) / 2 / work.factor, work))
    every_die = thrown is not None and len(dice) >= thrown
    box_itself = unchanged_pieces(work, profile, cc, stats) if every_die and fragments else None
    first, kept = [], None  # the first piece flagged (as before); the first piece the empty box does not show
    for fx, fy, cut, i in fragments:  # a piece of die colour that belongs to no die we read
        if cut and every_die:
            continue  # cut by the frame's edge, every die thrown read: the table beyond the box (twin 11205, 11308)
        if not in_a_die(fx, fy, dice, work.factor) and not a_side_face(fx, fy, dice, work):
            flag = _flag(PIECE_REASON, fx, fy, work)
            first = first or [flag]
            if box_itself is None or not box_itself(i):
                kept = flag
                break
    reasons += first
    glared = glared_die(work, dice)
    if glared is not None:
        reasons.append(_flag(GLARED_REASON, *glared, work))
    hulls = _wall_hulls(dice, work, profile.walls)
    # a hand reaches in over the floor (the table beyond the box is none of the reader's business);
    # a die hidden in shade may lie anywhere, a dark corner the floor grid left out included
    for table, least, what, where_, disc in ((_IS_ODD, t.foreign_area, "hand, object or glare in view",
                                              _near_floor(profile, labels.shape), 0.0),  # (no disc asked of a hand)
                                             (_IS_EDGE, t.shade_area, "die in shadow or on edge",
                                              off_prints(profile, labels.shape, _disc(len(dice), thrown) > 0),
                                              _disc(len(dice), thrown))):
        mask = cv2.LUT(labels, table)
        if isinstance(where_, np.ndarray):
            cv2.bitwise_and(mask, where_, dst=mask)
        for hull in hulls:  # (the dice's walls cut out of the mask itself: no frame-sized mask of them, no second 'and')
            cv2.fillConvexPoly(mask, hull, 0)
        where = _blob(mask, least * a0, 0.3 * work.side, disc * work.side,  # every die read: none hides where
                      as_the_empty_box(work, profile) if disc else None)  # the frame shows the empty box (round 32)
        if where is not None:
            reasons.append(_flag(what, *where, work))

    if len(dice) > DICE_IN_SET:
        reasons.append(f"{len(dice)} dice seen, there are only {DICE_IN_SET}")
    if thrown is not None and len(dice) < thrown:
        reasons.append(thrown_unseen(len(dice), thrown))
    for face, k in Counter(d.face for d in dice).items():
        if "+" in face and k > DICE_PER_COMBO:
            reasons.append(f"{k} dice read as {face}, only {DICE_PER_COMBO} dice carry it")
    if work.light is not None and work.light.reliable and not work.light.correctable:
        reasons.append(drift_text(work.light))
    excused, dice, reasons = excuse(work, dice, reasons, thrown)  # nothing to lean on (rig.vision.dice_unsupported)
    if reasons:  # a learned second look at the flagged dice: may take a flat die's own flags off
        held, (dice, reasons) = reasons, second_look(work, dice, list(dict.fromkeys(reasons)), excused)
        reasons = the_box_itself(work, dice, held, reasons, first, kept, excused)  # (rig.vision.dice_piece_unchanged)
    reasons += side_face_flags(work, profile, dice)  # after the second look: it frees no leaning die's side face
    reasons += wall_flags(work, profile, dice)  # a leaning die beyond its top (wall_side_flags, then lean_wall_flags)
    reasons += wall_dark_flags(work, profile, dice)  # ... and a near-black one darkening the lit wall there
    reasons += unchanged_flags(work, profile, dice)  # a "die" the empty box shows there too (rig.vision.dice_unchanged)
    dice.sort(key=lambda d: (d.y, d.x))
    return DiceReading(tuple(dice), "uncertain" if reasons else "ok", tuple(dict.fromkeys(reasons)), work.light)


#: two dice read closer than this many die sides: no two dice lie there (a die is a solid cube); one die's top read
#: twice, its frog cut in two by its outline (2D unseen 38004 turn 17, in silence)
TWICE_APART = 0.6
TWICE_REASON = "two dice read on one die's place (one die read twice?)"


def one_place_twice(dice: list[DieObservation], side: float) -> list[tuple[DieObservation, DieObservation]]:
    """The pairs of ``dice`` whose centres lie closer than :data:`TWICE_APART` die sides (``side`` in the dice's
    units). Even touching dice, or one leaning on another, lie about a side apart.

    >>> from types import SimpleNamespace as D
    >>> [(a.x, b.x) for a, b in one_place_twice([D(x=100, y=50), D(x=110, y=52), D(x=200, y=50)], 40)]
    [(100, 110)]
    """
    return [(a, b) for i, a in enumerate(dice) for b in dice[i + 1:]
            if math.hypot(a.x - b.x, a.y - b.y) < TWICE_APART * side]


def _at(x: float, y: float, work: Work) -> tuple[float, float]:
    """A working-scale point's place in frame px (a pixel's centre)."""
    f = work.factor
    return (x + 0.5) * f, (y + 0.5) * f


def _flag(kind: str, x: float, y: float, work: Work, on_die: bool = False) -> Flag:
    """The reason ``kind`` at a working-scale point: ``"{kind} at (x, y)"`` (or ``on die at``) in frame px, with its
    kind and place as data (:class:`~rig.vision.dice_flag.Flag`)."""
    return Flag(kind, *_at(x, y, work), on_die)


def _pink_in_glare(lab: np.ndarray, inner: np.ndarray, small: np.ndarray, t) -> int:
    """Unreadable (AMBIG) pixels of one die that are redder than its own body can be.

    Under glare, violet body and pink frog both clip in blue and red; the global colour models
    cannot tell them apart. But the die's own body pixels beside them show how red this body
    reads after the glare came off: a pixel whose red (a lower bound) is already
    ``glare_pink`` levels above that, and no less green, is frog.
    """
    body = small[inner & (lab == BODY)]
    amb = inner & (lab == AMBIG)
    red, green = small[..., 2][amb].astype(np.int16), small[..., 1][amb].astype(np.int16)
    ref_r, ref_g = np.percentile(body[:, 2], 90), np.median(body[:, 1])
    return int(np.count_nonzero((red >= ref_r + t.glare_pink) & (green >= ref_g)))


def _full_counts(crop: tuple | None, centre, work: Work, t, gain=None) -> tuple | None:
    """Class counts of a die's top (inside its rim) on the full-resolution frame: the frog and
    its dark outline stay apart there, where the working scale blends them. ``crop``: the top's
    box and mask there (:func:`_crop`; None: too small to count). The crop gets the light
    correction of the die's place (or ``gain``, without the floor's glare taken off); the
    frog's outline (thin bands of dark or unknown pixels) is left out, not counted as unknown."""
    if crop is None:
        return None
    X0, Y0, X1, Y1, mask = crop
    if gain is None:
        gh, gw = work.gain.shape[:2]
        gain = work.gain[min(gh - 1, max(0, int(centre[1]))), min(gw - 1, max(0, int(centre[0])))]
    crop = cv2.multiply(work.frame[Y0:Y1, X0:X1], (*gain.tolist(), 0.0), dtype=cv2.CV_8U)
    labels = label_pixels(crop, work.lut if work.lut is not None else colour_lut(work.profile))
    odd = cv2.LUT(labels, _IS_ODD) & mask
    # the frog's outline and the blends at its edges: thin bands (up to ~1/11 of a die wide) of unknown pixels, sparse
    # in any window that wide (at most half of it: counted whole, as the mean a float blur took); an unreadable patch
    # (glare, a clipped colour) is dense there
    k = max(5, int(round(0.09 * work.side * work.factor)) | 1)
    thin = cv2.compare(cv2.boxFilter(odd, cv2.CV_16U, (k, k), normalize=False), k * k // 2, cv2.CMP_LE) & odd
    nc = len(CLASS_NAMES)  # the top's counts and the band's in one count: a band pixel's class shifted by nc
    # (np.bincount of the masked pixels' values, as OpenCV's histogram: its counts whole numbers in float32, exact; no
    # masked copy made: half the time on a 60 px top, issue 24, round 29)
    both = cv2.calcHist([labels + thin * nc], [0], mask, [2 * nc], [0, 2 * nc]).ravel().astype(np.int64)
    counts, band = both[:nc] + both[nc:], both[nc:]
    for cls in (UNKNOWN, CLIPPED):  # band pixels leave the count
        counts[cls] = max(0, counts[cls] - int(band[cls]))
    n = int(counts.sum())
    return (counts, n, labels, mask) if n >= 16 else None


def _glared_top(poly: np.ndarray, x0: int, y0: int, work: Work) -> bool:
    """Whether the floor's glare (modelled at the working scale) lies under a die top's working-scale ``poly`` (placed
    at ``x0``, ``y0``): such a top is read there, not at full resolution in its place's light."""
    if work.glare is None:
        return False
    x, y, w, h = cv2.boundingRect(poly)  # (the poly's least and largest x, y: a few numpy calls took five times as long)
    under = work.glare[max(0, y + y0) : y + y0 + h, max(0, x + x0) : x + x0 + w]
    return under.size == 0 or cv2.minMaxLoc(under.reshape(under.shape[0], -1))[1] >= 4


def _crop(poly: np.ndarray, x0: int, y0: int, work: Work) -> tuple | None:
    """The full-resolution box (X0, Y0, X1, Y1) round a die top's working-scale ``poly`` (placed at ``x0``, ``y0``)
    and its mask there, or None when under 4 px across: made once a die by :func:`_die` and handed to both its
    readings (in its place's light and in the frame's overall light)."""
    f = work.factor
    x, y, w, h = cv2.boundingRect(poly)  # its least and largest point, whole numbers: floor and ceil of pts' exactly
    H, W = work.frame.shape[:2]
    X0, Y0 = max(0, (x + x0) * f + (f - 1) // 2), max(0, (y + y0) * f + (f - 1) // 2)
    X1, Y1 = min(W, (x + w - 1 + x0) * f + f // 2 + 1), min(H, (y + h - 1 + y0) * f + f // 2 + 1)
    if X1 - X0 < 4 or Y1 - Y0 < 4:
        return None
    mask = np.zeros((Y1 - Y0, X1 - X0), np.uint8)
    # each point's full-resolution place (x + x0) * f + (f - 1) / 2, less (X0, Y0), rounded as numpy rounds, in whole
    # numbers: exact for an odd factor; for an even one it lies half-way, and the even neighbour is taken
    pts = ((poly.reshape(-1, 2) + (x0, y0)) * f - (X0 - (f - 1) // 2, Y0 - (f - 1) // 2)).astype(np.int32, copy=False)
    if f % 2 == 0:
        pts += pts & 1
    cv2.fillConvexPoly(mask, pts, 1)  # (OpenCV takes int32 points only: numpy ints as offsets widen them)
    return X0, Y0, X1, Y1, mask


def _shares(counts: np.ndarray, n_in: int, t, seen: tuple) -> tuple[dict, list, list, float]:
    """A die top's share of each frog colour, the colours present and unclear, and its share of
    pixels of no class (``seen``: the labels and mask the counts came from)."""
    fr = {c: counts[COLOUR_CLASSES[c]] / n_in for c in COLOURS}
    present = [c for c in COLOURS if fr[c] >= t.colour_present]
    unclear = [c for c in COLOURS if t.colour_absent < fr[c] < t.colour_present]
    if "pink" in unclear and present == ["yellow"] and _warm_edge(*seen):
        unclear.remove("pink")  # a yellow frog's warm edge, not a pink half
    odd = (counts[UNKNOWN] + counts[CLIPPED] + counts[BLOWN] + counts[AMBIG]) / n_in
    return fr, present, unclear, odd


def _radius(cx: float, cy: float, work: Work) -> float:
    """Distance of a working-scale point from the frame centre, in frame widths."""
    H, W = work.labels.shape
    return float(np.hypot(cx + 0.5 - W / 2, cy + 0.5 - H / 2)) / W


def _one_frog(labels: np.ndarray, mask: np.ndarray, present: list[str]) -> bool:
    """Whether a die's frog colours form one frog: each colour mostly one compact blob, and a
    combo's two halves touching (colour specks from print or glare scatter instead)."""
    blobs = []
    for c in present:
        m = ((labels == COLOUR_CLASSES[c]) & (mask > 0)).view(np.uint8)
        n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(m, 8, cv2.CV_32S, cv2.CCL_GRANA)  # (as the
        if n <= 1:  # default's labels and stats, both scanning 2 x 2 blocks: half its time on a full-resolution top)
            return False
        areas = stats[1:, cv2.CC_STAT_AREA]
        if areas.max() < 0.6 * areas.sum():
            return False
        if len(present) == 2:  # (a combo's halves must touch: their largest blobs)
            blobs.append((cc == 1 + int(areas.argmax())).view(np.uint8))
    if len(blobs) == 2:
        near = cv2.dilate(blobs[0], np.ones((5, 5), np.uint8), iterations=2)
        return bool(np.any(near & blobs[1]))
    return True


def _die(part: np.ndarray, lab: np.ndarray, x0: int, y0: int, work: Work, t,
         frog_size: dict, walls=(0.0, 0.0, 0.0, 0.0)) -> tuple[DieObservation | None, list[str]]:
    a0 = work.top_area
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None, []
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    filled = np.zeros_like(part)
    cv2.fillConvexPoly(filled, hull, 1)
    n_px = cv2.countNonZero(filled)
    if n_px < 0.25 * a0:
        return None, []
    cut = speckless(part, lab, n_px, a0, t.die_area_min)
    if cut is not None:  # floor specks of die colour joined to the top, cut off (rig.vision.dice_specks)
        return _die(cut, lab, x0, y0, work, t, frog_size, walls)
    # colours are counted inside the rim: the die's rounded edges blend into the floor
    m = cv2.moments(hull)
    if m["m00"] <= 0:
        return None, []
    hc = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    k = max(0.3, 1.0 - 0.16 * work.side / max(1.0, np.sqrt(m["m00"])))
    shrunk = np.round((hull.reshape(-1, 2) - hc) * k + hc).astype(np.int32)
    inner_img = np.zeros_like(part)
    cv2.fillConvexPoly(inner_img, shrunk, 1)
    inner, n_in = inner_img > 0, cv2.countNonZero(inner_img)
    if n_in < 0.25 * a0:
        inner, n_in = filled > 0, n_px
    n_top = n_in  # (inner's pixels at the working scale: n_in becomes the full-resolution count when read there)
    cx, cy = hc[0] + x0, hc[1] + y0
    # read at full resolution in its place's light (glare is modelled at the working scale: dice under it are read there)
    first = work.factor > 1 and work.gain is not None and not _glared_top(shrunk, x0, y0, work)
    crop = _crop(shrunk, x0, y0, work) if first else None  # the top's full-resolution box and mask, for both readings
    full = _full_counts(crop, (cx, cy), work, t) if first else None
    if full is not None:
        counts, n_in = full[:2]
    else:
        counts = np.bincount(lab[inner], minlength=len(CLASS_NAMES))
    (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
    aspect = min(rw, rh) / max(rw, rh, 1e-6)
    at = _at(cx, cy, work)  # (its reasons name it there)
    window = np.s_[y0 : y0 + lab.shape[0], x0 : x0 + lab.shape[1]]  # the die's crop in the working-scale frame
    top_bgr = work.small[window]  # the corrected colours the labels were read from
    reasons = []
    if counts[AMBIG] and counts[BODY] >= 0.1 * n_in:
        seen = _pink_in_glare(lab, inner, top_bgr, t)
        if seen:
            if counts[PINK] / n_in < t.colour_present <= (counts[PINK] + seen) / n_in:
                reasons.append(Flag("pink read through glare", *at, True))  # it decides the face
            counts[PINK] += seen
            counts[AMBIG] -= seen

    fr, present, unclear, odd = _shares(counts, n_in, t, full[2:] if full else (lab, inner))
    bare = False
    doubtful = odd > t.unknown_max or bool(unclear)
    glared = under_glare(cx, cy, work)
    # a clear blank top where its place's light differs from the overall is read again too: a frog pale under the
    # lamp's sheen, darkened with its floor, can vanish into the body (twin 10508 turn 2 after a drift, round 22)
    if work.gain is not None and (doubtful or glared or not present):
        crop = crop if first else _crop(shrunk, x0, y0, work)
        overall = overall_counts(crop, (cx, cy), work, t, _full_counts)
        if overall is not None:
            shares = _shares(overall[0], overall[1], t, overall[2:])
            lo, hi = t.single_share if len(shares[1]) == 1 else t.combo_share
            usual = all(lo <= shares[0][c] / frog_size.get(c, shares[0][c]) <= hi for c in shares[1])
            clear = shares[3] <= t.unknown_max and not shares[2] and usual
            if not glared and not (doubtful and clear) and lit_above_shade((cx, cy), work, present, shares, t):
                (counts, n_in), full, (fr, present, unclear, odd) = overall[:2], overall, shares
                reasons.append(Flag(LIT_ABOVE_SHADE, *at))
            elif not doubtful and not glared:  # read again only for being blank: flagged where a frog shows
                if shows_frog(shares[0], t):
                    reasons.append(Flag("blank die top shows a frog in the frame's overall light", *at))
                elif overall[0][BG] > FLOOR_ON_TOP * overall[1] and counts[BG] > FLOOR_FIRST * n_in:
                    reasons.append(Flag(FLOOR_IN_OVERALL, *at, True))
            elif doubtful and clear and set(present) <= set(shares[1]):
                (counts, n_in), full, (fr, present, unclear, odd) = overall[:2], overall, shares
                reasons.append(Flag("die top read in the frame's overall light", *at))
            elif not doubtful and clear and set(present) != set(shares[1]):
                past = past_the_floors_glare(shares, frog_size, (fr, present), t) or bare_body(overall, shares, present)
                if past and not lamp_on_top(top_bgr, lab, inner, work, cx, cy):
                    (counts, n_in), full, (fr, present, unclear, odd) = overall[:2], overall, shares
                reasons.append(Flag("die under the floor's glare reads another face without it", *at))
            elif not doubtful and not clear:  # (not doubtful: it was read again for lying under the glare)
                bare = True  # without the glare taken off its top reads no clear face: asked below if unsure
    if not present and unsure_blank(counts, n_in, fr, doubtful, t) and (again := in_body_light(
            crop or _crop(shrunk, x0, y0, work), (cx, cy), work, t, frog_size, _full_counts, _shares)):
        (counts, n_in), full, (fr, present, unclear, odd) = again[0][:2], again[0], again[1]  # (rig.vision.dice_body_light)
        reasons.append(Flag(BODY_LIGHT, *at, True))
    deep = work.deep is not None and cv2.countNonZero(work.deep[window] & inner.view(np.uint8)) > DEEP_SHARE * n_top
    if deep and present and (again := blank_in_own_light(crop or _crop(shrunk, x0, y0, work), (cx, cy), work, t, (
            fr, present, unclear, odd), frog_size, _full_counts, _shares)):
        (counts, n_in), full, (fr, present, unclear, odd) = again[0][:2], again[0], again[1]  # (rig.vision.dice_deep_blank)
        reasons.append(Flag(DEEP_BLANK, *at, True))
    mid = (t.colour_present + t.colour_absent) / 2
    margin = min(min(1.0, abs(fr[c] - mid) / mid) for c in COLOURS)
    means = frog_means(top_bgr, lab, inner, present) if work.profile is not None else None  # (for both hue tests)
    if gone := no_frog_colours(top_bgr, lab, inner, present, work.profile, means):  # grey or off hue: the lamp's image?
        present, margin = [c for c in present if c not in gone], 0.0
        reasons.append(Flag(f"{'/'.join(gone)} {NO_FROG}", *at, True))
    # the best guess (flagged below): a frog partly unreadable under glare shows less of its colour
    hidden = (counts[BLOWN] + counts[AMBIG]) / n_in
    guess = present + [c for c in unclear if fr[c] + hidden >= t.colour_present]
    partner = half_partner(fr, present, unclear, frog_size) if guess == present and full is not None else None
    if partner is not None and _one_frog(full[2], full[3], [*present, partner]):
        guess = [*present, partner]  # a half-size frog and an unclear half beside it: a combo's pale half (dice_combo)
    if len(guess) == 3:
        guess = sorted(guess, key=fr.get)[1:]
        reasons.append(Flag("three colours on one die", *at))
        margin = 0.0
    face = "blank" if not guess else guess[0] if len(guess) == 1 else _COMBOS[frozenset(guess)]
    if len(guess) == 2 and surrounded(*(top := full[2:4] if full is not None else (lab, inner)), guess):
        reasons.append(Flag(f"{'/'.join(guess)} one round the other (die body read as a frog colour?)", *at, True))
        margin = 0.0  # not two halves side by side: a lit die body round a frog (rig.vision.dice_surround)
        face = ringed(*top, guess) or face  # the frog is the colour ringed; still asked
    if unclear:
        reasons.append(Flag(f"unclear {'/'.join(unclear)}", *at, True))
    elif frog_size:
        lo, hi = t.single_share if len(present) == 1 else t.combo_share
        # too big is judged on a whole die's top: a top partly in shade leaves a smaller share to count in
        whole, sides = top_fit(work, full is not None, n_in)  # (too small is judged on the top, its sides left out)
        odd_size = [c for c in present if not lo * sides <= fr[c] / frog_size.get(c, fr[c]) <= hi / whole]
        if odd_size:
            reasons.append(Flag(f"{'/'.join(odd_size)} frog of unusual size (glare?)", *at, True))
            margin *= 0.5
        elif half := half_on_short_top(fr, present, frog_size, whole):  # judged by the second look's net
            reasons.append(Flag(f"{half} {HALF_KIND}", *at, True))
    if odd_hue := off_hue(top_bgr, lab, inner, present, work.profile, means):
        reasons.append(Flag(f"{'/'.join(odd_hue)} frog of unusual colour", *at, True))
        margin = 0.0
    if counts[BG] > FLOOR_ON_TOP * n_in:  # the floor's colour inside a die's rim: a veiled top the floor's glare matches
        reasons.append(Flag("die top much like the floor (glare?)", *at))
    if odd > t.unknown_max:
        reasons.append(Flag("unknown colour or glare", *at, True))
    if full is not None and present and len(present) <= 2 and not _one_frog(full[2], full[3], present):
        reasons.append(Flag(f"{'/'.join(present)} not one frog (scattered colour)", *at, True))
        margin = 0.0
    if deep:
        reasons.append(Flag("die in shadow or on edge", *at))  # found in a wall's deep shade, read from lifted noise
    cocked = False
    if n_px < t.die_area_min * a0:
        reasons.append(Flag("die partly hidden or on edge", *at))
        cocked = True
    elif aspect + walls[3] * _radius(cx, cy, work) < t.cocked_aspect and not cut_by_frame_edge(
            hull, x0, y0, work.side, work.labels.shape, face):  # perspective stretches dice far out; the frame's
        reasons.append(Flag("cocked die", *at))  # edge cuts a flat top (rig.vision.dice_cut)
        cocked = True
    confidence = margin * (1.0 - min(1.0, odd / max(t.unknown_max, 1e-6)) * 0.5)
    if bare and confidence < BARE_SURE:
        reasons.append(Flag("die under the floor's glare reads unclear without it", *at))
    if confidence < VEIL_SURE and lamp_on_top(top_bgr, lab, inner, work, cx, cy):  # veiled, or on calibration's sheen
        reasons.append(Flag("lamp's reflection on die top", *at))
    elif not present and deeply_veiled(top_bgr, lab, inner, work.profile):  # a frog washed out, read blank surely
        reasons.append(Flag("lamp's reflection on die top", *at))
    elif not guess and confidence < BLANK_SURE:
        reasons.append(Flag(UNSURE_BLANK, *at, True))
    if cocked:
        confidence *= 0.5
    f = work.factor
    bx, by, bw, bh = cv2.boundingRect(hull)
    box = ((bx + x0) * f, (by + y0) * f, bw * f, bh * f)
    obs = DieObservation(face, (cx + 0.5) * f - 0.5, (cy + 0.5) * f - 0.5, box, round(float(confidence), 3), cocked,
                         tuple(round(float(fr[c]), 4) for c in COLOURS), round(float(aspect), 3), round(n_px / a0, 3))
    return obs, reasons

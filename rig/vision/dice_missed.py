"""Dice the colour table's first pass misses: a top it calls shade, a die on a die-coloured spot of the box.

**A die whose whole top the colour table calls die body in shade** (:func:`dark_dice`).

The colour table's ``edge`` class is the die body in shade — rounded edges, a leaning die's side. A flat
die's top that gets less light than the calibration's dice did (beside a wall that lights the floor by
bouncing the lamp's light, which the light correction then divides out of the top as well; in a wall's
half-shade) falls into that class as a whole: no die top, and the reader said only "die in shadow or on
edge" there and counted the die as missing (twin tables 8603, 8206, 113, 106: the largest group of flat
dice not seen in the tenth round).

Such a blob is a die's top when it is die-sized and square (as a split part must be), lies clear of every
die read, and, brightened by one factor for all three channels (the light, not the hue, is changed) to the
calibrated die body's lightness, reads as die top for the most part. Its pixels are then labelled and
corrected as read (the frame's own arrays, as the deep shade's lift does), so the die is read, judged
leaning and its flank measured as any other; it always carries a flag (:data:`REASON`): a cocked die's
side face can look like that too.

**A die a reading is short of, in a wall's deep shade** (:func:`shade_dice`, round 15).

When the caller says how many dice were thrown and fewer were read, the missing die is looked for where the frame is
too dark for :func:`dark_tops`: by its colour at any brightness (its own top's lightness and the shade's cast taken
out, :func:`shade_tops`). Such a die is read from the camera's noise brightened up to 10 times: always flagged
(:data:`SHADE_REASON`, which the second look does not take off).

**A die lying on a die-coloured spot the empty box showed** (:func:`print_spot`).

Calibration keeps where the empty box itself shows die colours (``[spots]``: a violet line or square in a
tray's print, a lilac cloth beyond the box, at the profile's coarse grid); a blob of die-top pixels lying
mostly there is the print, no die. A die lying across such a line (twin table 8001 turn 3: a blank die on
a violet stripe of the printed floor, 73 % of its top on the stripe's cells) was lost that way, said only
by the count of dice thrown. A blob with at least :data:`OFF_SPOTS` of its pixels off the spots that is a
die's top by shape (a die top's size, square and solid, as a split part must be) is read as a die, flagged
(:data:`SPOT_REASON`): the print can make a die-shaped patch too.

**A print the empty box reads as a die in shade** (round 31). Where calibration kept the places the empty box itself
reads as a die (the profile's ``prints``: card twin 4910, a maroon disc of the floor's print, a die's size, read as a
blank die in shade), :func:`dark_tops` and :func:`shade_tops` take no blob lying mostly there.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from rig.vision.dice_flag import Flag
from rig.vision.dice_frames import label_pixels
from rig.vision.light import COLS, DEEPEST, ROWS, floor_model, lightness, prints_at, profile_map
from rig.vision.colour_table import colour_lut
from rig.vision.pixel_classes import _IS_EDGE, _K3, BG, BLOWN, IS_TOP, filled
from rig.vision.dice_glared import (  # noqa: F401  (moved; the old import path kept)
    _RIM, GLARED_AREA, GLARED_BEVEL, GLARED_BODY, GLARED_LEVEL, GLARED_REASON, _glared_cells, glared_die, in_a_die,
)

_NOT_FLOOR = np.full(256, 255, np.uint8)
_NOT_FLOOR[[BG, BLOWN]] = 0

#: the least share of a dark blob that must read as die top once brightened
TOP_SHARE = 0.65
#: the least share of such a blob the colour table calls die body in shade (the rest: its frog, specks)
EDGE_SHARE = 0.5
#: brightened at most this many times: as deep a shade as calibration's map lifts (round 14; 2.5 before, "a darker
#: blob is the deep shade's business" — but a die top in a wall's shadow the map does not lift enough, or at all, was
#: then lost: the largest group of flat dice not seen on the twin, 3.4-6.1 times darker than a die's body)
MOST = 1.0 / DEEPEST
#: brightened more than this many times, the die is read from the camera's noise brightened with it: flagged as
#: a die read from a wall's lifted deep shade is (:data:`DEEP_REASON`, which the second look does not take off)
LIFTED = 2.5
REASON = "die top in shade read brightened"
DEEP_REASON = "die in shadow or on edge"
#: a die-shaped blob with at least this share of its pixels off the spots is read as a die (flagged)
OFF_SPOTS = 0.15
SPOT_REASON = "die on a die-coloured spot of the box"


def _body_bgr(profile) -> np.ndarray:
    lab = np.clip(np.round(profile.body.mean), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    return cv2.cvtColor(lab, cv2.COLOR_Lab2BGR).reshape(3).astype(np.float32)


def _square(part: np.ndarray, a0: float, least: float, most: float, fill: float = 0.65, aspect: float = 0.75) -> bool:
    """Whether ``part`` is a die top's size (``least`` to ``most`` tops), square (``aspect``) and solid (``fill``)."""
    n = int(np.count_nonzero(part))
    if not least * a0 <= n <= most * a0:
        return False
    (_, _), (w, h), _ = cv2.minAreaRect(cv2.findNonZero(part))
    return min(w, h) / max(w, h, 1e-6) >= aspect and n >= fill * w * h


def dark_tops(work, t, dice, blobs=None) -> list[tuple[np.ndarray, int, int, float]]:
    """Relabel, in ``work`` (in place), each die-sized square blob of die body in shade that lies clear
    of the ``dice`` read and reads as a die top once brightened; returns each as (its top's mask, x, y:
    the mask's place at the working scale, the gain it was brightened by) for the reader to read as a die."""
    body, lut, out = None, None, []
    prints = prints_at(work.profile, work.labels.shape)
    for x, y, w, h, area, part in _shade_blobs(work, t, dice, 1.0, EDGE_SHARE) if blobs is None else blobs:
        if _on_prints(prints, x, y, part, area):
            continue  # the empty box reads as a die in shade here too: the box's print
        if body is None:
            body, lut = _body_bgr(work.profile), (work.lut if work.lut is not None else colour_lut(work.profile))
        window = np.s_[y : y + h, x : x + w]
        seen = work.small[window][part > 0].astype(np.float32)
        gain = float(body.sum() / max(1.0, float(np.median(seen.sum(axis=1)))))
        if not 1.0 < gain <= MOST:
            continue
        bright = cv2.multiply(work.small[window], (gain,) * 3 + (0.0,), dtype=cv2.CV_8U)
        relabelled = label_pixels(bright, lut)
        take = (part > 0) & (cv2.LUT(relabelled, IS_TOP) > 0)
        if np.count_nonzero(take | (cv2.LUT(work.labels[window], IS_TOP) > 0) & (part > 0)) < TOP_SHARE * area:
            continue
        _relabel(work, window, take, relabelled, bright, gain)
        out.append((take.view(np.uint8), x, y, gain))
    return out


def _on_prints(prints, x: int, y: int, part: np.ndarray, area: int) -> bool:
    """Whether a blob (``part``, its box at ``x``, ``y``, working scale) lies mostly where the empty box itself reads as
    a die in shade (``prints``: :func:`rig.vision.light.prints_at`, or None)."""
    return prints is not None and 2 * int(prints[y : y + part.shape[0], x : x + part.shape[1]][part > 0].sum()) >= area


def _shade_blobs(work, t, dice, least: float, share: float, inside: bool = False):
    """The blobs :func:`dark_tops` and :func:`cut_tops` look at: shade body with what else is no floor (its frog,
    unknown or a die colour, glare specks), die-sized and square, clear of the ``dice`` read, at least ``share`` of it
    shade body (none when the frame holds less shade body than ``least`` of a die's least top); with ``inside``, none
    touching the frame's edge. Yields each as (x, y, w, h, area, its mask in its box) at the working scale."""
    labels, a0 = work.labels, work.top_area
    edge = cv2.LUT(labels, _IS_EDGE)
    if cv2.countNonZero(edge) < least * t.die_area_min * a0:
        return
    unopened = edge | cv2.LUT(labels, _NOT_FLOOR)
    H, W = labels.shape
    clear = _clear_of(work, dice)
    # a blob yielded lies clear of the dice whole, holds die_area_min tops or more, and a share of it is shade body:
    # a frame with fewer such pixels clear of the dice has none to yield (its blobs are not labelled: round 20). An
    # opening only takes pixels away: a frame failing this unopened fails it opened, and is not opened (round 26)
    bounds = t.die_area_min * a0, share * t.die_area_min * a0
    if _too_few(unopened, edge, clear, *bounds):
        return
    blob = cv2.morphologyEx(unopened, cv2.MORPH_OPEN, _K3)
    if _too_few(blob, edge, clear, *bounds):
        return
    n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(blob, 8, cv2.CV_32S, cv2.CCL_GRANA)
    areas = stats[:, cv2.CC_STAT_AREA]
    for i in np.flatnonzero((areas >= t.die_area_min * a0) & (areas <= t.die_area_max * a0)).tolist():  # die-sized
        if i == 0:
            continue  # the background
        x, y, w, h, area = (int(v) for v in stats[i])
        if inside and (x == 0 or y == 0 or x + w == W or y + h == H):
            continue
        part = (cc[y : y + h, x : x + w] == i).view(np.uint8)
        if np.count_nonzero(edge[y : y + h, x : x + w][part > 0]) < share * area:
            continue
        if np.count_nonzero(clear[y : y + h, x : x + w][part > 0] == 0) or not _square(part, a0, t.die_area_min, t.die_area_max):
            continue
        yield x, y, w, h, area, part


def _too_few(blob: np.ndarray, edge: np.ndarray, clear: np.ndarray, least: float, least_edge: float) -> bool:
    """Whether ``blob``'s pixels clear of the dice (``clear``) number under ``least``, or its shade body (``edge``)
    there under ``least_edge``: :func:`_shade_blobs`' gate."""
    free = cv2.bitwise_and(blob, clear)
    return cv2.countNonZero(free) < least or cv2.countNonZero(cv2.bitwise_and(edge, free)) < least_edge


def _clear_of(work, dice) -> np.ndarray:
    """255 except on the ``dice`` read, their boxes grown by 0.15 die sides (working scale): where a top found in
    shade may lie."""
    f = work.factor
    clear = np.full(work.labels.shape, 255, np.uint8)
    pad = max(2, int(round(0.15 * work.side)))
    for d in dice:
        x, y, w, h = (int(round(v / f)) for v in d.box)
        clear[max(0, y - pad) : y + h + pad, max(0, x - pad) : x + w + pad] = 0
    return clear


def _relabel(work, window, take, relabelled, bright, gain) -> None:
    """A top found in shade written into ``work`` where ``take``: its labels, its brightened pixels and the gain it
    was brightened by (one factor, or one per channel), so the reader reads it from the full frame as any die."""
    np.copyto(work.labels[window], relabelled, where=take)
    np.copyto(work.small[window], bright, where=take[..., None])
    if work.gain is not None:
        g = work.gain[window]
        np.copyto(g, g * gain, where=take[..., None])


def _read_tops(work, profile, tops, dice: list, reasons: list, read, flags) -> None:
    """Read each top found in shade (``tops``: mask, x, y, gain) with ``read`` (the reader's ``_die``) and add the
    die and its reasons, with the reasons ``flags(gain)`` names at its place, to ``dice`` and ``reasons``."""
    for part, x, y, gain in tops:
        lab = work.labels[y : y + part.shape[0], x : x + part.shape[1]]
        obs, why = read(part, lab, x, y, work, profile.thresholds, profile.frog_fraction, profile.walls)
        if obs is not None:
            dice.append(obs)
            reasons.extend([*why, *(Flag(r, obs.x + 0.5, obs.y + 0.5) for r in flags(gain))])


def dark_dice(work, profile, dice: list, reasons: list, read, thrown: int | None = None, beside=None) -> None:
    """Read each of :func:`dark_tops`' blobs with ``read`` (the reader's ``_die``) and add the dice and their reasons,
    with :data:`REASON` (and :data:`DEEP_REASON` when brightened more than :data:`LIFTED` times), to ``dice`` and
    ``reasons``; then, while fewer than ``thrown`` are read, the blobs ``beside(work, t, dice)`` yields (those joined
    to a die read: :func:`rig.vision.dice_beside.beside_blobs`, passed in by the reader: it imports this module)."""
    t, flags = profile.thresholds, lambda gain: (REASON, DEEP_REASON) if gain > LIFTED else (REASON,)
    _read_tops(work, profile, dark_tops(work, t, dice), dice, reasons, read, flags)
    if beside is not None and thrown is not None and len(dice) < thrown:
        _read_tops(work, profile, dark_tops(work, t, dice, beside(work, t, dice)), dice, reasons, read, flags)


#: a die top in shade is looked for by its colour at any brightness among pixels darker than this many times the die
#: body's lightness (a top half in the wall's shadow, half lit, is found whole; at 1 / LIFTED, only the darkest part:
#: 3 dice fewer right on the seen twin sets, same light) and no darker than calibration's deepest lift (:data:`MOST`
#: times): darker is the camera's noise alone
SHADE_DARK = 1.0
#: the most a die top's colour in shade may be cast (one channel's gain to the die body over another's): the shade's
#: light is the walls' and the room's, not the lamp's alone (twin 101's near wall: 2.2)
CAST = 3.0
#: a die top is smooth: its lightness varies by less than this share of itself over 5 x 5 working pixels (the deep
#: shade's floor lifted beside it is the camera's noise brightened, 0.3-0.9)
SMOOTH = 0.3
SHADE_REASON = "die in deep shade, check"


def shade_tops(work, t, dice, want: int) -> list[tuple[np.ndarray, int, int, float]]:
    """Die tops in a wall's deep shade that neither the colour table nor :func:`dark_tops` found (round 15): a top
    there is up to 10 times darker than a die's body (5.7-8.3 on twin 101 and 8800's), cast blue by the shade's light (the walls' and the room's, not the
    lamp's), and the colour table calls it floor; calibration's shade map lifts it too little, or not at all where the
    map's box ends (twin 101: the whole band along the near wall lies outside the floor cells).

    Looked for by its colour at any brightness: each dark pixel (a 3 x 3 mean) brightened to the die body's lightness
    and labelled; blobs of die colours, of any colour but the floor's, and the first with holes of a fifth of a die
    side closed, each first where the frame is smooth (:data:`SMOOTH`). A die-sized square blob clear of every die
    read, off the frame's edge, is a die top when, brightened per channel to the die body's colour (by a cast of at
    most :data:`CAST`; its lightness at most :data:`MOST` times), it reads mostly as die top (:data:`TOP_SHARE`). At
    most ``want`` are kept, the most die-like first, one per place. Relabels ``work`` in place as :func:`dark_tops`
    does (the gain per channel), so the reader reads the die from the full frame as any other."""
    labels, a0 = work.labels, work.top_area
    body = _body_bgr(work.profile)
    level = float(body.sum())
    soft = cv2.blur(work.small, (3, 3)).astype(np.float32)
    lum = lightness(soft)  # (numpy's sum over a short last axis: a hundred times as long)
    dark = (lum < SHADE_DARK * level) & (lum * MOST >= level) & (cv2.LUT(labels, IS_TOP) == 0)
    if np.count_nonzero(dark) < t.die_area_min * a0:
        return []
    lut = work.lut if work.lut is not None else colour_lut(work.profile)
    norm = np.multiply(soft, (level / np.maximum(lum, 1.0))[..., None], out=soft)  # (in place: no frame-sized float)
    norm = np.clip(norm, 0, 255, out=norm).astype(np.uint8)
    hue = label_pixels(norm, lut)
    clear = _clear_of(work, dice)
    # the blobs: the dark pixels of die colour once brightened, or of any colour but the floor's, and the first with
    # holes of a fifth of a die side closed (a top's noisy pixels), each a die-sized square clear of the dice read
    colour = (((cv2.LUT(hue, IS_TOP) | cv2.LUT(hue, _IS_EDGE)) > 0) & dark).view(np.uint8) * 255
    k = np.ones((2 * max(1, int(round(0.1 * work.side))) + 1,) * 2, np.uint8)
    masks = (colour, cv2.morphologyEx(cv2.morphologyEx(colour, cv2.MORPH_CLOSE, k), cv2.MORPH_OPEN, k),
             ((hue != BG) & dark).view(np.uint8) * 255)
    # ... each first where the frame is smooth: a die top is one surface, the lifted shade beside it the camera's noise
    raw = lightness(work.small)
    m, m2 = cv2.blur(raw, (5, 5)), cv2.blur(raw * raw, (5, 5))
    smooth = ((m2 - m * m) < (SMOOTH * m) ** 2).view(np.uint8) * 255
    masks = tuple(mk & smooth for mk in masks) + masks
    found = []
    H, W = labels.shape
    empty = empty_floor(work.profile, (H, W)) if work.gain is not None else None
    prints = prints_at(work.profile, (H, W))
    for mask in masks:
        blob = cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3), cv2.MORPH_CLOSE, _K3) & clear
        if cv2.countNonZero(blob) < t.die_area_min * a0:
            continue  # (too few pixels for a die-sized blob: none labelled)
        n, cc, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(blob, 8, cv2.CV_32S, cv2.CCL_GRANA)
        sized = (stats[:, cv2.CC_STAT_AREA] >= t.die_area_min * a0) & (stats[:, cv2.CC_STAT_AREA] <= t.die_area_max * a0)
        for i in (np.flatnonzero(sized[1:]) + 1).tolist():  # (the specks skipped at once: hundreds a mask)
            x, y, w, h, area = (int(v) for v in stats[i])
            if x == 0 or y == 0 or x + w == W or y + h == H:  # (its size: ``sized``)
                continue
            if any(abs(x + w / 2 - u) < work.side and abs(y + h / 2 - v) < work.side for _, u, v, *_ in found):
                continue  # a top found here already (by an earlier mask): one per place, not looked at again
            part = (cc[y : y + h, x : x + w] == i).view(np.uint8)
            if not _square(part, a0, t.die_area_min, t.die_area_max) or _on_prints(prints, x, y, part, area):
                continue
            window = np.s_[y : y + h, x : x + w]
            seen = np.median(work.small[window][part > 0].astype(np.float32), axis=0)
            gains = body / np.maximum(seen, 1.0)
            lift = level / max(1.0, float(seen.sum()))
            if not 1.0 < lift <= MOST or gains.max() > CAST * gains.min():
                continue
            if empty is not None and SHADOW * float(seen.sum()) < empty[y + h // 2, x + w // 2]:
                continue  # the empty box showed lit floor here: a shadow cast by a die read (round 20)
            bright = cv2.multiply(work.small[window], tuple(float(g) for g in gains) + (0.0,), dtype=cv2.CV_8U)
            relabelled = label_pixels(bright, lut)
            take = (part > 0) & (cv2.LUT(relabelled, IS_TOP) > 0)
            share = np.count_nonzero(take) / area
            if share >= TOP_SHARE:
                found.append((share, x + w / 2, y + h / 2, x, y, gains, bright, relabelled, take))
    out = []
    for share, _, _, x, y, gain, bright, relabelled, take in sorted(found, key=lambda c: -c[0])[:want]:
        _relabel(work, np.s_[y : y + take.shape[0], x : x + take.shape[1]], take, relabelled, bright, gain)
        out.append((take.view(np.uint8), x, y, float(gain.mean())))
    return out


#: a blob darker than the empty box's floor at its place by more than this factor lies where the empty box showed lit
#: floor: a shadow a die read casts there, no die in a wall's shade (round 20: twin 10311's blue dice's shadows on a
#: violet felt read "blank", 2.6-3.6 times darker; the dice found in shade on the seen sets 0.34-0.95)
SHADOW = 2.0


def empty_floor(profile, shape: tuple[int, int]) -> np.ndarray | None:
    """The empty box's floor as the reader's light correction shows it (its cells' colours evened as a frame's are,
    B + G + R) at ``shape`` (h, w), float32; None for a profile without a floor model."""
    model = floor_model(profile)
    if model is None:
        return None

    def build():
        floor = (model.floor * model.flat).astype(np.float32).reshape(ROWS, COLS, 3)
        return cv2.resize(floor, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR).sum(axis=2)

    return profile_map("empty floor", profile, shape, build)


def shade_dice(work, profile, dice: list, reasons: list, read, thrown: int | None) -> None:
    """When fewer dice were read than ``thrown``, read :func:`shade_tops`' blobs with ``read`` (the reader's
    ``_die``) and add them, always flagged (:data:`SHADE_REASON`, a flag the second look does not take off: a die
    read from a top up to 10 times darker than a die's body, its noise brightened with it)."""
    if thrown is None or len(dice) >= thrown or work.profile is None:
        return
    _read_tops(work, profile, shade_tops(work, profile.thresholds, dice, thrown - len(dice)), dice, reasons, read,
               lambda gain: (SHADE_REASON,))
    if len(dice) < thrown:  # a top cut by a shade's edge, its two parts each brightened by their own (round 18)
        tops = cut_tops(work, profile.thresholds, dice, thrown - len(dice))
        # read from its relabelled working pixels: at full resolution the place's one correction leaves a part dark
        _read_tops(dataclasses.replace(work, gain=None), profile, tops, dice, reasons, read, lambda gain: (SHADE_REASON,))


#: a die top cut by a shade's edge (a wall's shadow across it): its lit and its shaded part lie apart in lightness by
#: at least this factor (round 18: twin 10106 turn 3, 10009 turn 2, about 4-6) ...
CUT_STEP = 2.0
#: ... each at least this share of the blob
CUT_PART = 0.2


def cut_tops(work, t, dice, want: int) -> list[tuple[np.ndarray, int, int, float]]:
    """Die tops a shade's edge cuts in two (round 18): a flat die against a wall, the wall's black shade across its top
    — a lit part (read as die top, or as die body in shade) and a part up to 10 times darker (die body in shade, or
    floor). Neither the first pass (the lit part alone too small, or the whole blob called shade) nor
    :func:`dark_tops` (one factor for the whole blob clips the lit part) nor :func:`shade_tops` (looks only among dark
    pixels) reads it.

    A blob of shade body and what else is no floor, die-sized and square (as :func:`dark_tops` asks), clear of every
    die read and off the frame's edge, is split by its lightness (Otsu on the log) into two parts, each at least
    :data:`CUT_PART` of it and lying :data:`CUT_STEP` times apart; each part is brightened by its own factor to the die
    body's lightness (at most :data:`MOST` times). It is a die top when it then reads mostly as die top
    (:data:`TOP_SHARE`). At most ``want`` are kept, the most die-like first; relabels ``work`` as :func:`dark_tops`
    does (its gain per pixel)."""
    body = _body_bgr(work.profile)
    lut = work.lut if work.lut is not None else colour_lut(work.profile)
    found = []
    for x, y, w, h, area, part in _shade_blobs(work, t, dice, CUT_PART, CUT_PART, inside=True):
        cut = lit_and_shade(work, x, y, part, area, body, lut)
        if cut is not None and cut[0] >= TOP_SHARE:
            found.append((cut[0], x, y, *cut[1:]))
    return keep_tops(work, found, want)


def shade_edge_parts(lum: np.ndarray, inside: np.ndarray, area: int) -> tuple | None:
    """A top's pixels (``inside`` its window, ``lum`` the window's lightness) split by lightness (Otsu on the log) into
    a lit and a shaded part, each at least :data:`CUT_PART` of its ``area`` and :data:`CUT_STEP` times apart (a shade's
    edge across the top): ``(the window's pixels above the split, the lit part, the shaded part, the shaded part's
    median lightness)``, or None when the top does not part so."""
    log = np.clip(np.log2(lum + 1.0) * 25.0, 0, 255).astype(np.uint8)
    step, _ = cv2.threshold(log[inside].reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    lit = log > step
    lit_in, dark_in = lit & inside, ~lit & inside
    if min(np.count_nonzero(lit_in), np.count_nonzero(dark_in)) < CUT_PART * area:
        return None
    lo = max(1.0, float(np.median(lum[dark_in])))
    if float(np.median(lum[lit_in])) < CUT_STEP * lo:
        return None
    return lit, lit_in, dark_in, lo


def lit_and_shade(work, x: int, y: int, part: np.ndarray, area: int, body: np.ndarray, lut, seam: bool = False) -> tuple | None:
    """A blob (``part``, its box at ``x``, ``y``) split by its lightness (Otsu on the log) into a lit and a shaded part,
    each at least :data:`CUT_PART` of it and :data:`CUT_STEP` times apart, each brightened to the die body's colour
    ``body`` by its own gain per channel (at most :data:`MOST` times, cast at most :data:`CAST`) and labelled with
    ``lut``: ``(share read as die top, gain per pixel, brightened pixels, their labels, the die-top mask)``, or None
    when the blob does not part so (:func:`cut_tops`). With ``seam`` the pixels on the two parts' border (the shade's
    penumbra, lifted by the shaded part's gain: pink specks on twin 10311's blue tops, "pink+blue") are left out of
    the mask, after the share is counted (:func:`rig.vision.dice_relief.relief_tops`, round 20)."""
    h, w = part.shape
    inside = part > 0
    window = np.s_[y : y + h, x : x + w]
    split = shade_edge_parts(lightness(work.small[window]), inside, area)
    if split is None or not 1.0 < float(body.sum()) / split[3] <= MOST:
        return None
    lit, lit_in, dark_in, _ = split
    # each part to the die body's colour, one gain per channel (the shade's light is cast: the walls', the room's)
    parts = [body / np.maximum(np.median(work.small[window][m].astype(np.float32), axis=0), 1.0) for m in (lit_in, dark_in)]
    if any(g.max() > CAST * g.min() for g in parts):
        return None
    gain = np.where(lit[..., None], np.minimum(MOST, parts[0]), parts[1]).astype(np.float32)
    bright = np.clip(work.small[window] * gain, 0, 255).astype(np.uint8)
    relabelled = label_pixels(bright, lut)
    take = inside & (cv2.LUT(relabelled, IS_TOP) > 0)
    share = np.count_nonzero(take) / area
    if seam:  # the shade's edge across the top: its penumbra's pixels, brightened by the shaded part's gain, read pink
        edge = cv2.dilate(lit_in.view(np.uint8), _K3) & cv2.dilate(dark_in.view(np.uint8), _K3)
        take &= edge == 0
    return share, gain, bright, relabelled, take


def keep_tops(work, found: list, want: int) -> list[tuple[np.ndarray, int, int, float]]:
    """The ``want`` most die-like of ``found`` (share, x, y, gain per pixel, brightened, labels, top mask), each written
    into ``work`` (:func:`_relabel`): (top mask, x, y, its largest gain) each, as :func:`_read_tops` takes them."""
    out = []
    for share, x, y, gain, bright, relabelled, take in sorted(found, key=lambda c: -c[0])[:want]:
        _relabel(work, np.s_[y : y + take.shape[0], x : x + take.shape[1]], take, relabelled, bright, gain)
        out.append((take.view(np.uint8), x, y, float(gain.max())))
    return out


def print_spot(spots: np.ndarray, cc: np.ndarray, i: int, box, a0: float, reasons: list, where) -> bool:
    """Whether blob ``i`` of ``cc`` (its ``box``: x, y, w, h, area) is the box's print: mostly on the spots
    and not a die's top there; a die-shaped blob partly off them is kept, with :data:`SPOT_REASON` at
    ``where(cx, cy)`` (its place in frame px) added to ``reasons``."""
    x, y, w, h, area = box
    part = cc[y : y + h, x : x + w] == i
    on = int(spots[y : y + h, x : x + w][part].sum())
    if 2 * on < area:
        return False
    if on > (1.0 - OFF_SPOTS) * area or not _square(part.view(np.uint8), a0, 0.7, 1.3, fill=0.7):
        return True
    reasons.append(Flag(SPOT_REASON, *where(x + w / 2, y + h / 2)))
    return False


def solid(part: np.ndarray) -> int:
    """A split part's area with its holes filled: a frog's unreadable pixels (clipped, unknown) inside a die's
    top leave a hole, not a dent (twin 8707 turn 1: two touching dice not split for a pink frog's white pixels,
    the part 0.59 of its rectangle)."""
    return int(np.count_nonzero(filled(part)))

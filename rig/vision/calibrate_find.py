"""Finding the dice of a ritual frame at calibration: what differs from the empty box (issue 24).

A die is a blob of the frame that differs from the empty box in brightness and in hue (violet), not a
shadow (which darkens the floor alike in every channel, or, under two lamps of different colour, keeps
its hue). A frame short of dice takes die-sized blobs that differ in hue only. One die fewer than were
laid is taken (:func:`ritual_dice`): a die on a spot of the box bottom as violet as the dice is lost to
the reader in play too (the count of dice thrown says so), and the colours are fitted on the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from rig.i18n import said
from rig.vision.calibrate_top import hue_blobs
from rig.vision.errors import CalibrationError


#: how far (Lab a, b) a shadow's hue may lie from the empty floor's under it to be told from a die: under two
#: lamps of different colour a die's shadow from the one is lit by the other alone (12: the floor's hue kept) ...
SHADOW_HUE = 12.0
#: ... and, looked for again when a die's top showed no frog (``shadows``), farther: twin 6005 and 6006 (seen;
#: 3040 + 6330 K, 6340 + 3080 K) — each die was found as six blobs with its warm and its blue shadow, a die's
#: "top" held the warm shadow, and the violet fitted over such tops hid a blue frog in the noise
SHADOW_HUE_LOOSE = 20.0
#: the width of the opening that leaves a die's top of a blob that differs from the empty box in hue, as a share of
#: the dice's side (``by_hue``): twin 9955 and card table 3412 (seen; violet dice on a violet felt) — the dice's
#: violet tops differ from the floor in hue, hardly in brightness, and their coloured shadows' noise clings to them
HUE_OPEN = 0.45
#: the last try's bound on the hue's difference from the empty box (Lab a, b; :data:`SHADOW_HUE` before it): 2D table
#: 41008 (round 17's fresh set, seen now) — violet blank dice on a wood tinted violet, their tops 17-20 levels darker
#: than the floor (in every channel alike, so a shadow to the first tries) and 8-13 off its hue: at 12, three of six
#: tops were found, at 7 all six (three quarters of the frame's pixels lie within 2 of the empty box's hue)
HUE_FAINT = 7.0


@dataclass
class _Frame:
    name: str
    small: np.ndarray
    masks: list = field(default_factory=list)  # one bool mask per die (small scale)
    centres: list = field(default_factory=list)
    by_hue: bool = False  # the dice found by their hue alone (``_find_dice``'s last try)


def ritual_frames(raw: dict, bg: np.ndarray, n_dice: int, scale: int = 1, shadows: bool = False) -> dict:
    """Every ritual frame's dice (:func:`ritual_dice`, ``raw``: frame by face); when one frame's are found by
    their hue alone, every frame's are looked for so (each keeps its own where that fails): twin 9955 (seen) — the
    yellow frame's first try took two dice's dark side faces and shadows for their tops, its frog fitted dark."""
    fr = {k: ritual_dice(k, v, bg, n_dice, scale, shadows) for k, v in raw.items()}
    if any(f.by_hue for f in fr.values()):
        for k, v in raw.items():
            if fr[k].by_hue:
                continue
            try:
                fr[k] = ritual_dice(k, v, bg, n_dice, scale, by_hue=True)
            except CalibrationError:
                pass
    return fr


def ritual_dice(name: str, small: np.ndarray, bg: np.ndarray, n_dice: int, scale: int = 1,
                shadows: bool = False, by_hue: bool = False) -> _Frame:
    """The dice of ritual frame ``name``: all ``n_dice``, found apart through grey shadows or (two lamps of
    different colour make shadows that keep the floor's hue and join dice) through those too; failing that,
    one die fewer (a die on a spot of the box bottom as violet as the dice: its frog may show, its body does
    not); else what the first try said is wrong. ``shadows``: apart from every shadow within
    :data:`SHADOW_HUE_LOOSE` of the floor's hue, all ``n_dice`` or one fewer. Last (``by_hue``: only), the dice
    as what differs from the empty box in hue alone, all or one fewer, then so by a fainter hue (:data:`HUE_FAINT`)."""
    tries = ((False, False, False, False), (True, False, False, False), (False, True, False, False),
             (True, True, False, False), (False, False, True, False), (False, True, True, False),
             (False, False, True, True), (False, True, True, True))
    hue = SHADOW_HUE
    if by_hue:  # every frame's dice looked for by hue as one frame's were (not so faint: a table found before is so)
        tries = tries[4:6]
    elif shadows:
        tries, hue = ((True, False, False, False), (True, True, False, False)), SHADOW_HUE_LOOSE
    first = None
    for hue_shadows, short, hue_alone, faint in tries:
        try:
            return _find_dice(name, small, bg, n_dice, scale, hue_shadows=hue_shadows, short=short, hue=hue,
                              by_hue=hue_alone, faint=faint)
        except CalibrationError as exc:
            first = first or exc
    raise first from None


def _find_dice(name: str, small: np.ndarray, bg: np.ndarray, n_dice: int, scale: int = 1,
               hue_shadows: bool = False, short: bool = False, hue: float = SHADOW_HUE, by_hue: bool = False,
               faint: bool = False) -> _Frame:
    """``short``: a frame with one die fewer than ``n_dice`` (at least four) is taken too; ``hue``: how far from
    the floor's hue a shadow keeps it (``hue_shadows``); ``by_hue``: the dice are what differs from the empty box
    in hue alone, opened to their tops (:data:`HUE_OPEN`) — the last try, when the dice's violet is the floor's
    brightness and their side faces and shadows join them or break them up; ``faint`` (with ``by_hue``, the very
    last try): a difference in hue down to :data:`HUE_FAINT` counts."""
    # a die differs from the box bottom in hue (violet), not only in brightness
    lab_f = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)[..., 1:].astype(np.float32)
    lab_b = cv2.cvtColor(bg, cv2.COLOR_BGR2Lab)[..., 1:].astype(np.float32)
    hue_d = np.hypot(*np.moveaxis(lab_f - lab_b, -1, 0))
    hue_off = hue_d > (HUE_FAINT if faint else SHADOW_HUE)
    if by_hue:
        fg = _tops_by_hue(hue_off, n_dice)
    else:
        f = small.astype(np.float32) + 4.0
        b = bg.astype(np.float32) + 4.0
        ratio = f / b
        diff = np.abs(f - b).max(axis=2)
        spread = ratio.max(axis=2) / ratio.min(axis=2)
        # a shadow darkens the floor alike in every channel, or (``hue_shadows``: two lamps of different
        # colour) keeps its hue
        shadow = ((spread < 1.3) | ((hue_d <= hue) if hue_shadows else False)) & (ratio.mean(axis=2) < 1.0)
        level = float(np.median(bg.max(axis=2)))
        fg = ((diff > max(14.0, 0.2 * level)) & ~shadow).astype(np.uint8)
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, cc, stats, cents = cv2.connectedComponentsWithStats(fg, connectivity=8)
    h, w = fg.shape
    min_area = 0.0015 * h * w
    keep = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < min_area or hue_off[cc == i].mean() < 0.3:
            continue
        on_border = x == 0 or y == 0 or x + bw >= w or y + bh >= h
        if on_border and max(bw, bh) > 4 * min(bw, bh):
            continue  # a strip along the box wall, not a die
        keep.append(i)
    if keep:  # specks (wall edges, print) are far smaller than the dice
        typical = float(np.median(sorted((stats[i, cv2.CC_STAT_AREA] for i in keep), reverse=True)[:n_dice]))
        keep = [i for i in keep if stats[i, cv2.CC_STAT_AREA] >= 0.6 * typical]
        for blob, row in hue_blobs(hue_off, np.isin(cc, keep), typical)[: max(0, n_dice - len(keep))]:
            cc[blob], stats, cents = len(stats), np.vstack([stats, row]), np.vstack([cents, np.argwhere(blob).mean(0)[::-1]])
            keep.append(len(stats) - 1)
    frame = _Frame(name, small, by_hue=by_hue)
    if not keep:
        raise CalibrationError(f"{name} frame: no dice found (is the box in view and lit?)")
    left = [i for i in keep if _left_in_empty(small, bg, cc == i)]
    if left:
        x, y = cents[left[0]]
        raise CalibrationError(
            f"the empty-box frame shows a die (or something) at ({x * scale:.0f}, {y * scale:.0f}) that the {name} "
            "frame does not: take every die out of the box and capture the empty box again"
        )
    if len(keep) != n_dice and not (short and len(keep) == n_dice - 1 >= 4):
        raise CalibrationError(_count_advice(name, [int(stats[i, cv2.CC_STAT_AREA]) for i in keep], n_dice))
    areas = np.array([stats[i, cv2.CC_STAT_AREA] for i in keep], float)
    if areas.max() > 1.9 * np.median(areas) or areas.min() < 0.45 * np.median(areas):
        raise CalibrationError(
            f"{name} frame: the dice found differ a lot in size ({int(areas.min())}..{int(areas.max())} px); "
            "spread the dice apart so none touch or lean, and keep hands out of view"
        )
    for i in keep:
        frame.masks.append(cc == i)
        frame.centres.append(tuple(cents[i]))
    return frame


#: a die found this many times the median die's size may be two dice joined (touching, or one leaning on another)
JOINED = 1.5


def _count_advice(name: str, areas: list[int], n_dice: int) -> str:
    """What to do when a ritual frame's dice found (their ``areas``) are not ``n_dice``: spread them apart when one
    found may be two joined or more were found; else, too few found and none joined, the others were not told from
    the box bottom (2D table 41008, seen: violet blank dice on a violet wood, two of six found)."""
    found = len(areas)
    if found > n_dice or max(areas) > JOINED * float(np.median(areas)):
        hint = "; is a die still in the empty-box frame? capture it again" if found < n_dice else ""
        return f"{name} frame: found {found} dice, expected {n_dice}; spread the dice apart so none touch or lean" + hint
    return said(f"{name} frame: found {found} dice, expected {n_dice}, none of them two joined; are all {n_dice} in "
                "the box and in view, and none left in the empty-box frame? If so, the box bottom hides the others "
                "(too close to the dice's colour, or too dark there): give the box a plainer bottom of another colour, "
                "or light it better")


def _tops_by_hue(hue_off: np.ndarray, n_dice: int) -> np.ndarray:
    """What differs from the empty box in hue, its specks taken off and opened to the dice's tops: by a disc of
    :data:`HUE_OPEN` of the side of the ``n_dice`` largest blobs' median area (a shadow's noise clinging to a top
    is narrower than that, a top is not)."""
    m = cv2.morphologyEx(hue_off.view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    areas = cv2.connectedComponentsWithStats(m, connectivity=8)[2][1:, cv2.CC_STAT_AREA]
    if not len(areas):
        return m
    k = int(HUE_OPEN * np.sqrt(np.median(sorted(areas, reverse=True)[:n_dice]))) | 1
    return cv2.morphologyEx(m, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


def _left_in_empty(frame: np.ndarray, empty: np.ndarray, blob: np.ndarray) -> bool:
    """Whether a difference blob is something in the empty-box frame rather than a die in this
    frame: here it looks like the floor around it, there it does not look like the floor around it
    there (each frame's own ring: a die's shadow darkens the ring here, not in the empty box)."""
    ring = cv2.dilate(blob.view(np.uint8), np.ones((9, 9), np.uint8)) > 0
    ring &= ~cv2.dilate(blob.view(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    if ring.sum() < 8:
        return False
    around = np.median(frame[ring].astype(np.float32), axis=0)
    around_there = np.median(empty[ring].astype(np.float32), axis=0)
    here = np.median(frame[blob].astype(np.float32), axis=0)
    there = np.median(empty[blob].astype(np.float32), axis=0)
    return float(np.abs(here - around).max()) < 0.4 * float(np.abs(there - around_there).max())

"""Reading a Würfelblitz throw: each die's body colour, and its pips or its colour dot.

Pure functions on a BGR frame of the box bottom seen from above. The palette and
thresholds come from the ``[colour]`` table of ``calibration/pips.toml``
(:mod:`rig.vision.coloured`); pips are counted by :func:`rig.vision.pips.count_pips`.

>>> from rig.games.blitz.render import render_blitz
>>> frame, truth = render_blitz(1)
>>> reading = read_blitz(frame)
>>> reading.status, len(reading.dice)
('ok', 8)
>>> sorted(map(str, reading.dice)) == sorted(f"{t.color}:{t.pips or 'dot=' + t.dot}" for t in truth)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from rig.vision.anydie import AnyDieParams, find_dice, read_die as read_any_die
from rig.vision.coloured import WHITE, ColourDie, colour_settings, lab, nearest_colour
from rig.vision.pipnet import default_net
from rig.vision.pips import PipCount, PipParams, check_frame, count_pips


@dataclass(frozen=True)
class BlitzReading:
    """All dice found, ``status`` ``"ok"`` or ``"uncertain"`` with the reasons."""

    dice: tuple[ColourDie, ...]
    status: str
    reasons: tuple[str, ...] = ()

    def to_request(self, variant: str = "standard") -> dict[str, Any]:
        """A ``rig score`` request for this throw."""
        return {"game": "blitz", "variant": variant, "dice": [d.to_rules() for d in self.dice]}

    def to_dict(self) -> dict[str, Any]:
        return {"game": "blitz", "status": self.status, "reasons": list(self.reasons),
                "dice": [d.to_dict() for d in self.dice]}


def read_die(crop: np.ndarray, mask: np.ndarray, params: PipParams | None = None,
             box: tuple[int, int, int, int] = (0, 0, 0, 0), *, frame: np.ndarray | None = None) -> ColourDie:
    """Read one die from its crop and body mask (1 = die).

    The pips are counted as dark-or-light blobs of the crop; with ``frame`` (the crop's whole
    frame, ``box`` its place) that count is checked by the colour-agnostic counter and the learned
    one (:func:`rig.vision.anydie.read_die`): a disagreement the first cannot settle flags the die.
    """
    s, palette = colour_settings(params)
    inner = cv2.erode(mask, np.ones((5, 5), np.uint8))
    if inner.sum() < 20:
        inner = mask
    pixels = crop[inner > 0]
    body_bgr = np.median(pixels, axis=0)
    colour, dist = nearest_colour(body_bgr, palette)
    reasons: list[str] = []
    confidence = max(0.0, 1.0 - dist / 60.0)
    # the dot: one large blob of another colour inside the body
    crop_lab = lab(crop.reshape(-1, 3)).reshape(crop.shape)
    off = ((np.linalg.norm(crop_lab - lab(np.array([body_bgr]))[0], axis=2) > s["dot_contrast"]) & (inner > 0))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(off.astype(np.uint8), connectivity=8)
    die_area = float(mask.sum())
    if n > 1:
        i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        _, _, bw, bh, area = (int(v) for v in stats[i])
        round_blob = max(bw, bh) <= 1.5 * min(bw, bh) and area >= 0.6 * bw * bh
        if area >= s["dot_min_area"] * die_area and round_blob:
            dot_bgr = np.median(crop[labels == i], axis=0)
            dot, ddist = nearest_colour(dot_bgr, palette, exclude=(colour,))
            if dot != WHITE:
                return ColourDie(colour, None, dot, box, round(confidence * max(0.0, 1.0 - ddist / 80.0), 3))
    if colour == WHITE:
        reasons.append("white die without a colour dot")
        return ColourDie(colour, None, None, box, 0.0, tuple(reasons))
    filled = crop.copy()
    filled[inner == 0] = body_bgr.astype(np.uint8)
    b, g, r = body_bgr
    light = 0.114 * b + 0.587 * g + 0.299 * r < 130
    count: PipCount = count_pips(filled, params, light_pips=bool(light))
    if frame is not None:
        count = _agree(read_any_die(frame, box, mask, _anydie(params), default_net()).count, count)
    if not 1 <= count.pips <= 6:
        reasons.append(f"{count.pips} pips found")
    reasons.extend(count.reasons)
    return ColourDie(colour, count.pips if 1 <= count.pips <= 6 else None, None, box,
                    round(confidence * count.confidence, 3), tuple(reasons))


def _agree(new: PipCount, old: PipCount) -> PipCount:
    """The body-contrast count (``old``) when it is sure; else the colour-agnostic one (``new``),
    flagged when the two disagree."""
    if old.status == "ok" or new.pips == old.pips:
        return old if old.status == "ok" or old.confidence >= new.confidence else new
    if new.status == "ok":
        return PipCount(new.pips, new.centres, new.confidence * 0.8, "uncertain",
                        (f"pip counters disagree ({new.pips} or {old.pips})",))
    return old


#: dice in a Würfelblitz throw: six coloured and two or three white
BLITZ_DICE = (8, 9)


def _anydie(params: PipParams | None) -> AnyDieParams:
    return (params or PipParams()).anydie


def read_blitz(frame: np.ndarray, params: PipParams | None = None) -> BlitzReading:
    """Read every die of a Würfelblitz throw in ``frame`` (found by :func:`rig.vision.anydie.find_dice`).

    Eight or nine dice must be seen; another number makes the reading ``uncertain``.
    """
    dice = []
    check_frame(frame)
    for (x, y, w, h), mask in find_dice(frame, _anydie(params)):
        die = read_die(frame[y:y + h, x:x + w], mask, params, (x, y, w, h), frame=frame)
        if die.pips is None and die.dot is None and die.color != WHITE:
            continue  # no pips and no dot: not a die (a shadow, a card's corner)
        dice.append(die)
    reasons = []
    for d in dice:
        if d.reasons or d.confidence < 0.5:
            reasons.append(f"{d.color} die at {d.box[:2]}: " + ("; ".join(d.reasons) or "low confidence"))
    counts: dict[str, int] = {}
    for d in dice:
        if d.color != WHITE:
            counts[d.color] = counts.get(d.color, 0) + 1
    reasons += [f"{c} die seen {n} times" for c, n in counts.items() if n > 1]
    if len(dice) not in BLITZ_DICE:
        reasons.append(f"{len(dice)} dice seen, a throw has 8 or 9")
    return BlitzReading(tuple(dice), "uncertain" if reasons else "ok", tuple(reasons))


def read_image(frame: np.ndarray, params: PipParams | None = None, *, variant: str = "standard") -> dict[str, Any]:
    """What ``rig read --game blitz`` prints: the reading, plus a ready ``rig score`` request.

    >>> from rig.games.blitz.render import render_blitz
    >>> read_image(render_blitz(1)[0], variant="twister")["request"]["variant"]
    'twister'
    """
    reading = read_blitz(frame, params)
    return {**reading.to_dict(), "request": reading.to_request(variant)}

"""Reading a Würfelblitz throw: each die's body colour, and its pips or its colour dot.

Pure functions on a BGR frame of the box bottom seen from above. The palette and
thresholds come from the ``[blitz]`` table of ``calibration/pips.toml``
(:class:`rig.vision.pips.PipParams`); pips are counted by :func:`rig.vision.pips.count_pips`.

>>> from rig.vision.render_pips import render_blitz
>>> frame, truth = render_blitz(1)
>>> reading = read_blitz(frame)
>>> reading.status, len(reading.dice)
('ok', 8)
>>> sorted(map(str, reading.dice)) == sorted(f"{t.color}:{t.pips or 'dot=' + t.dot}" for t in truth)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from rig.vision.anydie import AnyDieParams, find_dice, read_die as read_any_die
from rig.vision.pipnet import default_net
from rig.vision.pips import PipCount, PipParams, check_frame, count_pips
from rig.vision.render_pips import PALETTE

DEFAULTS = {"body_contrast": 40.0, "dot_min_area": 0.07, "min_die_area": 0.002, "max_die_area": 0.05,
            "dot_contrast": 45.0}
WHITE = "white"


@dataclass(frozen=True)
class BlitzDie:
    """One die as read: body colour, pips (or ``None``), dot colour (or ``None``), box, confidence."""

    color: str
    pips: int | None
    dot: str | None
    box: tuple[int, int, int, int]
    confidence: float
    reasons: tuple[str, ...] = ()
    x: float = 0.0  # centre, frame px (rig.vision.rolls votes readings by x, y and face)
    y: float = 0.0

    def __post_init__(self) -> None:
        if (self.x, self.y) == (0.0, 0.0) and self.box[2:] != (0, 0):
            bx, by, bw, bh = self.box
            object.__setattr__(self, "x", bx + bw / 2)
            object.__setattr__(self, "y", by + bh / 2)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def face(self) -> str:
        """What the die shows, as one string (``"green:4"``, ``"red:dot=blue"``)."""
        return str(self)

    def __str__(self) -> str:
        return f"{self.color}:{self.pips}" if self.pips is not None else f"{self.color}:dot={self.dot}"

    def to_rules(self) -> dict[str, Any]:
        """The die as ``rig.games.blitz.rules`` wants it (``{"color", "pips"}`` or ``{"color", "dot"}``)."""
        return {"color": self.color, "pips": self.pips} if self.pips is not None else {"color": self.color, "dot": self.dot}

    def to_dict(self) -> dict[str, Any]:
        return {**self.to_rules(), "x": round(self.x, 1), "y": round(self.y, 1), "box": list(self.box),
                "confidence": round(self.confidence, 3),
                "reasons": list(self.reasons)}


@dataclass(frozen=True)
class BlitzReading:
    """All dice found, ``status`` ``"ok"`` or ``"uncertain"`` with the reasons."""

    dice: tuple[BlitzDie, ...]
    status: str
    reasons: tuple[str, ...] = ()

    def to_request(self, variant: str = "standard") -> dict[str, Any]:
        """A ``rig score`` request for this throw."""
        return {"game": "blitz", "variant": variant, "dice": [d.to_rules() for d in self.dice]}

    def to_dict(self) -> dict[str, Any]:
        return {"game": "blitz", "status": self.status, "reasons": list(self.reasons),
                "dice": [d.to_dict() for d in self.dice]}


def _settings(params: PipParams | None) -> tuple[dict[str, float], dict[str, tuple[int, int, int]]]:
    blitz = dict((params or PipParams()).blitz)
    palette = {k: tuple(int(c) for c in v) for k, v in blitz.pop("colors", PALETTE).items()}
    return {**DEFAULTS, **blitz}, palette


def _lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.asarray(bgr, np.uint8).reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)


def nearest_colour(bgr: Sequence[float], palette: Mapping[str, Sequence[int]],
                   exclude: Sequence[str] = ()) -> tuple[str, float]:
    """The palette colour nearest to ``bgr`` (Lab distance), and that distance.

    >>> nearest_colour((30, 40, 190), PALETTE)[0]
    'red'
    """
    names = [n for n in palette if n not in exclude]
    refs = _lab(np.array([palette[n] for n in names]))
    d = np.linalg.norm(refs - _lab(np.array([bgr]))[0], axis=1)
    i = int(d.argmin())
    return names[i], float(d[i])


def find_blitz_dice(frame: np.ndarray, params: PipParams | None = None) -> list[tuple[tuple[int, int, int, int], np.ndarray]]:
    """Die bodies differing from the table colour: (box, mask of the box) per die."""
    s, _ = _settings(params)
    lab = cv2.cvtColor(cv2.GaussianBlur(check_frame(frame), (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    table = np.median(lab.reshape(-1, 3), axis=0)
    mask = (np.linalg.norm(lab - table, axis=2) > s["body_contrast"]).astype(np.uint8)
    h, w = mask.shape
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    found = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if not s["min_die_area"] * h * w <= area <= s["max_die_area"] * h * w:
            continue
        m = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(m)
        cv2.drawContours(filled, contours, -1, 1, -1)
        found.append(((x, y, bw, bh), filled))
    return sorted(found, key=lambda f: (f[0][1] // 40, f[0][0]))


def read_die(crop: np.ndarray, mask: np.ndarray, params: PipParams | None = None,
             box: tuple[int, int, int, int] = (0, 0, 0, 0), *, frame: np.ndarray | None = None) -> BlitzDie:
    """Read one die from its crop and body mask (1 = die).

    The pips are counted as dark-or-light blobs of the crop; with ``frame`` (the crop's whole
    frame, ``box`` its place) that count is checked by the colour-agnostic counter and the learned
    one (:func:`rig.vision.anydie.read_die`): a disagreement the first cannot settle flags the die.
    """
    s, palette = _settings(params)
    inner = cv2.erode(mask, np.ones((5, 5), np.uint8))
    if inner.sum() < 20:
        inner = mask
    pixels = crop[inner > 0]
    body_bgr = np.median(pixels, axis=0)
    colour, dist = nearest_colour(body_bgr, palette)
    reasons: list[str] = []
    confidence = max(0.0, 1.0 - dist / 60.0)
    # the dot: one large blob of another colour inside the body
    lab = _lab(crop.reshape(-1, 3)).reshape(crop.shape)
    off = ((np.linalg.norm(lab - _lab(np.array([body_bgr]))[0], axis=2) > s["dot_contrast"]) & (inner > 0))
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
                return BlitzDie(colour, None, dot, box, round(confidence * max(0.0, 1.0 - ddist / 80.0), 3))
    if colour == WHITE:
        reasons.append("white die without a colour dot")
        return BlitzDie(colour, None, None, box, 0.0, tuple(reasons))
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
    return BlitzDie(colour, count.pips if 1 <= count.pips <= 6 else None, None, box,
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


@dataclass(frozen=True)
class StartRollReading:
    """The Banana Moon start roll as read.

    ``dice`` holds one :class:`BlitzDie` per die seen, its ``color`` being the *pip* colour
    (``"white"`` or ``"black"``), so :func:`rig.vision.rolls.vote_readings` can vote several
    frames; ``white`` / ``black`` are the two values (``None`` unless exactly one such die).
    """

    dice: tuple[BlitzDie, ...]
    status: str
    reasons: tuple[str, ...] = ()

    def _value(self, kind: str) -> int | None:
        values = [d.pips for d in self.dice if d.color == kind]
        return values[0] if len(values) == 1 else None

    @property
    def white(self) -> int | None:
        return self._value("white")

    @property
    def black(self) -> int | None:
        return self._value("black")

    def to_request(self) -> dict[str, Any]:
        """A ``rig score`` request (``{"game": "banana", "white": n, "black": n}``)."""
        return {"game": "banana", "white": self.white, "black": self.black}

    def to_dict(self) -> dict[str, Any]:
        return {"game": "banana", "white": self.white, "black": self.black, "status": self.status,
                "reasons": list(self.reasons), "dice": [d.to_dict() for d in self.dice]}


def read_start_roll(frame: np.ndarray, params: PipParams | None = None) -> StartRollReading:
    """Read the Banana Moon start roll: two dice, one with white pips and one with black pips.

    Dice are found and counted by :mod:`rig.vision.anydie` (any body colour, pips lighter or
    darker than their face); a die's kind is its pips' colour, lighter or darker than its body.

    >>> from rig.vision.render_pips import render_start_roll
    >>> frame, truth = render_start_roll(4)
    >>> reading = read_start_roll(frame)
    >>> (reading.white, reading.black) == (truth["white"], truth["black"]), reading.status
    (True, 'ok')
    """
    dice: list[BlitzDie] = []
    reasons: list[str] = []
    check_frame(frame)
    for (x, y, w, h), mask in find_dice(frame, _anydie(params)):
        count = read_any_die(frame, (x, y, w, h), mask, _anydie(params), default_net()).count
        if not 1 <= count.pips <= 6:
            continue  # no pips: not a die
        body = np.median(frame[y:y + h, x:x + w][mask > 0], axis=0)
        pips = np.array([frame[int(cy), int(cx)] for cx, cy in count.centres], np.float32)
        kind = "white" if _grey(pips.mean(axis=0)) > _grey(body) else "black"
        dice.append(BlitzDie(kind, count.pips, None, (x, y, w, h), count.confidence, count.reasons))
        if count.status != "ok":
            reasons.append(f"die at {(x, y)}: " + "; ".join(count.reasons))
    for kind in ("white", "black"):
        n = sum(d.color == kind for d in dice)
        if n != 1:
            reasons.append(f"{n} dice with {kind} pips (want 1)")
    if len(dice) != 2:
        reasons.append(f"{len(dice)} dice seen, the start roll has 2")
    return StartRollReading(tuple(dice), "uncertain" if reasons else "ok", tuple(reasons))


def _grey(bgr: Sequence[float]) -> float:
    b, g, r = bgr
    return 0.114 * b + 0.587 * g + 0.299 * r


#: games whose dice :func:`read_game` reads (the others have readers of their own)
READERS = ("blitz", "banana")


def read_game(frame: np.ndarray, game: str, params: PipParams | None = None, *,
              variant: str = "standard") -> dict[str, Any]:
    """What ``rig read --game GAME`` prints: the reading, plus a ready ``rig score`` request.

    >>> from rig.vision.render_pips import render_start_roll
    >>> read_game(render_start_roll(1)[0], "banana")["request"]["game"]
    'banana'
    """
    if game == "blitz":
        reading = read_blitz(frame, params)
        return {**reading.to_dict(), "request": reading.to_request(variant)}
    if game == "banana":
        start = read_start_roll(frame, params)
        return {**start.to_dict(), "request": start.to_request()}
    from rig.vision.errors import VisionError

    raise VisionError(f"no pip-dice reader for game {game!r} (readers: {', '.join(READERS)})")

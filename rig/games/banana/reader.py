"""Reading the Banana Moon start roll: one die with white pips and one with black pips.

Dice are found and their pips read by the learned pip reader (:func:`rig.vision.anydie.read_pip_dice`,
any body colour, pips lighter or darker than their face, any die size); a die's kind is its pips'
colour, lighter or darker than its body (:func:`pip_kind`).

>>> from rig.games.banana.render import render_start_roll
>>> frame, truth = render_start_roll(4)
>>> reading = read_start_roll(frame)
>>> (reading.white, reading.black) == (truth["white"], truth["black"]), reading.status
(True, 'ok')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from rig.vision.anydie import read_pip_dice
from rig.vision.coloured import ColourDie
from rig.vision.pips import PipParams, check_frame

#: the pip colours of the two dice: the first player rolls the white pips, the second the black
KINDS = ("white", "black")


@dataclass(frozen=True)
class StartRollReading:
    """The start roll as read.

    ``dice`` holds one :class:`rig.vision.coloured.ColourDie` per die seen, its ``color`` being the
    *pip* colour (``"white"`` or ``"black"``), so :func:`rig.vision.rolls.vote_readings` can vote
    several frames; ``white`` / ``black`` are the two values (``None`` unless exactly one such die).
    """

    dice: tuple[ColourDie, ...]
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


def pip_kind(frame: np.ndarray, box: tuple[int, int, int, int]) -> str:
    """``"white"`` when the die's pips are lighter than its face, else ``"black"``: in the middle of the
    die (its top face), the pixels farthest from the face's median grey are the pips."""
    x, y, w, h = box
    mx, my = int(round(w * 0.18)), int(round(h * 0.18))
    crop = frame[max(0, y + my):max(0, y + h - my), max(0, x + mx):max(0, x + w - mx)]
    if crop.size == 0:
        return "black"
    g = crop.astype(np.float32) @ np.array([0.114, 0.587, 0.299], np.float32)
    face = float(np.median(g))
    d = (g - face).ravel()
    far = d[np.abs(d) >= np.quantile(np.abs(d), 0.88)]
    return "white" if far.mean() > 0 else "black"


def read_start_roll(frame: np.ndarray, params: PipParams | None = None) -> StartRollReading:
    """Read the start roll in ``frame``: two dice, one with white pips and one with black pips."""
    anydie = (params or PipParams()).anydie
    check_frame(frame)
    dice: list[ColourDie] = []
    reasons: list[str] = []
    for die in read_pip_dice(frame, anydie, expected=(len(KINDS),)).dice:  # one die a kind: faint dice fill the count
        count = die.count
        dice.append(ColourDie(pip_kind(frame, die.box), count.pips, None, die.box, count.confidence, count.reasons))
        if count.status != "ok":
            reasons.append(f"die at {die.box[:2]}: " + "; ".join(count.reasons))
    for kind in KINDS:
        n = sum(d.color == kind for d in dice)
        if n != 1:
            reasons.append(f"{n} dice with {kind} pips (want 1)")
    if len(dice) != 2:
        reasons.append(f"{len(dice)} dice seen, the start roll has 2")
    return StartRollReading(tuple(dice), "uncertain" if reasons else "ok", tuple(reasons))


def read_image(frame: np.ndarray, params: PipParams | None = None) -> dict[str, Any]:
    """What ``rig read --game banana`` prints: the reading, plus a ready ``rig score`` request.

    >>> from rig.games.banana.render import render_start_roll
    >>> read_image(render_start_roll(1)[0])["request"]["game"]
    'banana'
    """
    start = read_start_roll(frame, params)
    return {**start.to_dict(), "request": start.to_request()}

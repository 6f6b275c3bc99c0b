"""Reading the Banana Moon start roll: one die with white pips and one with black pips.

Dice are found and counted by :mod:`rig.vision.anydie` (any body colour, pips lighter or darker
than their face); a die's kind is its pips' colour, lighter or darker than its body.

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

from rig.vision.anydie import find_dice, read_die
from rig.vision.coloured import ColourDie, grey
from rig.vision.pipnet import default_net
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


def read_start_roll(frame: np.ndarray, params: PipParams | None = None) -> StartRollReading:
    """Read the start roll in ``frame``: two dice, one with white pips and one with black pips."""
    anydie = (params or PipParams()).anydie
    dice: list[ColourDie] = []
    reasons: list[str] = []
    check_frame(frame)
    for (x, y, w, h), mask in find_dice(frame, anydie):
        count = read_die(frame, (x, y, w, h), mask, anydie, default_net()).count
        if not 1 <= count.pips <= 6:
            continue  # no pips: not a die
        body = np.median(frame[y:y + h, x:x + w][mask > 0], axis=0)
        pips = np.array([frame[int(cy), int(cx)] for cx, cy in count.centres], np.float32)
        kind = "white" if grey(pips.mean(axis=0)) > grey(body) else "black"
        dice.append(ColourDie(kind, count.pips, None, (x, y, w, h), count.confidence, count.reasons))
        if count.status != "ok":
            reasons.append(f"die at {(x, y)}: " + "; ".join(count.reasons))
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

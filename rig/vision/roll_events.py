"""What the roll tracker tells: a roll started, settled (with its reading), cancelled, the box
cleared, dice that appeared after the last roll, a violation of the order of play, the camera lost and back (issue 29: split from
:mod:`rig.vision.rolls`, which re-exports every name).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


# -- events ------------------------------------------------------------------------------
@dataclass(frozen=True)
class RollStarted:
    """Motion began in the box (a hand coming in, dice thrown)."""

    t_us: int
    type = "roll_started"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "t_us": self.t_us, "source": "camera"}


@dataclass(frozen=True)
class RollSettled:
    """The box settled with new dice (``new_dice > 0``, roll number ``roll``) or a corrected
    reading after a knock (``new_dice == 0``, same roll number). ``reading`` is voted."""

    t_us: int
    reading: Any
    roll: int = 0
    new_dice: int = 0
    type = "roll_settled"

    def to_dict(self) -> dict[str, Any]:
        reading = self.reading.to_dict() if hasattr(self.reading, "to_dict") else self.reading
        return {"type": self.type, "t_us": self.t_us, "source": "camera", "roll": self.roll,
                "new_dice": self.new_dice, "reading": reading}


@dataclass(frozen=True)
class DiceAppeared:
    """More dice in view after the turn's last roll, none of the settled ones moved: a die the reader
    could not see before (in deep shade) or one thrown in a roll too many — the camera cannot tell, so
    the players are asked. ``seen``: dice before, ``now``: dice now; ``if_thrown``: the violations
    ``(kind, detail)`` that stand if they were thrown now. The reading comes as a ``RollSettled``
    with no new dice (the same roll, the set completed)."""

    t_us: int
    seen: int
    now: int
    if_thrown: tuple[tuple[str, str], ...] = ()
    type = "dice_appeared"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "t_us": self.t_us, "source": "camera", "seen": self.seen, "now": self.now,
                "if_thrown": [list(v) for v in self.if_thrown]}


@dataclass(frozen=True)
class RollCancelled:
    """Motion ended and no die changed (a hand or a card in view): the last reading stands."""

    t_us: int
    reason: str
    type = "roll_cancelled"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "t_us": self.t_us, "source": "camera", "reason": self.reason}


@dataclass(frozen=True)
class BoxCleared:
    """All dice were taken out of the box: the tracker starts counting rolls from zero."""

    t_us: int
    type = "box_cleared"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "t_us": self.t_us, "source": "camera"}


@dataclass(frozen=True)
class Violation:
    """A rule broken while rolling. ``kind``: one of :data:`VIOLATION_KINDS`."""

    t_us: int
    kind: str
    detail: str
    type = "violation"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "t_us": self.t_us, "source": "camera", "kind": self.kind, "detail": self.detail}


@dataclass(frozen=True)
class CameraLost:
    """The camera stopped delivering frames; tracking pauses, the game state is untouched."""

    t_us: int
    reason: str
    type = "camera_lost"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "t_us": self.t_us, "source": "camera", "reason": self.reason}


@dataclass(frozen=True)
class CameraRecovered:
    """The camera delivers frames again; tracking resumes where it was."""

    t_us: int
    type = "camera_recovered"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "t_us": self.t_us, "source": "camera"}


VIOLATION_KINDS = ("fourth_roll", "knocked_die", "no_new_die", "not_all_dice_after_three")


def not_all_cast(n: int, dice: int, roll: int) -> str:
    """The detail of ``not_all_dice_after_three``.

    >>> not_all_cast(5, 6, 3)
    '5 of 6 dice cast after roll 3'
    """
    return f"{n} of {dice} dice cast after roll {roll}"


def rolls_over(roll: int, rolls: int) -> str:
    """The detail of ``fourth_roll``.

    >>> rolls_over(4, 3)
    'roll 4: only 3 rolls are allowed'
    """
    return f"roll {roll}: only {rolls} rolls are allowed"


def thrown_unseen(seen: int, thrown: int) -> str:
    """Why a reading with fewer dice than were thrown is uncertain (the dice reader given ``thrown``, and
    the tracker after a turn's last roll).

    >>> thrown_unseen(5, 6)
    '5 of the 6 dice thrown seen (one hidden in shade?)'
    """
    return f"{seen} of the {thrown} dice thrown seen (one hidden in shade?)"

"""What the dice reader returns: each die as seen (:class:`DieObservation`) and a frame's reading
(:class:`DiceReading`: the dice, ``"ok"``/``"uncertain"`` and the reasons). Read by :func:`rig.vision.dice.read_dice`,
which imports both from here (their old import path ``rig.vision.dice`` works)."""

from __future__ import annotations

from dataclasses import dataclass

from rig.vision.light import Light


@dataclass(frozen=True)
class DieObservation:
    """One die as seen: face name, centre (px), bounding box (x, y, w, h px), confidence 0..1."""

    face: str
    x: float
    y: float
    box: tuple[int, int, int, int]
    confidence: float
    cocked: bool = False
    shares: tuple[float, float, float] = (0.0, 0.0, 0.0)  # blue, pink, yellow share of the top face
    aspect: float = 1.0  # short / long side of the top seen (with what perspective shows of its walls)
    area: float = 1.0  # the top seen, in calibrated whole tops (a leaning die's top is foreshortened)

    def to_dict(self) -> dict:
        return {
            "face": self.face,
            "x": round(self.x, 1),
            "y": round(self.y, 1),
            "box": list(self.box),
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class DiceReading:
    """All dice in one frame, and whether the reader is sure (``status`` ``"ok"``/``"uncertain"``)."""

    dice: tuple[DieObservation, ...]
    status: str
    reasons: tuple[str, ...] = ()
    light: Light | None = None  # the frame's light relative to calibration, when the profile knows its floor

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def faces(self) -> list[str]:
        return sorted(d.face for d in self.dice)

    def to_dict(self) -> dict:
        # (a reason that is a Flag leaves as its plain text: the places outside the reader take JSON's types only)
        return {
            "dice": [d.to_dict() for d in self.dice],
            "status": self.status,
            "reasons": [str(r) for r in self.reasons],
        }

    def __repr__(self) -> str:
        why = f" {list(self.reasons)}" if self.reasons else ""
        return f"<DiceReading {self.status} {self.faces}{why}>"

"""Are Lunar Laser Frogs dice fair? Face counts over logged rolls and the χ² tests of :mod:`rig.rules.fairness`.

A Lunar Laser Frogs die has six faces: one blue, one pink, one yellow frog, two blanks and one
combo face. The six dice look alike except for the combo (pink+blue on two dice, yellow+pink on
two, blue+yellow on two), so a reading of the box can be tested two ways:

- every die: blue, pink, yellow 1/6 each, blank 2/6, a combo 1/6 (4 degrees of freedom);
- the combo faces among themselves, one per die kind: each kind 1/3 (2 degrees of freedom).

>>> fair = DiceFairness.of(["blue", "pink", "yellow", "blank", "blank", "pink+blue"] * 20)
>>> fair.faces.p_value
1.0
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping

from rig.games.frogs.rules import FACE_NAMES, Face
from rig.rules.fairness import ChiSquare

CATEGORIES = ("blue", "pink", "yellow", "blank", "combo")
CATEGORY_P = (1 / 6, 1 / 6, 1 / 6, 2 / 6, 1 / 6)
COMBOS = ("pink+blue", "yellow+pink", "blue+yellow")


@dataclass(frozen=True)
class DiceFairness:
    """Face counts of Lunar Laser Frogs dice and the two χ² tests (all faces; combo kinds)."""

    counts: dict[str, int]
    faces: ChiSquare
    combos: ChiSquare

    @classmethod
    def of(cls, faces: Iterable[str]) -> DiceFairness:
        """From face names as read (``"blue+pink"`` is ``"pink+blue"``)."""
        counts = Counter(str(Face.parse(face)) for face in faces)
        per_face = {name: counts.get(name, 0) for name in FACE_NAMES}
        by_category = [per_face["blue"], per_face["pink"], per_face["yellow"], per_face["blank"],
                       sum(per_face[c] for c in COMBOS)]
        return cls(per_face, ChiSquare.test(CATEGORIES, by_category, CATEGORY_P),
                   ChiSquare.test(COMBOS, [per_face[c] for c in COMBOS], (1 / 3, 1 / 3, 1 / 3)))

    @property
    def rolls(self) -> int:
        return sum(self.counts.values())

    @property
    def verdict(self) -> str:
        """The worse of the two tests."""
        order = ("looks loaded", "suspicious", "no sign of bias", "too few rolls to tell")
        if not self.faces.enough:
            return self.faces.verdict
        verdicts = [self.faces.verdict] + ([self.combos.verdict] if self.combos.enough else [])
        return min(verdicts, key=order.index)

    def to_dict(self) -> dict:
        expected = {name: round(self.rolls * (2 / 6 if name == "blank" else 1 / 6 if name in CATEGORIES else 1 / 18), 2)
                    for name in FACE_NAMES}
        return {"rolls": self.rolls, "counts": dict(self.counts), "expected": expected,
                "faces": self.faces.to_dict(), "combos": self.combos.to_dict(), "verdict": self.verdict}

    def format(self) -> str:
        """The table ``rig history --dice`` prints."""
        expected = self.to_dict()["expected"]
        lines = [f"{self.rolls} dice", f"  {'face':<12} {'seen':>6} {'expected':>9}"]
        for name in FACE_NAMES:
            lines.append(f"  {name:<12} {self.counts[name]:>6} {expected[name]:>9.1f}")
        for title, test in (("faces (blue, pink, yellow, blank, combo)", self.faces),
                            ("combo kinds (one per die kind)", self.combos)):
            lines.append(f"χ² {title}: χ² = {test.statistic:.2f}, {test.dof} dof, p = {test.p_value:.4g} "
                         f"-> {test.verdict}")
        lines.append(f"verdict: {self.verdict}")
        return "\n".join(lines)


#: the six dice, each named by its combo face; every die also has blue, pink, yellow and two blanks
DIE_FACES = tuple(("blue", "pink", "yellow", "blank", "blank", combo) for combo in
                  ("pink+blue", "pink+blue", "yellow+pink", "yellow+pink", "blue+yellow", "blue+yellow"))


def simulate_rolls(rng, turns: int, *, loaded: Mapping[str, float] | None = None) -> list[str]:
    """The six dice rolled ``turns`` times with ``rng`` (a :class:`random.Random`): fair, or with
    ``loaded`` face weights (``{"pink": 2.0}``: every die lands pink twice as often as fair).

    >>> import random
    >>> len(simulate_rolls(random.Random(1), 10)), simulate_rolls(random.Random(1), 1)[5] in DIE_FACES[5]
    (60, True)
    """
    loaded = dict(loaded or {})
    faces: list[str] = []
    for _ in range(turns):
        for die in DIE_FACES:
            weights = [loaded.get(face, 1.0) for face in die]
            faces.append(rng.choices(die, weights)[0])
    return faces

"""Are these dice fair? Face counts over logged rolls and Pearson's χ² test, standard library only.

A Lunar Laser Frogs die has six faces: one blue, one pink, one yellow frog, two blanks and one
combo face. The six dice look alike except for the combo (pink+blue on two dice, yellow+pink on
two, blue+yellow on two), so a reading of the box can be tested two ways:

- every die: blue, pink, yellow 1/6 each, blank 2/6, a combo 1/6 (4 degrees of freedom);
- the combo faces among themselves, one per die kind: each kind 1/3 (2 degrees of freedom).

>>> fair = DiceFairness.of(["blue", "pink", "yellow", "blank", "blank", "pink+blue"] * 20)
>>> fair.faces.p_value
1.0
>>> round(chi2_sf(3.84, 1), 3), round(chi2_sf(9.49, 4), 3)
(0.05, 0.05)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from rig.rules.frogs import FACE_NAMES, Face, FrogsError

#: below this p-value the dice look loaded; below ``SUSPICIOUS_P`` they are worth watching
LOADED_P = 0.01
SUSPICIOUS_P = 0.05
#: Pearson's χ² needs about this many expected rolls in every category to be trusted
MIN_EXPECTED = 5.0

CATEGORIES = ("blue", "pink", "yellow", "blank", "combo")
CATEGORY_P = (1 / 6, 1 / 6, 1 / 6, 2 / 6, 1 / 6)
COMBOS = ("pink+blue", "yellow+pink", "blue+yellow")


class FairnessError(FrogsError):
    """Counts that cannot be tested (negative, mismatched, no categories)."""


def _gamma_series(a: float, x: float) -> float:
    """The regularised lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(1000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """The regularised upper incomplete gamma Q(a, x) by Lentz's continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, dof: int) -> float:
    """P(χ² with ``dof`` degrees of freedom >= ``x``): the p-value of a χ² statistic.

    >>> chi2_sf(0, 3), round(chi2_sf(2, 2), 6), round(math.exp(-1), 6)
    (1.0, 0.367879, 0.367879)
    """
    if dof < 1:
        raise FairnessError(f"a χ² test needs at least 1 degree of freedom, not {dof}")
    if x <= 0:
        return 1.0
    a, half = dof / 2, x / 2
    if half < a + 1:
        return max(0.0, min(1.0, 1.0 - _gamma_series(a, half)))
    return max(0.0, min(1.0, _gamma_fraction(a, half)))


@dataclass(frozen=True)
class ChiSquare:
    """Pearson's goodness-of-fit test of ``observed`` counts against probabilities ``expected_p``."""

    categories: tuple[str, ...]
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    statistic: float
    dof: int
    p_value: float

    @classmethod
    def test(cls, categories: Sequence[str], observed: Sequence[int], expected_p: Sequence[float]) -> ChiSquare:
        """The test of ``observed`` against ``expected_p``.

        >>> ChiSquare.test(["a", "b"], [60, 40], [0.5, 0.5])
        ChiSquare(n=100, χ²=4.00, dof=1, p=0.0455: suspicious)
        """
        if not (len(categories) == len(observed) == len(expected_p)) or len(categories) < 2:
            raise FairnessError("a χ² test needs two or more categories, each with a count and a probability")
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in observed):
            raise FairnessError(f"counts must be whole numbers >= 0, not {list(observed)}")
        if abs(sum(expected_p) - 1) > 1e-9 or any(p <= 0 for p in expected_p):
            raise FairnessError("the probabilities must be > 0 and add up to 1")
        n = sum(observed)
        expected = tuple(n * p for p in expected_p)
        statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected)) if n else 0.0
        dof = len(categories) - 1
        return cls(tuple(categories), tuple(observed), expected, statistic, dof, chi2_sf(statistic, dof) if n else 1.0)

    @property
    def n(self) -> int:
        return sum(self.observed)

    @property
    def enough(self) -> bool:
        """Every category expects at least :data:`MIN_EXPECTED` rolls (the χ² approximation holds)."""
        return self.n > 0 and min(self.expected) >= MIN_EXPECTED

    @property
    def verdict(self) -> str:
        if not self.enough:
            return "too few rolls to tell"
        if self.p_value < LOADED_P:
            return "looks loaded"
        if self.p_value < SUSPICIOUS_P:
            return "suspicious"
        return "no sign of bias"

    def __repr__(self) -> str:
        return f"ChiSquare(n={self.n}, χ²={self.statistic:.2f}, dof={self.dof}, p={self.p_value:.3g}: {self.verdict})"

    def to_dict(self) -> dict:
        return {"categories": list(self.categories), "observed": list(self.observed),
                "expected": [round(e, 2) for e in self.expected], "chi2": round(self.statistic, 3),
                "dof": self.dof, "p_value": self.p_value, "n": self.n, "enough": self.enough,
                "verdict": self.verdict}


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

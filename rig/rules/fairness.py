"""Are these dice fair? Pearson's χ² test of face counts, standard library only.

The shared half of a game's die-fairness test (a game's rules say which faces a die has and how
often each should come up: its ``dice_fairness`` hook in the registry):

>>> ChiSquare.test(["odd", "even"], [50, 50], [0.5, 0.5]).p_value
1.0
>>> round(chi2_sf(3.84, 1), 3), round(chi2_sf(9.49, 4), 3)
(0.05, 0.05)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from rig.errors import RigError

#: below this p-value the dice look loaded; below ``SUSPICIOUS_P`` they are worth watching
LOADED_P = 0.01
SUSPICIOUS_P = 0.05
#: Pearson's χ² needs about this many expected rolls in every category to be trusted
MIN_EXPECTED = 5.0

class FairnessError(RigError):
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


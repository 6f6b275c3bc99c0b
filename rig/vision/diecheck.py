"""A second opinion on the learned reader's dice that can only flag: is this really a die, read right?

The pip reader (:mod:`rig.vision.dicenet`) was trained with the photo sets' floors as "not a die";
a coin, a knot in the wood, a screw head or a card corner about a die's size, and at a pyramid level
too fine a large die's pip, it often reads as a die showing 1 (a screw's cross: 4) with confidence.
This check sees what the reader saw — its hidden layer (96 numbers), its seven probabilities, the
finder's score — and how the die's side compares with the frame's other candidates', and gives the
probability that an ``ok`` there would be right. Below ``[anydie] check_ok`` the die is flagged
(never dropped, never made ``ok``): the frame then asks for help instead of counting a false die.

A logistic regression (``calibration/diecheck.npz``: 108 weights, a bias, the inputs' means and
spreads), fitted by ``scripts/train_diecheck.py`` on the *tuning* photos only (and rendered two-die pip games'
start rolls): the dice the reader reports ``ok`` there at four scales, with things that are not dice
drawn in (other seeds and sizes than the benchmark's).

>>> import numpy as np
>>> check = DieCheck(np.ones(2), 0.0, np.zeros(2), np.ones(2))
>>> round(float(check.likeness(np.array([[0.0, 0.0], [2.0, 1.0]]))[1]), 3)
0.953
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import numpy as np

from rig.vision.errors import VisionError

WEIGHTS = Path(__file__).resolve().parents[2] / "calibration" / "diecheck.npz"


class DieCheckError(VisionError):
    """The check's weight file is unreadable."""


def features(hidden: np.ndarray, probs: np.ndarray, score: float, side: float, sides: Sequence[float]) -> np.ndarray:
    """One candidate's inputs: the reader's hidden layer and probabilities, the finder's score, its pip
    count's probability, and log(its side / the median side of the frame's other candidates) (0 alone)."""
    others = sorted(sides)
    ratio = math.log(side / others[len(others) // 2]) if others and others[len(others) // 2] > 0 else 0.0
    k = 1 + int(np.argmax(probs[1:]))
    extra = np.array([score, float(probs[k]), ratio, abs(ratio), float(k == 1)], np.float32)
    return np.concatenate([np.asarray(hidden, np.float32).ravel(), np.asarray(probs, np.float32).ravel(), extra])


class DieCheck:
    """The fitted check: standardised inputs, weights ``w`` and bias ``b``."""

    def __init__(self, w: np.ndarray, b: float, mean: np.ndarray, std: np.ndarray) -> None:
        self.w, self.b, self.mean, self.std = np.asarray(w, np.float64), float(b), np.asarray(mean), np.asarray(std)

    def likeness(self, x: np.ndarray) -> np.ndarray:
        """Per row of ``x`` (:func:`features`), the probability that the reader's ``ok`` there is right."""
        z = ((np.atleast_2d(x) - self.mean) / self.std) @ self.w + self.b
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> "DieCheck":
        try:
            with np.load(path) as z:
                return cls(z["w"], float(z["b"]), z["mean"], z["std"])
        except (OSError, KeyError, ValueError) as exc:
            raise DieCheckError(f"cannot read the die check {path}: {exc}") from None

    def save(self, path: Path) -> None:
        np.savez(path, w=self.w.astype(np.float32), b=np.float32(self.b), mean=self.mean.astype(np.float32),
                 std=self.std.astype(np.float32))


_CACHE: list[DieCheck | None] = []


def default_check() -> DieCheck | None:
    """The shipped check, loaded once; ``None`` when its file is absent."""
    if not _CACHE:
        _CACHE.append(DieCheck.load() if WEIGHTS.exists() else None)
    return _CACHE[0]


def candidate_features(candidates) -> np.ndarray | None:
    """:func:`features` of every candidate (:class:`rig.vision.dicenet.Candidate`) against the others;
    ``None`` when the reader gave no hidden layer."""
    if not candidates or any(c.features is None for c in candidates):
        return None
    sides = [c.side for c in candidates]
    return np.stack([features(c.features, c.probs, c.score, c.side, sides[:i] + sides[i + 1:])
                     for i, c in enumerate(candidates)])


def check_needed(c, p) -> float:
    """The second opinion an ``ok`` die (a :class:`rig.vision.dicecandidate.Candidate`, judged by
    :class:`rig.vision.anydie_params.AnyDieParams`) needs: ``check_ok``; a die read as 1 (a coin, a knot, a card
    corner's printed dot) ``one_check_ok``; one the finder's second pass alone found ``alone_check_ok``; the most."""
    return max(p.check_ok, p.one_check_ok if c.pips == 1 else 0.0, p.alone_check_ok if c.alone else 0.0)

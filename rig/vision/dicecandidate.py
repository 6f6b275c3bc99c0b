"""One die as the learned pip reader's nets see it (:class:`Candidate`; :meth:`rig.vision.dicenet.DiceNet.candidates`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Candidate:
    """One die as the nets see it: centre and side (frame px), the finder's score, the reader's
    class probabilities (index 0 = not a die, k = k pips)."""

    x: float
    y: float
    side: float
    score: float
    probs: np.ndarray
    #: the reader's hidden layer (96 numbers) for the second opinion (:mod:`rig.vision.diecheck`); None: not had
    features: np.ndarray | None = field(default=None, compare=False, repr=False)
    #: found only by the finder's second pass (:meth:`rig.vision.dicenet.DiceNet.normalised`), no first-pass peak on it: ``ok`` only
    #: when the reader and the second opinion are surer (``[anydie] alone_read_ok``, ``alone_check_ok``)
    alone: bool = False
    #: read again in a box of the frame's dice size or of its body, its own on part of a die (:mod:`rig.vision.diegrow`,
    #: :mod:`rig.vision.diebody`): flagged
    grown: bool = False

    @property
    def box(self) -> tuple[int, int, int, int]:
        h = self.side / 2
        return (int(round(self.x - h)), int(round(self.y - h)), int(round(self.side)), int(round(self.side)))

    @property
    def pips(self) -> int:
        """The most likely pip count, 1–6 (class 0 aside)."""
        return 1 + int(np.argmax(self.probs[1:]))

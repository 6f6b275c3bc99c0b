"""Stand-ins for the pip reader's nets in the tests of the rules around them (rig.vision.die*)."""

import numpy as np


def probs(k: int, pk: float) -> np.ndarray:
    """The reader's seven probabilities (no die, 1-6 pips) with ``k`` at ``pk`` and the rest alike."""
    p = np.full(7, (1 - pk) / 6, np.float32)
    p[k] = pk
    return p


class SureReader:
    """A reader that reads every crop as ``k`` pips ``pk`` sure; ``crops`` holds what it was given."""

    crop = 48

    def __init__(self, k: int, pk: float) -> None:
        self.k, self.pk, self.crops = k, pk, []

    def read_features(self, crops):
        self.crops += crops
        return np.stack([probs(self.k, self.pk) for _ in crops]), np.zeros((len(crops), 96), np.float32)


def crop_box(frame, x, y, side, size):
    """A crop that is only its box (x, y, side): what a :class:`SureReader` was asked to read is seen."""
    return (x, y, side)

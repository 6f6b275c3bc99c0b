"""Small dice read again turned: the reader's four quarter turns of a small die's crop averaged (issue 25, round 32).

A die under :data:`SMALL_SIDE` frame px fills the reader's crop (:data:`rig.vision.dicenet.CROP` px) from a few
hundred frame pixels, its pips two or three pixels wide: the reader reads many such dice unsurely, and a crop turned
by a quarter (the same pixels in another order, nothing resampled) is another look at them, as likely right as the
first (the reader was trained on dice turned every way). A die read less surely than :data:`SMALL_SURE` is read
again turned by 90, 180 and 270 degrees, each reading as :meth:`rig.vision.dicenet.DiceNet.read_features` gives it
(mirrored too when unsure), the four averaged, its hidden layer alike. Measured in docs/games.md "Small dice read
four ways".
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: dice narrower than this (frame px) read unsurely are read again turned (0: never)
SMALL_SIDE = 22.0
#: ... when their likeliest count (1-6) is less sure than this
SMALL_SURE = 0.9


def turned_views(crop: np.ndarray, turns=(0, 1, 2, 3), mirrored: bool = False) -> list[np.ndarray]:
    """``crop`` turned each of ``turns`` quarter turns, each (``mirrored``) followed by itself mirrored left to right,
    contiguous as the reader takes its crops."""
    views = []
    for k in turns:
        turned = np.rot90(crop, k)
        views.append(np.ascontiguousarray(turned))
        if mirrored:
            views.append(np.ascontiguousarray(turned[:, ::-1]))
    return views


def read_turned(keys, memo: dict, crop: Callable[[float, float, float], np.ndarray],
                read: Callable[[list], tuple]) -> None:
    """Each die (x, y, side) of ``keys`` narrower than :data:`SMALL_SIDE` whose reading in ``memo`` ((x, y, side) ->
    (class probabilities, hidden layer or None)) is less sure than :data:`SMALL_SURE`, read again turned (``crop``:
    its crop; ``read``: crops -> (probabilities, hidden layer or None)), its entry replaced by the four turns' mean."""
    todo = [k for k in dict.fromkeys(keys) if k[2] < SMALL_SIDE and float(memo[k][0][1:].max()) < SMALL_SURE]
    if not todo:
        return
    crops = [crop(*k) for k in todo]
    probs, hidden = read([view for c in crops for view in turned_views(c, (1, 2, 3))])
    for i, k in enumerate(todo):
        p, f = memo[k]
        turns = slice(3 * i, 3 * i + 3)
        memo[k] = ((p + probs[turns].sum(axis=0)) / 4,
                   None if f is None or hidden is None else (f + hidden[turns].sum(axis=0)) / 4)

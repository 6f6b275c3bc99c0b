"""A frog colour's model from the frog pixels of its ritual frame: the frog itself, not its eyes or the blend of
its edge with the die body.

The frog pixels fall in three k-means clusters; the colour is fitted on one of them and widened to the pixels
near it. Which one: the largest (the first fit), the one most dice show (:data:`DIE_SHOWS`, the ``most`` retry of a
:class:`~rig.vision.errors.FewFrogError`, issue 24 round 19), or the one farthest from the die body (the ``core``
retry of a :class:`~rig.vision.errors.BackgroundError` on that colour, issue 24 round 20: twin 10309, seen — on a
noisy felt the yellow frog pixels' largest cluster was their blend with the violet body, Lab 165, 134, 145 of 214
pixels, beside the frog's own 210, 132, 194; the yellow fitted from it, its b spread 19.7, lay 2.7 from the felt)."""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.profile import ColourModel

#: a die shows a frog colour's cluster when this share of its frog pixels lies in it (the ``most`` retry of a
#: :class:`FewFrogError`, issue 24 round 19: twin 10208, seen — the lamp's sheen on two of the six dice's blue frog
#: outweighed in pixels the four others' blue, split by lightness in two clusters)
DIE_SHOWS = 0.25


def fit_mode(lab: np.ndarray, dice: np.ndarray | None = None, away: ColourModel | None = None) -> ColourModel:
    """The main colour among frog pixels ``lab`` (N x 3): the largest of three clusters; with ``dice`` (each
    pixel's die) the cluster most dice show (:data:`DIE_SHOWS` of a die's frog pixels in it; ties by size); with
    ``away`` (the die body's model) the cluster farthest from it."""
    data = lab.astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    cv2.setRNGSeed(1)
    _, labels, _ = cv2.kmeans(data, 3, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    size = np.bincount(labels.ravel(), minlength=3)
    main = size.argmax()
    if dice is not None:
        share = np.zeros((int(dice.max()) + 1, 3))
        np.add.at(share, (dice, labels.ravel()), 1.0)
        shown = (share / share.sum(axis=1, keepdims=True) >= DIE_SHOWS).sum(axis=0)
        main = max(range(3), key=lambda j: (shown[j], size[j]))
    if away is not None:
        far = [ColourModel.fit(lab[labels.ravel() == j]).separation(away) if size[j] >= 3 else 0.0 for j in range(3)]
        main = int(np.argmax(far))
    model = ColourModel.fit(lab[labels.ravel() == main])
    for _ in range(2):
        d = lab - np.array(model.mean)
        d2 = np.einsum("ij,jk,ik->i", d, np.linalg.inv(np.array(model.cov)), d)
        model = ColourModel.fit(lab[d2 < 12.0])
    return model

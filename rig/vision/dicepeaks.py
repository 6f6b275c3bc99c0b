"""The learned pip finder's heat-map peaks (:func:`peaks`, each map's found once: :class:`PeakMemo`) and the
geometry the pyramid judges them by: one die found twice, a pip crowded by its face's other pips, a coarser level's
die holding a finer level's peaks (:mod:`rig.vision.dicenet`).

>>> heat = np.zeros((8, 8), np.float32); heat[3, 4] = 0.9
>>> [(x, y, round(side, 1), round(score, 2)) for x, y, side, score in peaks(heat, np.zeros((8, 8), np.float32), 0.2)]
[(18.0, 14.0, 4.0, 0.9)]
"""

from __future__ import annotations

import cv2
import numpy as np

STRIDE = 4  # finder input px per heat-map cell


def peaks(heat: np.ndarray, sides: np.ndarray, floor: float) -> list[tuple[float, float, float, float]]:
    """Local maxima of the heat map above ``floor`` as (x, y, side, score) in finder px, the
    centre refined by the 3x3 heat around the peak; a weaker peak within half a die of a stronger
    one is dropped. (The refinement and the distances are worked out for all peaks at once: the same floats, to the
    bit, as the peak-by-peak loop it replaced, :func:`peaks_one_by_one`.)"""
    top = cv2.dilate(heat, _3X3)
    ys, xs = np.nonzero((heat >= top) & (heat > floor))
    if not len(ys):
        return []
    order = np.argsort(-heat[ys, xs])
    ys, xs = ys[order], xs[order]
    k = np.arange(3)
    padded = cv2.copyMakeBorder(heat, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)  # np.pad's zeros, quicker
    w = padded[ys[:, None, None] + k[None, :, None], xs[:, None, None] + k[None, None, :]]  # n x 3 x 3
    total = w.reshape(len(w), 9).sum(axis=1)
    rows, cols = w.sum(axis=2).astype(np.float64), w.sum(axis=1).astype(np.float64)
    x = (xs + 0.5 + (cols[:, 2] - cols[:, 0]) / total) * STRIDE
    y = (ys + 0.5 + (rows[:, 2] - rows[:, 0]) / total) * STRIDE
    side = np.exp(sides[ys, xs]).astype(np.float64) * STRIDE
    # peak i lies within half a die of peak j: the same float64 operations as the loop's
    near = (x[:, None] - x[None, :]) ** 2 + (y[:, None] - y[None, :]) ** 2 <= \
        (0.5 * np.maximum(side[:, None], side[None, :])) ** 2
    kept: list[int] = []
    near_rows = near.tolist()  # looked up as Python lists: a quarter of numpy's indexing time (round 29)
    for i, row in enumerate(near_rows):  # strongest first: a peak stays unless a stronger one kept is near
        if not any(row[j] for j in kept):
            kept.append(i)
    return list(zip(x[kept].tolist(), y[kept].tolist(), side[kept].tolist(), heat[ys[kept], xs[kept]].tolist()))


_3X3 = np.ones((3, 3), np.uint8)


def peaks_one_by_one(heat: np.ndarray, sides: np.ndarray, floor: float) -> list[tuple[float, float, float, float]]:
    """:func:`peaks` as it was before issue 25's speed work, peak by peak: the reference its tests compare with."""
    top = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= top) & (heat > floor))
    padded = np.pad(heat, 1)
    found: list[tuple[float, float, float, float]] = []
    for i in np.argsort(-heat[ys, xs]):
        r, c = int(ys[i]), int(xs[i])
        w = padded[r:r + 3, c:c + 3]
        dy, dx = (w.sum(axis=1) @ np.arange(-1, 2)) / w.sum(), (w.sum(axis=0) @ np.arange(-1, 2)) / w.sum()
        x, y = (c + 0.5 + dx) * STRIDE, (r + 0.5 + dy) * STRIDE
        side = float(np.exp(sides[r, c])) * STRIDE
        if all((x - fx) ** 2 + (y - fy) ** 2 > (0.5 * max(side, fs)) ** 2 for fx, fy, fs, _ in found):
            found.append((float(x), float(y), side, float(heat[r, c])))
    return found

class PeakMemo:
    """:func:`peaks` of the finder outputs met lately, each found once: the pyramid asks for a level's peaks two or
    three times a frame (its strength, a coarser level's pips, the second pass, the candidates). The same arrays
    (``is``, the memo holding them so no other can take their place) and floor give the same list, a copy each time."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._seen: list[tuple[np.ndarray, np.ndarray, float, tuple]] = []

    def __call__(self, heat: np.ndarray, sides: np.ndarray, floor: float) -> list[tuple[float, float, float, float]]:
        for h, s, f, found in self._seen:
            if h is heat and s is sides and f == floor:
                return list(found)
        found = tuple(peaks(heat, sides, floor))
        self._seen.append((heat, sides, floor, found))
        del self._seen[:-self.size]
        return list(found)


def on_one_die(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    """Whether two peaks (x, y, side) are nearer than half the larger side: one die found twice."""
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 <= (0.5 * max(a[2], b[2])) ** 2


def nearer(a: tuple[float, float, float], b: tuple[float, float, float], share: float) -> bool:
    """Whether two peaks (x, y, side) are nearer than ``share`` of the larger side (:func:`on_one_die` asks the same
    at a half, the bound itself counted near)."""
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 < (share * max(a[2], b[2])) ** 2


def merged(points: list[tuple[float, float, float]], key: list[float]) -> list[int]:
    """The indices of ``points`` (x, y, side) left when the weaker (``key``) of two on one die
    (:func:`on_one_die`) goes, strongest first."""
    kept: list[int] = []
    for i in sorted(range(len(points)), key=lambda i: -key[i]):
        if not any(on_one_die(points[i], points[k]) for k in kept):
            kept.append(i)
    return kept


#: a peak read this surely as showing 2-6 pips is a die, never a pip of a coarser level's die (:func:`shows_pips`)
PIPS_SURE = 0.9


def shows_pips(probs: np.ndarray) -> bool:
    """Whether the reader's class probabilities say surely (:data:`PIPS_SURE`) that the crop shows 2 to 6 pips: a
    pip has none, so a finer level's peak read so inside a coarser level's sure die is a die of its own (two small
    dice side by side are seen by a coarse level as one die showing 2), not that die's pip."""
    return PIPS_SURE > 0 and float(probs[2:].max()) >= PIPS_SURE


def _inside(x: float, y: float, bx: float, by: float, side: float) -> bool:
    return abs(x - bx) < side / 2 and abs(y - by) < side / 2


def pip_of_bigger(x: float, y: float, peaks_here, bigger, least: int = 2) -> bool:
    """Whether the peak at (x, y) lies in one of the ``bigger`` dice ((x, y, side), a coarser level's) that
    holds ``least`` (two) or more of ``peaks_here`` ((x, y, ...)): then they are that die's pips."""
    return any(_inside(x, y, bx, by, side) and sum(_inside(px, py, bx, by, side) for px, py, *_ in peaks_here) >= least
               for bx, by, side in bigger)


def crowded(x: float, y: float, side: float, others, near: float = 0.75) -> bool:
    """Whether another of ``others`` ((x, y, side, score)) lies nearer to (x, y) than ``near`` x ``side``:
    dice, even touching, are a side apart; pips of one face are closer."""
    return any(0 < (x - ox) ** 2 + (y - oy) ** 2 < (near * side) ** 2 for ox, oy, *_ in others)

"""The die's size at calibration, from its flat top face (issue 24).

What differs between a ritual frame and the empty box is more than the die's top: under a
lamp at a slant and a camera that sees the side walls facing the optical centre, the changed
area also holds the die's sides and its shadow — on the path-traced twin 10-50 % too wide a
die. The top face is what the reader measures everything against: the violet, evenly lit
square inside each die's changed area, measured on the full-resolution frame.
"""

from __future__ import annotations

import cv2
import numpy as np

RIM = 1.07  # the printed top reaches past its evenly lit part: the rounded rim turns from the light


def top_side(frame: np.ndarray, masks: list[np.ndarray], scale: int) -> float | None:
    """Median side (full-resolution px) of the dice's lit top faces in the blank ritual frame
    (``masks``: each die's changed area at 1/``scale``), or None when too few tops measure."""
    H, W = frame.shape[:2]
    sides = []
    for m in masks:
        ys, xs = np.nonzero(m)
        if len(xs) < 8:
            continue
        x0, y0 = max(0, (xs.min() - 1) * scale), max(0, (ys.min() - 1) * scale)
        x1, y1 = min(W, (xs.max() + 2) * scale), min(H, (ys.max() + 2) * scale)
        crop = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2Lab).astype(np.float32)
        sub = m[max(0, y0 // scale) : y1 // scale, max(0, x0 // scale) : x1 // scale].astype(np.uint8)
        inside = cv2.resize(sub, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST)
        core = cv2.erode(inside, np.ones((5, 5), np.uint8), iterations=2) > 0
        if core.sum() < 16:
            continue
        L = crop[..., 0]
        ref = np.percentile(L[core], 75)
        ab = np.median(crop[core & (L >= ref)][:, 1:], axis=0)  # the lit top's hue, not a shadow's
        top = (inside > 0) & (L >= 0.72 * ref) & (np.hypot(crop[..., 1] - ab[0], crop[..., 2] - ab[1]) < 14)
        top = cv2.morphologyEx(top.view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, cc, stats, _ = cv2.connectedComponentsWithStats(top, connectivity=4)
        if n < 2:
            continue
        i = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
        (_, _), (w, h), _ = cv2.minAreaRect(cv2.findNonZero((cc == i).view(np.uint8)))
        if min(w, h) >= 0.7 * max(w, h):  # a square top, not a sliver of lit side
            sides.append(float(np.sqrt(w * h)))
    if len(sides) < max(3, len(masks) // 2):
        return None
    return RIM * float(np.median(sides))


def within_cov(tops: list[np.ndarray]) -> np.ndarray:
    """The violet's spread inside one die top (Lab covariance pooled over the blank ritual's dice,
    each about its own median): camera noise and the top's own shading, without what differs from
    die to die — a lamp at a slant, a second lamp of another colour, deep shade at one wall."""
    centred = [t - np.median(t, axis=0) for t in tops if len(t) >= 10]
    return np.cov(np.concatenate(centred).T) + np.eye(3)


def frog_pixels(lab: np.ndarray, body_mean, body_cov, within: np.ndarray) -> np.ndarray:
    """Which Lab pixels of a ritual die's top are its frog: far from the body colour of all the dice
    (Mahalanobis > 5) or, when the light differs a lot from die to die (a blue frog in warm light
    is no farther from the violet than a die in shade is), far from this die's own violet — the
    median of its pixels nearest the body colour — in the die's own spread."""
    d = lab - np.asarray(body_mean)
    d2 = np.einsum("ij,jk,ik->i", d, np.linalg.inv(np.asarray(body_cov)), d)
    frog = d2 > 25.0
    if frog.mean() >= 0.04:
        return frog
    own = np.median(lab[d2 <= np.percentile(d2, 30)], axis=0)
    d = lab - own
    return np.einsum("ij,jk,ik->i", d, np.linalg.inv(within), d) > 25.0


def hue_blobs(hue_off: np.ndarray, taken: np.ndarray, typical: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Die-sized blobs of a ritual frame that differ from the empty box in hue (``hue_off``) and lie
    apart from the dice already found (``taken``): a die the brightness difference misses or breaks
    up — a blue frog in a blue lamp's light, a dark die over a dark print. Each as (mask, stats row:
    x, y, w, h, area), largest first; ``typical``: the area of a die found."""
    m = cv2.morphologyEx(hue_off.view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    near = cv2.dilate(taken.view(np.uint8), np.ones((5, 5), np.uint8)) > 0
    n, cc, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        blob = cc == i
        if 0.6 * typical <= area <= 1.6 * typical and max(bw, bh) <= 2 * min(bw, bh) and not (blob & near).any():
            out.append((blob, stats[i]))
    return sorted(out, key=lambda b: -int(b[1][4]))

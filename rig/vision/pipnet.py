"""A small learned pip counter: one hidden layer on a die's contrast map, numpy only.

The input is polarity- and colour-free: the die's crop at 24x24 px, each pixel's Lab distance to
the face's median colour, scaled by the crop's own contrast, and how many pip-like blobs (lighter,
darker, either) that map holds at five thresholds. The output is one of seven classes:
0 (not a die: a shadow, a wall's corner) and 1–6 pips, with a probability. The weights
(``calibration/pipnet.npz``, about 60 k numbers) are trained by ``scripts/train_pipnet.py`` from
the *tuning* photos of the two shared photo sets only; the held-out photos are never seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from rig.vision.errors import VisionError

#: The weights shipped with the rig.
DEFAULT_WEIGHTS = Path(__file__).resolve().parents[2] / "calibration" / "pipnet.npz"
SIDE = 24
GROW = 1.15  # the crop is the die's box grown to this many times its longer side, square


class PipNetError(VisionError):
    """The weight file is missing or not a pip net's."""


def crop_square(frame: np.ndarray, box: tuple[float, float, float, float], grow: float = GROW) -> np.ndarray:
    """A square crop centred on ``box`` (x, y, w, h), ``grow`` x its longer side, edge pixels replicated."""
    x, y, w, h = box
    side = max(2, int(round(max(w, h) * grow)))
    cx, cy = x + w / 2, y + h / 2
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    H, W = frame.shape[:2]
    pad = max(0, -x0, -y0, x0 + side - W, y0 + side - H)
    if pad:
        frame = cv2.copyMakeBorder(frame, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        x0, y0 = x0 + pad, y0 + pad
    return frame[y0:y0 + side, x0:x0 + side]


THRESHOLDS = (0.25, 0.35, 0.45, 0.55, 0.7)
BLOB_PX = 48
N_FEATURES = SIDE * SIDE + 3 * len(THRESHOLDS) * 8


def _blob_counts(dist: np.ndarray, lighter: np.ndarray) -> list[float]:
    """One-hot counts (0..7+) of pip-sized round blobs at several thresholds, lighter/darker/either."""
    out: list[float] = []
    n = dist.shape[0]
    lo, hi = (0.045 * n) ** 2, (0.3 * n) ** 2
    for polarity in (lighter, ~lighter, None):
        for t in THRESHOLDS:
            mask = dist > t
            if polarity is not None:
                mask &= polarity
            _, _, stats, cents = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
            w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
            c = cents[1:]
            ok = ((area >= lo) & (area <= hi) & (np.maximum(w, h) <= 2.2 * np.minimum(w, h))
                  & (area >= 0.45 * w * h) & (c >= 0.1 * n).all(axis=1) & (c <= 0.9 * n).all(axis=1))
            count = int(ok.sum())
            onehot = [0.0] * 8
            onehot[min(count, 7)] = 1.0
            out += onehot
    return out


def _upright(lab: np.ndarray) -> np.ndarray:
    """The Lab crop turned so the die's edges run along the axes (float32): the die is what differs
    from the crop's border (the floor), its angle that of its minimum-area rectangle."""
    n = lab.shape[0]
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]).astype(np.float32)
    d = np.abs(lab.astype(np.float32) - np.median(border, axis=0)).sum(axis=2)
    mask = (d > max(25.0, float(np.percentile(d, 50)))).astype(np.uint8)
    k, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = lab.astype(np.float32)
    if k < 2:
        return out
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(labels == i)
    if len(xs) < 20:
        return out
    angle = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))[2] % 90.0
    if angle > 45.0:
        angle -= 90.0
    m = cv2.getRotationMatrix2D((n / 2, n / 2), angle, 1.0)
    return cv2.warpAffine(out, m, (n, n), borderMode=cv2.BORDER_REPLICATE)


def features(crop: np.ndarray) -> np.ndarray:
    """A square BGR crop's features: its contrast map (SIDE x SIDE, each pixel's Lab distance to the
    face's median, scaled by the crop's contrast) and counts of pip-like blobs at several thresholds."""
    big = cv2.resize(crop, (BLOB_PX, BLOB_PX), interpolation=cv2.INTER_AREA)
    lab = _upright(cv2.cvtColor(big, cv2.COLOR_BGR2LAB))
    q = BLOB_PX // 4
    face = np.median(lab[q:BLOB_PX - q, q:BLOB_PX - q].reshape(-1, 3), axis=0)
    d = lab - face
    dist = np.sqrt(d[..., 0] ** 2 + 2.0 * (d[..., 1] ** 2 + d[..., 2] ** 2))
    dist = np.clip(dist / max(20.0, float(np.percentile(dist, 95))), 0.0, 1.5)
    small = cv2.resize(dist, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    return np.concatenate([small.ravel(), np.array(_blob_counts(dist, d[..., 0] > 0), np.float32)])


@dataclass(frozen=True)
class PipNet:
    """``x -> relu(x W1 + b1) W2 + b2 -> softmax`` over classes 0 (not a die), 1–6."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    mean: np.ndarray
    std: np.ndarray

    @classmethod
    def load(cls, path: str | Path | None = None) -> "PipNet":
        path = Path(path) if path is not None else DEFAULT_WEIGHTS
        try:
            with np.load(path) as data:
                net = cls(*(np.asarray(data[k], np.float32) for k in ("w1", "b1", "w2", "b2", "mean", "std")))
        except FileNotFoundError:
            raise PipNetError(f"pip net weights {path} do not exist (run scripts/train_pipnet.py)") from None
        except (OSError, KeyError, ValueError) as exc:
            raise PipNetError(f"cannot read pip net weights {path}: {exc}") from None
        if net.w1.shape[0] != N_FEATURES or net.w2.shape[1] != 7:
            raise PipNetError(f"{path}: weights of shape {net.w1.shape}/{net.w2.shape}, not a {SIDE}x{SIDE} pip net")
        return net

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2, mean=self.mean, std=self.std)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities for feature rows ``x`` (N x SIDE², or one row)."""
        x = (np.atleast_2d(x).astype(np.float32) - self.mean) / self.std
        z = np.maximum(x @ self.w1 + self.b1, 0.0) @ self.w2 + self.b2
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def classify(self, frame: np.ndarray, box: tuple[float, float, float, float]) -> tuple[int, float]:
        """(class, probability) of the die at ``box``: 0 = not a die, else its pips."""
        p = self.probabilities(features(crop_square(frame, box)))[0]
        k = int(p.argmax())
        return k, float(p[k])


_CACHE: dict[Path, PipNet] = {}


def default_net() -> PipNet | None:
    """The shipped net, loaded once; ``None`` when the weight file is absent (the classical counter alone)."""
    if DEFAULT_WEIGHTS not in _CACHE:
        if not DEFAULT_WEIGHTS.exists():
            return None
        _CACHE[DEFAULT_WEIGHTS] = PipNet.load(DEFAULT_WEIGHTS)
    return _CACHE[DEFAULT_WEIGHTS]

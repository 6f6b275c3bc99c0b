"""Counting the pips on a die: pure functions on numpy BGR frames.

Two ways in:

- :func:`count_pips_in_box` — the pip pattern's box is known (a label, or a die found by
  another stage): grow it by a margin, segment dark blobs, keep the ones of pip size.
- :func:`find_pip_dice` — no boxes: find bright die bodies on a darker table and count the
  pips of each (stricter size and shape tests, since side faces show too).

Thresholds come from :class:`PipParams` (``calibration/pips.toml``).

>>> import numpy as np, cv2
>>> face = np.full((60, 60, 3), 230, np.uint8)
>>> for x, y in [(15, 15), (45, 45), (30, 30)]:
...     _ = cv2.circle(face, (x, y), 5, (20, 20, 20), -1)
>>> count_pips(face, PipParams()).pips
3
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

import cv2
import numpy as np

from rig.vision.errors import FrameError, VisionError

#: The parameter file shipped with the rig.
DEFAULT_PARAMS_PATH = Path(__file__).resolve().parents[2] / "calibration" / "pips.toml"


class PipParamsError(VisionError):
    """The pip reader's parameter file is missing, unreadable or has a wrong key/value."""


@dataclass(frozen=True)
class BlobParams:
    """How a crop is segmented into pip blobs (the ``[blobs]`` table)."""

    work_px: int = 64
    min_scale: float = 2.0
    bright_percentile: float = 90.0
    dark_ratio: float = 0.7
    min_area: float = 0.004
    max_aspect: float = 2.5
    min_fill: float = 0.4
    drop_border: bool = True
    size_ratio: float = 0.5
    max_size_ratio: float = 3.0
    margin: float = 0.1
    median_reference: bool = True
    split_merged: bool = True


#: The ``[whole_die]`` overrides used when the file has none.
_WHOLE_DIE = {"size_ratio": 0.8, "max_aspect": 1.6, "min_fill": 0.6}


@dataclass(frozen=True)
class FindParams:
    """How white dice are found in a whole frame (the ``[find]`` table)."""

    threshold: float = 0.45
    close: float = 0.019
    max_saturation: float = 70.0
    min_area: float = 0.0005
    max_area: float = 0.08
    max_aspect: float = 2.2
    min_fill: float = 0.45
    top_fraction: float = 0.9
    top_close: float = 0.3


@dataclass(frozen=True)
class PipParams:
    """All pip-reader parameters; ``whole_die`` overrides ``blobs`` for whole die bodies."""

    blobs: BlobParams = BlobParams()
    whole_die: BlobParams = BlobParams(**_WHOLE_DIE)
    find: FindParams = FindParams()
    blitz: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "pip parameters") -> "PipParams":
        known = {"blobs", "whole_die", "find", "blitz"}
        unknown = set(data) - known
        if unknown:
            raise PipParamsError(f"{source}: unknown table(s) {sorted(unknown)} (known: {sorted(known)})")
        blobs = _section(BlobParams, data.get("blobs", {}), f"{source} [blobs]")
        whole = _section(BlobParams, {**{f.name: getattr(blobs, f.name) for f in fields(BlobParams)},
                                      **_WHOLE_DIE, **data.get("whole_die", {})}, f"{source} [whole_die]")
        find = _section(FindParams, data.get("find", {}), f"{source} [find]")
        return cls(blobs, whole, find, _blitz_section(data.get("blitz", {}), f"{source} [blitz]"))

    @classmethod
    def load(cls, path: str | Path | None = None) -> "PipParams":
        """Read a TOML parameter file (default: ``calibration/pips.toml``)."""
        path = Path(path) if path is not None else DEFAULT_PARAMS_PATH
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise PipParamsError(f"pip parameter file {path} does not exist") from None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise PipParamsError(f"cannot read pip parameter file {path}: {exc}") from None
        return cls.from_dict(data, source=str(path))


def _section(cls, data: Any, where: str):
    if not isinstance(data, Mapping):
        raise PipParamsError(f"{where} must be a table")
    names = {f.name: f for f in fields(cls)}
    unknown = set(data) - set(names)
    if unknown:
        raise PipParamsError(f"{where}: unknown key(s) {sorted(unknown)}")
    values = {}
    for key, value in data.items():
        default = getattr(cls(), key)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        else:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
        if not ok:
            raise PipParamsError(f"{where}: {key} must be {'true/false' if isinstance(default, bool) else 'a number ≥ 0'}, not {value!r}")
        values[key] = type(default)(value)
    return cls(**values)


_BLITZ_KEYS = {"body_contrast", "dot_contrast", "dot_min_area", "min_die_area", "max_die_area"}


def _blitz_section(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise PipParamsError(f"{where} must be a table")
    unknown = set(data) - _BLITZ_KEYS - {"colors"}
    if unknown:
        raise PipParamsError(f"{where}: unknown key(s) {sorted(unknown)}")
    out: dict[str, Any] = {}
    for key in _BLITZ_KEYS & set(data):
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise PipParamsError(f"{where}: {key} must be a number ≥ 0, not {value!r}")
        out[key] = float(value)
    if "colors" in data:
        colours = data["colors"]
        if not isinstance(colours, Mapping) or not colours:
            raise PipParamsError(f"{where}.colors must be a table of name = [B, G, R]")
        for name, bgr in colours.items():
            if not (isinstance(bgr, list) and len(bgr) == 3 and all(
                    isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in bgr)):
                raise PipParamsError(f"{where}.colors: {name} must be [B, G, R] with 0-255 each, not {bgr!r}")
        out["colors"] = {name: tuple(bgr) for name, bgr in colours.items()}
    return out


@dataclass(frozen=True)
class PipCount:
    """The pips seen in one crop: count, blob centres (crop px), confidence 0..1, status."""

    pips: int
    centres: tuple[tuple[float, float], ...] = ()
    confidence: float = 0.0
    status: str = "uncertain"
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"pips": self.pips, "confidence": round(self.confidence, 3), "status": self.status,
                "reasons": list(self.reasons)}


@dataclass(frozen=True)
class PipDie:
    """A die found in a frame: its box (x, y, w, h) in frame px and its pip count."""

    box: tuple[int, int, int, int]
    count: PipCount

    @property
    def pips(self) -> int:
        return self.count.pips

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2, y + h / 2)

    def to_dict(self) -> dict[str, Any]:
        return {"box": list(self.box), **self.count.to_dict()}


def check_frame(frame: object) -> np.ndarray:
    """``frame`` if it is a BGR image (H x W x 3, uint8), else :class:`FrameError`."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3 \
            or frame.size == 0:
        shape = getattr(frame, "shape", None)
        raise FrameError(f"expected a BGR image (H x W x 3, uint8), got {type(frame).__name__} {shape}")
    return frame


def _gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image.astype(np.float32)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)


def count_pips(image: np.ndarray, params: PipParams | BlobParams | None = None, *,
               light_pips: bool = False, whole_die: bool = False) -> PipCount:
    """Count the pips in ``image`` (a BGR or grey crop around one face's pip pattern).

    ``light_pips`` for light pips on a dark body (inverts the image); ``whole_die`` uses the
    stricter ``[whole_die]`` parameters for a crop of a whole die body.
    """
    if isinstance(params, BlobParams):
        p = params
    else:
        params = params or PipParams()
        p = params.whole_die if whole_die else params.blobs
    if image.size == 0 or min(image.shape[:2]) < 3:
        return PipCount(0, reasons=("crop too small",))
    g = _gray(image)
    if light_pips:
        g = 255.0 - g
    scale = max(p.min_scale, p.work_px / max(g.shape))
    g = cv2.resize(g, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    g = cv2.GaussianBlur(g, (3, 3), 0)
    h, w = g.shape
    bright = float(np.percentile(g, p.bright_percentile))
    mask = (g < bright * p.dark_ratio).astype(np.uint8)
    n, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < p.min_area * h * w:
            continue
        if max(bw, bh) / max(1, min(bw, bh)) > p.max_aspect or area / (bw * bh) < p.min_fill:
            continue
        if p.drop_border and (x == 0 or y == 0 or x + bw == w or y + bh == h):
            continue
        blobs.append((area, float(cents[i][0]) / scale, float(cents[i][1]) / scale))
    if not blobs:
        return PipCount(0, reasons=("no pips found",))
    areas = [b[0] for b in blobs]
    ref = float(np.median(areas)) if p.median_reference else max(areas)
    kept = []
    for area, x, y in blobs:
        if not p.size_ratio * ref <= area <= p.max_size_ratio * ref:
            continue
        # two pips blurred into one: an elongated blob of about twice the usual area
        if p.split_merged and area > 1.6 * ref:
            kept.append((area / 2, x, y))
            kept.append((area / 2, x, y))
        else:
            kept.append((area, x, y))
    reasons = []
    if len(kept) > 6:
        reasons.append(f"{len(kept)} pip-like blobs, kept the 6 largest")
        kept = sorted(kept, key=lambda b: b[0])[-6:]
    areas = np.array([a for a, _, _ in kept], float)
    spread = float(areas.std() / areas.mean()) if len(kept) > 1 else 0.0
    confidence = max(0.0, min(1.0, 1.0 - spread)) * (0.5 if reasons else 1.0)
    if len(blobs) > len(kept) and not reasons:
        confidence *= 0.9
    status = "ok" if confidence >= 0.6 and not reasons else "uncertain"
    if status == "uncertain" and not reasons:
        reasons.append("pip sizes disagree")
    kept.sort(key=lambda b: (b[2], b[1]))
    return PipCount(len(kept), tuple((round(x, 1), round(y, 1)) for _, x, y in kept),
                    round(confidence, 3), status, tuple(reasons))


def grow_box(box: tuple[float, float, float, float], margin: float,
             shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """``box`` (x, y, w, h) grown by ``margin`` x its longer side (+1 px), clipped to the frame.

    >>> grow_box((10, 10, 20, 10), 0.1, (100, 100))
    (7, 7, 26, 16)
    """
    x, y, w, h = box
    m = margin * max(w, h) + 1
    x0, y0 = int(max(0, x - m)), int(max(0, y - m))
    x1, y1 = int(min(shape[1], x + w + m)), int(min(shape[0], y + h + m))
    return (x0, y0, max(0, x1 - x0), max(0, y1 - y0))


def count_pips_in_box(frame: np.ndarray, box: tuple[float, float, float, float],
                      params: PipParams | None = None, *, light_pips: bool = False) -> PipCount:
    """Count the pips of the face whose pip pattern lies in ``box`` (x, y, w, h; frame px)."""
    params = params or PipParams()
    x, y, w, h = grow_box(box, params.blobs.margin, check_frame(frame).shape)
    return count_pips(frame[y:y + h, x:x + w], params, light_pips=light_pips)


def find_die_bodies(frame: np.ndarray, params: PipParams | None = None) -> tuple[tuple[int, int, int, int], ...]:
    """Boxes (x, y, w, h) of bright, unsaturated die bodies on a darker table."""
    f = (params or PipParams()).find
    gray = cv2.cvtColor(check_frame(frame), cv2.COLOR_BGR2GRAY)
    sat = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)[..., 1]
    h, w = gray.shape
    med, top = float(np.median(gray)), float(np.percentile(gray, 99.5))
    k = max(3, int(f.close * h) | 1)
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = ((closed > med + f.threshold * (top - med)) & (sat < f.max_saturation)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(mask, contours, -1, 1, -1)  # fill the holes big pips leave
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if not f.min_area * h * w <= area <= f.max_area * h * w:
            continue
        if max(bw, bh) / max(1, min(bw, bh)) > f.max_aspect or area / (bw * bh) < f.min_fill:
            continue
        boxes.append((x, y, bw, bh))
    return tuple(sorted(boxes, key=lambda b: (b[1], b[0])))


def top_face(die: np.ndarray, params: PipParams | None = None) -> np.ndarray:
    """The top face of a die crop (top plus side faces): the brightest connected region.

    Returns a crop of its bounding box with everything outside the face painted die-white,
    so the pips of the (darker, foreshortened) side faces do not count.
    """
    f = (params or PipParams()).find
    gray = cv2.cvtColor(die, cv2.COLOR_BGR2GRAY)
    k = max(3, int(f.top_close * min(gray.shape)) | 1)
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = (closed >= np.percentile(closed, 95) * f.top_fraction).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return die
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[i, :4])
    face = die[y:y + h, x:x + w].copy()
    inside = cv2.morphologyEx((labels[y:y + h, x:x + w] == i).astype(np.uint8), cv2.MORPH_CLOSE,
                              np.ones((5, 5), np.uint8)) > 0
    face[~inside] = np.percentile(face.reshape(-1, 3), 90, axis=0).astype(np.uint8)
    return face


def find_pip_dice(frame: np.ndarray, params: PipParams | None = None) -> tuple[PipDie, ...]:
    """Find white pip dice without labels and count the pips of each one's top face (best effort)."""
    params = params or PipParams()
    return tuple(PipDie(b, count_pips(top_face(frame[b[1]:b[1] + b[3], b[0]:b[0] + b[2]], params), params,
                                      whole_die=True))
                 for b in find_die_bodies(frame, params))

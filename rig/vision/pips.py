"""Counting the pips on a die: pure functions on numpy BGR frames.

Two ways in:

- :func:`count_pips_in_box` — the pip pattern's box is known (a label, or a die found by
  another stage): grow it by a margin, segment dark blobs, keep the ones of pip size.
- :func:`find_pip_dice` — no boxes: find white die bodies (brighter than the table around
  them) and read each one's top face with :func:`read_top_face` (the group of the largest,
  roundest pips, checked against the pip patterns of a die face; side faces show too).

Thresholds come from :class:`PipParams` (``calibration/pips.toml``).

>>> import numpy as np, cv2
>>> face = np.full((60, 60, 3), 230, np.uint8)
>>> for x, y in [(15, 15), (45, 45), (30, 30)]:
...     _ = cv2.circle(face, (x, y), 5, (20, 20, 20), -1)
>>> count_pips(face, PipParams()).pips
3
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from rig.vision.errors import FrameError
from rig.vision.pip_params import (  # noqa: F401 - moved (issue 29); the old import path works
    DEFAULT_PARAMS_PATH, PipParamsError, BlobParams, _WHOLE_DIE, FindParams, PipParams, _anydie_defaults,
    _section, _COLOUR_KEYS, _colour_section,
)


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

    def flagged(self, reason: str) -> PipDie:
        """This die, its count ``uncertain`` with ``reason`` added to its reasons (a flag: read, never dropped)."""
        c = self.count
        return PipDie(self.box, PipCount(c.pips, c.centres, c.confidence, "uncertain", c.reasons + (reason,)))

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


def _body_masks(frame: np.ndarray, f: FindParams) -> list[tuple[tuple[int, int, int, int], np.ndarray]]:
    """Die bodies: brighter than the table around them by ``contrast`` grey levels.

    The table's local brightness is a median over ``background`` x the frame height (wood grain,
    light falling off, bright patches all stay below it); pips are closed away first and each
    body is replaced by its convex hull, so pips at its edge stay inside.
    """
    gray = cv2.cvtColor(check_frame(frame), cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    k = max(3, int(f.close * h) | 1)
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    small = cv2.resize(closed, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    kb = max(3, int(f.background * h / 4) * 2 + 1)
    table = cv2.resize(cv2.medianBlur(small, kb), (w, h), interpolation=cv2.INTER_LINEAR)
    mask = (closed.astype(np.int16) - table.astype(np.int16) > f.contrast).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    bodies = []
    for c in contours:
        hull = cv2.convexHull(c)
        area = cv2.contourArea(hull)
        x, y, bw, bh = cv2.boundingRect(hull)
        if not f.min_area * h * w <= area <= f.max_area * h * w:
            continue
        if max(bw, bh) / max(1, min(bw, bh)) > f.max_aspect or area / (bw * bh) < f.min_fill:
            continue
        body = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(body, [hull - (x, y)], -1, 1, -1)
        bodies.append(((x, y, bw, bh), body))
    return sorted(bodies, key=lambda b: (b[0][1], b[0][0]))


def find_die_bodies(frame: np.ndarray, params: PipParams | None = None) -> tuple[tuple[int, int, int, int], ...]:
    """Boxes (x, y, w, h) of white die bodies, brighter than the table around them."""
    return tuple(box for box, _ in _body_masks(frame, (params or PipParams()).find))


@dataclass(frozen=True)
class _Blob:
    area: float
    x: float
    y: float
    aspect: float
    fill: float
    angle: float = 0.0  # of the long axis, degrees (image x axis = 0)


def _pip_blobs(die: np.ndarray, body: np.ndarray, f: FindParams) -> list[_Blob]:
    """Dark blobs inside the body mask (crop px): candidates for pips of any face."""
    g = _gray(die)
    s = max(2.0, f.work_px / max(g.shape))
    g = cv2.GaussianBlur(cv2.resize(g, None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC), (3, 3), 0)
    inside = cv2.resize(body, (g.shape[1], g.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    if inside.sum() < 10:
        return []
    bright = float(np.percentile(g[inside], 90))
    mask = ((g < bright * f.dark_ratio) & inside).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    hh, ww = g.shape
    blobs = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < (f.pip_min_px * s) ** 2 or x == 0 or y == 0 or x + bw == ww or y + bh == hh:
            continue
        aspect, angle = max(bw, bh) / max(1, min(bw, bh)), (0.0 if bw >= bh else 90.0)
        contours, _ = cv2.findContours((labels[y:y + bh, x:x + bw] == i).astype(np.uint8),
                                       cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        c = max(contours, key=cv2.contourArea)
        if len(c) >= 5:
            _, axes, angle = cv2.fitEllipse(c)
            aspect = max(axes) / max(1e-3, min(axes))
            angle = angle + (90.0 if axes[1] > axes[0] else 0.0)  # direction of the long axis
        blobs.append(_Blob(area / s / s, float(cents[i][0]) / s, float(cents[i][1]) / s, aspect,
                           area / (bw * bh), angle % 180.0))
    return blobs


def top_face_pips(blobs: list, link: float) -> list:
    """The pips of the top face: blobs linked by chains at most ``link`` apart, the group that looks most like
    one face (at most six pips, the largest pips, then the most of them). ``blobs`` have ``x``, ``y``, ``area``."""
    root = list(range(len(blobs)))

    def find(i: int) -> int:
        while root[i] != i:
            i = root[i]
        return i

    for i, a in enumerate(blobs):
        for j in range(i + 1, len(blobs)):
            if math.hypot(a.x - blobs[j].x, a.y - blobs[j].y) <= link:
                root[find(i)] = find(j)
    groups: dict[int, list] = {}
    for i, b in enumerate(blobs):
        groups.setdefault(find(i), []).append(b)
    return max(groups.values(), key=lambda g: (len(g) <= 6, float(np.mean([b.area for b in g])), len(g)))


def _pattern_ok(pts: np.ndarray, diameter: float, tol: float) -> bool:
    """Does the arrangement of ``pts`` look like a die face's pip pattern (seen at a slant)?

    3 pips lie on a line through the middle one; 4 are the corners of a parallelogram, 5 add
    its centre, 6 add the midpoints of two opposite sides (the two pips nearest the middle).
    """
    n = len(pts)
    if n <= 2:
        return True
    if n > 6:
        return False
    slack = tol * 2 * diameter
    centre = pts.mean(axis=0)
    dist = np.hypot(*(pts - centre).T)
    order = np.argsort(dist)
    if n == 3:
        _, sv, _ = np.linalg.svd(pts - centre)
        return bool(sv[1] < slack and dist[order[0]] < slack)
    inner = {4: 0, 5: 1, 6: 2}[n]
    if n == 4 and dist[order[0]] < slack:
        return False
    if inner == 1 and dist[order[0]] >= slack:
        return False
    if inner == 2 and (np.hypot(*(pts[order[0]] + pts[order[1]]) / 2 - centre) >= slack
                       or dist[order[2]] < slack):
        return False
    corners = pts[order[inner:]]
    # the two diagonals of a parallelogram bisect each other: pick the pairing with the longest diagonals
    pairings = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    (a, b), (c, d) = max(pairings, key=lambda p: np.hypot(*(corners[p[0][0]] - corners[p[0][1]]))
                         + np.hypot(*(corners[p[1][0]] - corners[p[1][1]])))
    return bool(np.hypot(*((corners[a] + corners[b]) - (corners[c] + corners[d])) / 2) < slack)


def read_top_face(die: np.ndarray, body: np.ndarray | None = None, params: PipParams | None = None) -> PipCount:
    """Count the pips of a die's top face in a crop of the whole die (``body``: its mask).

    The camera looks down, so the top face's pips are the largest and roundest; side faces'
    pips are foreshortened (elongated) and smaller. The round pips of about the largest size
    are grouped (pips of one face lie within ``pip_link`` pip diameters of each other), the
    group of the largest pips is the top face; its arrangement must look like a die face, or
    the count is ``uncertain``. Pips far too small or too large for the die (print on a white
    tag, a fragment of a die) read as 0 pips: not a die.
    """
    f = (params or PipParams()).find
    if body is None:
        body = np.ones(die.shape[:2], np.uint8)
    candidates = [b for b in _pip_blobs(die, body, f) if b.fill >= f.pip_min_fill]
    blobs = [b for b in candidates if b.aspect <= f.pip_max_aspect]
    if not blobs:
        return PipCount(0, reasons=("no pips found",))
    ref = float(np.median(sorted(b.area for b in blobs)[-max(1, f.ref_pips):]))
    for b in candidates:
        # two neighbouring pips run together: twice the area, twice as long as wide
        if f.pip_max_aspect < b.aspect <= f.pair_max_aspect and 1.5 * ref <= b.area <= 2.6 * ref:
            step = math.sqrt(b.area / math.pi) / 2 * math.sqrt(b.aspect)
            dx, dy = step * math.cos(math.radians(b.angle)), step * math.sin(math.radians(b.angle))
            blobs += [_Blob(b.area / 2, b.x - dx, b.y - dy, 1.0, b.fill),
                      _Blob(b.area / 2, b.x + dx, b.y + dy, 1.0, b.fill)]
    blobs = [b for b in blobs if f.pip_size_ratio * ref <= b.area <= 2.5 * ref]
    diameter = 2 * math.sqrt(ref / math.pi)
    size = diameter / math.sqrt(max(1, int(np.count_nonzero(body))))
    if not f.min_pip_size <= size <= f.max_pip_size:
        return PipCount(0, reasons=(f"pips {size:.2f} x the die's size: not a die's pips",))
    face = top_face_pips(blobs, f.pip_link * diameter)
    reasons = []
    if len(face) > 6:
        reasons.append(f"{len(face)} pip-like blobs in one group")
    elif not _pattern_ok(np.array([(b.x, b.y) for b in face]), diameter, f.pattern_tolerance):
        reasons.append(f"{len(face)} pips not in a die face's pattern")
    areas = np.array([b.area for b in face])
    spread = float(areas.std() / areas.mean()) if len(face) > 1 else 0.0
    confidence = max(0.0, min(1.0, 1.0 - spread)) * (0.5 if reasons else 1.0)
    if confidence < f.min_confidence and not reasons:
        reasons.append("pip sizes disagree")
    face.sort(key=lambda b: (b.y, b.x))
    return PipCount(len(face), tuple((round(b.x, 1), round(b.y, 1)) for b in face), round(confidence, 3),
                    "uncertain" if reasons else "ok", tuple(reasons))


def find_pip_dice(frame: np.ndarray, params: PipParams | None = None) -> tuple[PipDie, ...]:
    """Find white pip dice without labels and read each one's top face.

    A bright region without any pip-like blob is not reported (a patch of table, a reflection);
    a die whose top face cannot be read with confidence has status ``uncertain``. A body that
    reads uncertain and is ``split_area`` times the usual size is tried as two touching dice.
    """
    params = params or PipParams()
    f = params.find
    bodies = _body_masks(frame, f)
    typical = float(np.median([body.sum() for _, body in bodies])) if bodies else 0.0
    dice = []
    for box, body in bodies:
        die = _read_body(frame, box, body, params)
        if (die.count.status != "ok" and f.split_area > 0 and len(bodies) > 1
                and body.sum() >= f.split_area * typical):
            # two dice touching, found as one body: read the halves
            halves = [_read_body(frame, b, m, params) for b, m in _halves(box, body)]
            if halves and all(h.count.status == "ok" and h.pips for h in halves):
                dice.extend(halves)
                continue
        if die.pips:
            dice.append(die)
    return tuple(dice)


def _read_body(frame: np.ndarray, box: tuple[int, int, int, int], body: np.ndarray, params: PipParams) -> PipDie:
    f = params.find
    x, y, w, h = box
    m = 2 + int(f.grow * min(w, h))
    x0, y0 = max(0, x - m), max(0, y - m)
    x1, y1 = min(frame.shape[1], x + w + m), min(frame.shape[0], y + h + m)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    mask[y - y0:y - y0 + h, x - x0:x - x0 + w] = body
    if m > 2:
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * m - 3, 2 * m - 3)))
    return PipDie(box, read_top_face(frame[y0:y1, x0:x1], mask, params))


def _halves(box: tuple[int, int, int, int], body: np.ndarray) -> list[tuple[tuple[int, int, int, int], np.ndarray]]:
    """A body cut in two compact halves (k-means on its pixels), each as (box, hull mask)."""
    ys, xs = np.nonzero(body)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    if len(pts) < 8:
        return []
    cv2.setRNGSeed(0)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, _ = cv2.kmeans(pts, 2, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    out = []
    for i in range(2):
        hull = cv2.convexHull(pts[labels.ravel() == i].astype(np.int32))
        hx, hy, hw, hh = cv2.boundingRect(hull)
        mask = np.zeros((hh, hw), np.uint8)
        cv2.drawContours(mask, [hull - (hx, hy)], -1, 1, -1)
        out.append(((box[0] + hx, box[1] + hy, hw, hh), mask))
    return out

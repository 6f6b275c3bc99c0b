"""Pip dice of any colour: find the dice, count each top face's pips.

Pure functions on BGR frames. Nothing here assumes a die's body colour or its pips' colour:

- :func:`find_dice` — a die is a compact region that differs from the floor around it (Lab
  distance to a wide median of the frame: a red die on a white tray, a white die casting its
  shadow and showing its pips on a light tray, a black die on a dark floor). Regions the size of
  two or three dice are split (k-means on their pixels); long thin regions (the box's walls, a
  shadow's edge) and regions without pips are not dice.
- :func:`count_top_face` — pips contrast with their own face: the face's colour is the median of
  the die's inner pixels, a pip is a round blob far from it in Lab, lighter *or* darker (white on
  red, black on yellow, yellow on green); both polarities are tried and the one whose blobs form a
  legal pip layout wins. Glossy highlights (tiny, or not in the pattern), marbled bodies (irregular
  blobs) and side faces (smaller, elongated pips) are dropped by size, shape and grouping.
- :func:`read_pip_dice` — the frame's dice and verdict: every die read with confidence or flagged
  with a reason, and with a known dice count a missing or extra die makes the frame uncertain. By
  default it runs the learned nets of :mod:`rig.vision.dicenet` instead of the two above;
  ``net=None`` runs the classical pair alone (as here).

Thresholds are the ``[anydie]`` table of ``calibration/pips.toml`` (:class:`AnyDieParams`).

>>> import numpy as np, cv2
>>> frame = np.full((240, 320, 3), 225, np.uint8)
>>> _ = cv2.rectangle(frame, (100, 80), (140, 120), (40, 40, 200), -1)   # a red die ...
>>> for x, y in [(110, 90), (130, 110), (120, 100)]:
...     _ = cv2.circle(frame, (x, y), 4, (240, 240, 240), -1)            # ... showing 3 white pips
>>> [d.pips for d in read_pip_dice(frame, net=None).dice]
[3]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from rig.vision.anydie_params import AnyDieParams
from rig.vision.dicecandidate import Candidate
from rig.vision.dicenet import default_dicenet
from rig.vision.diepipgroup import read_dice  # dicenet's; missed dice added by colour, pips found as dice read as one
from rig.vision.dieagree import agreed
from rig.vision.diebodyread import body_reasons
from rig.vision.dieface import face_reason, surroundings
from rig.vision.dieone import one_reason
from rig.vision.diesplit import two_dice_as_one
from rig.vision.dierecheck import rereads_ok, shared_box_crops
from rig.vision.dierelit import relit_look
from rig.vision.dieturn import turned_look
from rig.vision.diewide import wide_look
from rig.vision.pips import PipCount, PipDie, _pattern_ok, check_frame, top_face_pips

__all__ = ["AnyDieParams"]  # re-exported: its home is rig.vision.anydie_params (no pips <-> anydie circle)


@dataclass(frozen=True)
class PipDiceReading:
    """The dice of one frame: each read (``ok``) or flagged; ``status`` and ``reasons`` for the frame."""

    dice: tuple[PipDie, ...]
    status: str
    reasons: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(d.pips for d in self.dice)

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "reasons": list(self.reasons), "total": self.total,
                "dice": [d.to_dict() for d in self.dice]}


Region = tuple[tuple[int, int, int, int], np.ndarray]  # box (x, y, w, h) in frame px, mask of the box


def _difference(frame: np.ndarray, p: AnyDieParams) -> tuple[np.ndarray, float, np.ndarray]:
    """Per-pixel distance from the floor at the work scale, the scale factor (work / frame), Lab."""
    h, w = frame.shape[:2]
    s = min(1.0, p.work_px / max(h, w))
    small = cv2.resize(frame, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA) if s < 1 else frame
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    sh, sw = lab.shape[:2]
    tiny = cv2.resize(lab, (max(1, sw // 4), max(1, sh // 4)), interpolation=cv2.INTER_AREA)
    k = max(3, int(p.background * max(sh, sw) / 4) | 1)
    floor = cv2.resize(cv2.medianBlur(tiny, k), (sw, sh), interpolation=cv2.INTER_LINEAR)
    d = lab.astype(np.int16) - floor.astype(np.int16)
    dist = np.abs(d[..., 0]).astype(np.float32) + p.chroma_weight * (np.abs(d[..., 1]) + np.abs(d[..., 2]))
    return dist, s, lab


def _fill_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """``mask`` with its holes smaller than ``max_area`` filled (a die's pips; not a tray's floor)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(1 - mask, connectivity=4)
    small = np.zeros(n, np.uint8)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] < max_area
    h, w = mask.shape
    for i in range(1, n):  # the floor around everything touches the frame's edge
        x, y, bw, bh, _ = stats[i]
        if x == 0 or y == 0 or x + bw == w or y + bh == h:
            small[i] = 0
    return mask | small[labels]


def _regions(mask: np.ndarray, s: float, shape: tuple[int, ...], p: AnyDieParams,
             lab: np.ndarray | None = None) -> list[Region]:
    """Components of a die's size; a larger one (dice against the box's wall, a row of touching
    dice) is segmented once more against its own median colour (the wall's)."""
    long_side = max(shape[:2])
    lo, hi = (p.min_side * long_side * s) ** 2 * 0.5, (p.max_side * long_side * s) ** 2 * 3.5
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        m = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        if lo <= area <= hi:
            out.append(((x, y, bw, bh), m))
        elif area > hi and lab is not None:
            part = lab[y:y + bh, x:x + bw]
            d = part.astype(np.int16) - np.median(part[m > 0], axis=0).astype(np.int16)
            dist = np.abs(d[..., 0]) + p.chroma_weight * (np.abs(d[..., 1]) + np.abs(d[..., 2]))
            sub = ((dist > p.contrast) & (m > 0)).astype(np.uint8)
            sub = cv2.morphologyEx(sub, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
            sub = _fill_holes(sub, hi)
            for (sx, sy, sw, sh), sm in _regions(sub, s, shape, p):
                out.append(((x + sx, y + sy, sw, sh), sm))
    return out


def _split(box: tuple[int, int, int, int], m: np.ndarray, k: int) -> list[Region]:
    """A region cut into ``k`` compact parts (k-means on its pixel positions)."""
    ys, xs = np.nonzero(m)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    if len(pts) < 4 * k:
        return [(box, m)]
    cv2.setRNGSeed(0)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, _ = cv2.kmeans(pts, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    out = []
    for i in range(k):
        part = pts[labels.ravel() == i].astype(np.int32)
        if len(part) < 4:
            continue
        hx, hy, hw, hh = cv2.boundingRect(part)
        pm = np.zeros((hh, hw), np.uint8)
        pm[part[:, 1] - hy, part[:, 0] - hx] = 1
        out.append(((box[0] + hx, box[1] + hy, hw, hh), pm))
    return out


def find_dice(frame: np.ndarray, params: AnyDieParams | None = None) -> list[Region]:
    """Candidate dice: (box, mask) in frame px, whatever their colour, touching ones split.

    Candidates still need pips (:func:`read_pip_dice` drops those without): a region of the right
    size and shape is all this stage checks.
    """
    return [r for group in find_die_groups(frame, params) for r in group[-1]]


def find_die_groups(frame: np.ndarray, params: AnyDieParams | None = None) -> list[list[list[Region]]]:
    """Per region, the ways to see it: ``[[region]]``, or ``[[region], [part, part, ...]]`` when
    it is large enough to be several touching dice (the reader keeps the whole if it reads as one die)."""
    p = params or AnyDieParams()
    frame = check_frame(frame)
    dist, s, lab = _difference(frame, p)
    mask = (dist > p.contrast).astype(np.uint8)
    k = max(3, int(p.close * max(dist.shape)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    filled = _fill_holes(mask, (p.max_side * max(dist.shape)) ** 2)
    ko = int(p.open * max(dist.shape)) | 1
    if ko >= 3:
        filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ko, ko)))
    regions = _regions(filled, s, frame.shape, p, lab if p.resegment else None)
    long_side = max(frame.shape[:2]) * s
    single = [m.sum() for (x, y, w, h), m in regions
              if max(w, h) <= 1.4 * min(w, h) and p.min_side * long_side <= max(w, h) <= p.max_side * long_side
              and m.sum() >= 0.6 * w * h]
    typical = float(np.median(single)) if single else 0.0
    out: list[list[list[Region]]] = []
    for box, m in regions:
        ways = [[(box, m)]]
        if typical and m.sum() >= p.split_area * typical:
            ways.append(_split(box, m, max(2, min(4, round(m.sum() / typical)))))
        kept = []
        for way in ways:
            dice = []
            for (x, y, w, h), pm in way:
                side = max(w, h)
                if not p.min_side * long_side <= side <= p.max_side * long_side:
                    continue
                if side / max(1, min(w, h)) > p.max_aspect or pm.sum() < p.min_fill * w * h:
                    continue
                fx, fy, fw, fh = (int(round(v / s)) for v in (x, y, w, h))
                fm = cv2.resize(pm, (max(1, fw), max(1, fh)), interpolation=cv2.INTER_NEAREST)
                dice.append(((fx, fy, fw, fh), fm))
            if dice:
                kept.append(dice)
        if kept:
            out.append(kept)
    return sorted(out, key=lambda g: (g[0][0][0][1], g[0][0][0][0]))


@dataclass(frozen=True)
class _Blob:
    area: float
    x: float
    y: float
    aspect: float


def _blobs(mask: np.ndarray, p: AnyDieParams, side: float) -> list[_Blob]:
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    hh, ww = mask.shape
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        d = math.sqrt(4 * area / math.pi)
        if not p.pip_min * side <= d <= p.pip_max * side or area < 4:
            continue
        if x == 0 or y == 0 or x + bw == ww or y + bh == hh:
            continue
        aspect = max(bw, bh) / max(1, min(bw, bh))
        if area >= 12:
            c = cv2.findContours((labels[y:y + bh, x:x + bw] == i).astype(np.uint8),
                                 cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]
            c = max(c, key=cv2.contourArea)
            if len(c) >= 5:
                (_, _), axes, _ = cv2.fitEllipse(c)
                aspect = max(axes) / max(1e-3, min(axes))
            if cv2.contourArea(c) < p.pip_solidity * cv2.contourArea(cv2.convexHull(c)):
                continue  # a crescent: a face's edge or a ring of gloss, not a pip
        if aspect > p.pip_max_aspect or area < p.pip_min_fill * bw * bh:
            continue
        out.append(_Blob(float(area), float(cents[i][0]), float(cents[i][1]), aspect))
    return out


_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


def _solid(mask: np.ndarray) -> np.ndarray:
    """Thin bridges (a face's edge touching a pip) cut, holes (a pip's glossy centre) filled."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 1, -1)
    return out


def _face(blobs: list[_Blob], p: AnyDieParams) -> tuple[list[_Blob], float]:
    """The top face's pips among ``blobs``: the group of the largest round blobs."""
    if not blobs:
        return [], 0.0
    ref = float(np.median(sorted(b.area for b in blobs)[-2:]))
    blobs = [b for b in blobs if p.pip_size_ratio * ref <= b.area <= 2.5 * ref]
    diameter = 2 * math.sqrt(ref / math.pi)
    return top_face_pips(blobs, p.pip_link * diameter), diameter


def _judge(face: list[_Blob], diameter: float, p: AnyDieParams) -> PipCount:
    if not face:
        return PipCount(0, reasons=("no pips found",))
    reasons = []
    pts = np.array([(b.x, b.y) for b in face])
    if len(face) > 6:
        reasons.append(f"{len(face)} pip-like blobs in one group")
    elif not _pattern_ok(pts, diameter, p.pattern_tolerance):
        reasons.append(f"{len(face)} pips not in a die face's pattern")
    areas = np.array([b.area for b in face])
    spread = float(areas.std() / areas.mean()) if len(face) > 1 else 0.0
    confidence = max(0.0, min(1.0, 1.0 - spread)) * (0.5 if reasons else 1.0)
    if confidence < p.min_confidence and not reasons:
        reasons.append("pip sizes disagree")
    face = sorted(face, key=lambda b: (b.y, b.x))
    return PipCount(len(face), tuple((round(b.x, 1), round(b.y, 1)) for b in face), round(confidence, 3),
                    "uncertain" if reasons else "ok", tuple(reasons))


def count_top_face(frame: np.ndarray, box: tuple[int, int, int, int], mask: np.ndarray,
                   params: AnyDieParams | None = None) -> PipCount:
    """Count the top face's pips of the die at ``box`` (``mask``: its body, box-sized, 1 = die).

    Centres in the returned count are frame px.
    """
    p = params or AnyDieParams()
    x, y, w, h = box
    side = max(w, h)
    if w == 0 or h == 0 or side < 6:
        return PipCount(0, reasons=("die too small",))
    g = int(p.grow * side)
    x0, y0 = max(0, x - g), max(0, y - g)
    x1, y1 = min(frame.shape[1], x + w + g), min(frame.shape[0], y + h + g)
    grown = np.zeros((y1 - y0, x1 - x0), np.uint8)
    grown[y - y0:y - y0 + h, x - x0:x - x0 + w] = mask
    x, y = x0, y0
    s = p.face_px / side
    crop = cv2.resize(frame[y0:y1, x0:x1], None, fx=s, fy=s, interpolation=cv2.INTER_LINEAR)
    body = cv2.resize(grown, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_NEAREST)
    e = max(1, int(p.inner * p.face_px))
    inner = cv2.erode(body, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * e + 1, 2 * e + 1)))
    if inner.sum() < 20:
        inner = body
    lab8 = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    if p.fill_floor:  # the floor around the die is not its face
        lab8[inner == 0] = np.median(lab8[inner > 0], axis=0).astype(np.uint8)
    k = max(3, int(p.local * p.face_px) | 1)
    local = cv2.medianBlur(lab8, k).astype(np.float32)
    lab = lab8.astype(np.float32)
    inside = inner > 0
    diff = lab - local
    dist = np.sqrt(diff[..., 0] ** 2 + p.pip_chroma * (diff[..., 1] ** 2 + diff[..., 2] ** 2))
    vals = np.clip(dist[inside], 0, 255).astype(np.uint8).reshape(-1, 1)
    otsu, _ = cv2.threshold(vals, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = max(p.pip_contrast, p.pip_otsu * float(otsu))
    strong = (dist > t) & inside
    best: PipCount | None = None
    best_key: tuple = ()
    for polarity in (diff[..., 0] > 0, diff[..., 0] <= 0):
        pip_mask = _solid((strong & polarity).astype(np.uint8))
        face, diameter = _face(_blobs(pip_mask, p, p.face_px), p)
        count = _judge(face, diameter, p)
        if count.pips == 1:  # a lone pip sits in the middle of the face (a highlight need not)
            (cx, cy), = count.centres
            ys, xs = np.nonzero(inner)
            if math.hypot(cx - xs.mean(), cy - ys.mean()) > p.centre_slack * p.face_px:
                count = PipCount(1, count.centres, count.confidence * 0.5, "uncertain", ("a lone pip off the middle",))
        key = (count.status == "ok", 1 <= count.pips <= 6, count.pips, count.confidence)
        if best is None or key > best_key:
            best, best_key = count, key
    assert best is not None
    centres = tuple((round(x + cx / s, 1), round(y + cy / s, 1)) for cx, cy in best.centres)
    return PipCount(best.pips, centres, best.confidence, best.status, best.reasons)


_SHIPPED = object()


def read_die(frame: np.ndarray, box: tuple[int, int, int, int], mask: np.ndarray, p: AnyDieParams,
             net=None) -> PipDie:
    """One candidate read by the counter and, when given, checked by the learned counter ``net``
    (:class:`rig.vision.pipnet.PipNet`): agreeing they are ``ok``; disagreeing, the die is flagged
    unless the net is very sure and the counter was not; the net's "not a die" drops a candidate
    the counter could not read (pips 0). The counter's pip centres are kept whatever the number (a
    reader may tell white pips from black ones by the colour there)."""
    count = count_top_face(frame, box, mask, p)
    if net is None:
        return PipDie(box, count)
    k, pk = net.classify(frame, box)
    if k == 0:
        if pk >= p.net_reject and count.status != "ok" or pk >= p.net_drop:
            return PipDie(box, PipCount(0, reasons=("not a die",)))
        if count.status == "ok" and pk >= p.net_reject:
            count = PipCount(count.pips, count.centres, count.confidence * 0.5, "uncertain",
                             ("the pip net sees no die here",))
        return PipDie(box, count)
    if k == count.pips:
        ok = count.status == "ok" or pk >= p.net_agree
        return PipDie(box, PipCount(k, count.centres, round(max(pk, count.confidence), 3),
                                    "ok" if ok else "uncertain", () if ok else count.reasons))
    if pk >= p.net_alone and count.status != "ok":
        return PipDie(box, PipCount(k, (), round(pk, 3), "ok", ()))
    pips = k if pk >= p.net_sure or count.pips == 0 else count.pips
    return PipDie(box, PipCount(pips, count.centres, round(min(pk, count.confidence), 3),
                                "uncertain", (f"pip counters disagree ({count.pips} or {k})",)))


def read_pip_dice(frame: np.ndarray, params: AnyDieParams | None = None, *,
                  expected: tuple[int, ...] | None = None, net=_SHIPPED) -> PipDiceReading:
    """Find every die (any colour) and read its top face.

    By default with the learned nets (:mod:`rig.vision.dicenet`, ``calibration/dicenet_*.onnx``);
    ``net=None`` (or ``[anydie] learned = false``, or no net files): the classical finder and
    counter, checked by ``net`` (default the shipped ``calibration/pipnet.npz``; ``None``: the
    counter alone). ``expected`` is the number(s) of dice the game has (its
    registry entry's dice count, e.g. ``(8, 9)`` or ``(2,)``): another number makes the frame ``uncertain``, as does any die not read
    with confidence, or no die found when the count is not given.
    """
    p = params or AnyDieParams()
    frame = check_frame(frame)
    nets = default_dicenet() if net is _SHIPPED and p.learned else None
    missing: list[str] = []  # the dice count not known: a die faintly seen makes the frame ask (rig.vision.diemissing)
    if nets is not None:
        pip_net = _pip_net()
        blank, agree = blank_faint(frame, p, pip_net), agreed(frame, p, nets, counted_in_frame, pip_net)
        dice = _checked(frame, read_dice(frame, p, nets, min(expected) if expected else 0, missing, blank, agree), p, nets)
    else:
        if net is _SHIPPED:
            from rig.vision.pipnet import default_net

            net = default_net() if p.use_net else None
        dice = _read_classical(frame, p, net)
    reasons = [f"die at {d.box[:2]}: " + "; ".join(d.count.reasons) for d in dice if d.count.status != "ok"]
    if expected is not None and len(dice) not in expected:
        want = " or ".join(map(str, expected))
        reasons.append(f"{len(dice)} dice seen, want {want}")
    elif not dice:  # dice are read after a roll: none found is the finder's miss, not an answer
        reasons.append("no die found")
    reasons.extend(missing)
    return PipDiceReading(tuple(dice), "uncertain" if reasons else "ok", tuple(reasons))


def _pip_net():
    """The shipped pip net (:func:`blank_faint`, :func:`rig.vision.dieagree.agreed`); ``None`` when absent."""
    from rig.vision.pipnet import default_net

    return default_net()


def blank_faint(frame: np.ndarray, p: AnyDieParams, pip_net=None) -> Callable[[Candidate], bool]:
    """Whether a candidate of the learned finder is no die: one the finder scores below ``blank_find`` (``find_ok``
    until round 32) the reader gives below ``blank_read`` for its number and for no die and on whose box the classical
    counter (:func:`count_top_face`) finds no pip (issue 25, round 31: a binder's punched holes, grey disks, found "faint
    die, pips unclear" in most coloured photos; round 32: the holes the finder scores 0.6-0.75, the reader giving "no
    die" 0.01-0.03; a white 2 under a drawn thing, 0.6 and "no die" 0.6, stays flagged); from ``find_ok`` only when
    the pip net (``pip_net``, :class:`rig.vision.pipnet.PipNet`) calls it no die too (a coloured 6 beside a drawn thing,
    finder 0.64, read 1 at 0.39, the pip net 4, stays flagged); ``blank_read`` 0: none."""
    def blank(c: Candidate) -> bool:
        unread = max(float(c.probs[c.pips]), float(c.probs[0])) < p.blank_read
        if p.blank_read <= 0 or c.score >= p.blank_find or not unread:
            return False
        inside = counted_in_frame(frame, c.box, p)
        if inside is None or inside[1] != 0:
            return False
        return c.score < p.find_ok or (pip_net is not None and pip_net.classify(frame, inside[0])[0] == 0)
    return blank


def counted_in_frame(frame: np.ndarray, box: tuple[int, int, int, int], p: AnyDieParams
                     ) -> tuple[tuple[int, int, int, int], int] | None:
    """``box`` (x, y, w, h) cut to the frame, and the classical counter's pips on all of it; None: not in the frame."""
    x, y, w, h = box
    x0, y0 = max(0, x), max(0, y)
    w, h = min(frame.shape[1], x + w) - x0, min(frame.shape[0], y + h) - y0
    if w <= 0 or h <= 0:
        return None
    return (x0, y0, w, h), count_top_face(frame, (x0, y0, w, h), np.ones((h, w), np.uint8), p).pips


def _checked(frame: np.ndarray, dice: list[PipDie], p: AnyDieParams, nets) -> list[PipDie]:
    """The learned dice after the checks that can only flag them: each die's face's ends, two dice as one, read turned
    half round, in a wider crop, with its light evened out (these three's crops read in one batch, the turned and the
    evened-out crop from one crop of the die: the same readings) and, the wider crop unsure, in its body's box."""
    dice, crop_of, seen = [_face_checked(frame, die, p, nets) for die in dice], shared_box_crops(frame, nets), {}
    wide = wide_look(frame, nets, p.wide_grow, p.wide_ok)
    dice = rereads_ok(dice, nets, [turned_look(frame, nets, p.turned_ok, crop_of), wide,
                                   relit_look(frame, nets, p.relit_ok, crop_of)], p.settled_read, seen)
    return body_reasons(frame, dice, p, nets, seen.get(wide, {}))


def _face_checked(frame: np.ndarray, die: PipDie, p: AnyDieParams, nets) -> PipDie:
    """:func:`_face_ends`, then :func:`_two_as_one`, of an ``ok`` die, both on one :func:`surroundings` of its box."""
    if die.count.status != "ok" or (p.face_same <= 0 and p.merged_same <= 0):
        return die
    bands = surroundings(frame, die.box)
    return _two_as_one(frame, _face_ends(frame, die, p, bands), p, nets, bands)


def _face_ends(frame: np.ndarray, die: PipDie, p: AnyDieParams, bands=None) -> PipDie:
    """An ``ok`` die whose face does not end at its edges (:func:`rig.vision.dieface.face_reason`: a card's
    corner, a coin's glint; ``face_same`` 0: not looked at), or a 1 whose outline is no square
    (``one_round``: a knot), round (``one_circle``: a bead) or cut by the frame's edge (:func:`rig.vision.dieone.
    one_reason`; 0: not looked at), flagged."""
    c = die.count
    if c.status != "ok":
        return die
    reason = face_reason(frame, c.pips, die.box, p.face_same, p.face_ends, bands) if p.face_same > 0 else None
    if reason is None and c.pips == 1:
        reason = one_reason(frame, die.box, p.one_round, p.one_circle)
    return die if reason is None else die.flagged(reason)


def _two_as_one(frame: np.ndarray, die: PipDie, p: AnyDieParams, nets, bands=None) -> PipDie:
    """An ``ok`` die that is two small dice found as one (:func:`rig.vision.diesplit.two_dice_as_one`: its face the
    floor, two dice inside) flagged; ``merged_same`` 0: unchanged."""
    c = die.count
    if c.status != "ok" or p.merged_same <= 0 or not two_dice_as_one(
            frame, die.box, nets, p.merged_same, p.merged_scale, p.merged_find, p.merged_fine, bands):
        return die
    return die.flagged("two dice found as one? its face is the floor's colour")


def _read_classical(frame: np.ndarray, p: AnyDieParams, net) -> list[PipDie]:
    """The classical finder's candidates read by the counter (checked by ``net``), those without pips dropped."""
    dice = []
    for ways in find_die_groups(frame, p):
        readings = [[read_die(frame, box, mask, p, net) for box, mask in way] for way in ways]
        chosen = readings[-1]
        if len(readings) > 1 and len(readings[0]) == 1:
            whole = readings[0][0]
            parts_ok = all(d.count.status == "ok" and d.pips for d in chosen)
            _, _, w, h = whole.box
            elongated = max(w, h) > p.split_aspect * min(w, h)
            if not (parts_ok and elongated) and (whole.count.status == "ok" or not parts_ok):
                chosen = readings[0]
        dice.extend(die for die in chosen if die.pips)
    return dice

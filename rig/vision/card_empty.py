"""The empty box's own picture, kept small, for the card reader: a card is what changed from it.

Colour labels cannot outline a gray card on a gray floor, nor a blank card on a violet print; the
difference from the empty box can — a card-shaped change with a white border. Calibration shoots
the empty box anyway; :meth:`EmptyBox.of` keeps it as a 320 px wide Lab picture (about 230 kB),
:func:`remember` ties it to the profile it was calibrated with (and its copies: by the calibration), and :func:`rig.vision.cards.read_cards`
then finds cards as what changed (the labels still read their colours). Without one the reader
works as before, from the labels alone.
"""

from __future__ import annotations

import logging
import os
import tempfile
import weakref
from collections import OrderedDict
from pathlib import Path

import cv2
import numpy as np

from rig.vision.errors import ProfileError

#: the kept picture's width (px); its height keeps the frame's aspect
WIDTH = 320
#: a pixel changed when its lightness moved by more than this (after the exposure is matched) ...
CHANGE_L = 16.0
#: ... or its colour (a, b) by more than this: above the sensor's noise on the twin, 3x3 blurred
CHANGE_AB = 12.0

_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # by the profile object
#: by the calibration a profile came from, so that its copies (``dataclasses.replace``: the light adapted,
#: a lens position set, renamed) find it too; the latest few calibrations
_BY_CALIBRATION: OrderedDict = OrderedDict()
_CALIBRATIONS_KEPT = 16
log = logging.getLogger(__name__)


class EmptyBox:
    """The empty box as calibration saw it: a small Lab picture (uint8, ``WIDTH`` wide)."""

    def __init__(self, lab: np.ndarray) -> None:
        if lab.ndim != 3 or lab.shape[2] != 3 or lab.dtype != np.uint8:
            raise ValueError("an empty box picture is an H x W x 3 uint8 Lab image")
        self.lab = lab

    @classmethod
    def of(cls, frame_bgr: np.ndarray) -> EmptyBox:
        h, w = frame_bgr.shape[:2]
        small = cv2.resize(frame_bgr, (WIDTH, max(1, round(h * WIDTH / w))), interpolation=cv2.INTER_AREA)
        return cls(cv2.cvtColor(small, cv2.COLOR_BGR2Lab))

    def save(self, path: str | Path) -> Path:
        """Write the picture to ``path`` (``.npy``), whole or not at all."""
        path = Path(path)
        try:
            fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        except OSError as exc:
            raise ProfileError(f"cannot write {path}: {exc.strerror}") from None
        try:
            with os.fdopen(fd, "wb") as out:
                np.save(out, self.lab, allow_pickle=False)
            os.replace(tmp, path)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise ProfileError(f"cannot write {path}: {exc.strerror}") from None
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def load(cls, path: str | Path) -> EmptyBox:
        return cls(np.load(Path(path), allow_pickle=False))

    def changed(self, frame_bgr: np.ndarray, size: tuple[int, int], blur: int = 3) -> np.ndarray:
        """Where ``frame_bgr`` differs from the empty box, at ``size`` (w, h): a uint8 0/1 mask. The
        exposure is matched first (the lamp may have dimmed): the median of the pixels' lightness
        ratios, most of the view being still the empty box."""
        return self.compare(frame_bgr, size, blur)[0]

    def compare(self, frame_bgr: np.ndarray, size: tuple[int, int], blur: int = 3) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`changed`, and where the change is shade alone (uint8 0/1): darker than the empty box, its colour
        (a, b) the same — the shadow a hand or an arm casts on the box bottom, no card."""
        def lab(img: np.ndarray) -> np.ndarray:
            if img.shape[1::-1] != size:
                img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
            return img.astype(np.float32)

        now = lab(cv2.cvtColor(cv2.blur(cv2.resize(frame_bgr, size, interpolation=cv2.INTER_AREA), (blur, blur)),
                               cv2.COLOR_BGR2Lab))
        ref = lab(cv2.blur(self.lab, (blur, blur)) if self.lab.shape[1::-1] == size else
                  cv2.blur(cv2.resize(self.lab, size, interpolation=cv2.INTER_LINEAR), (blur, blur)))
        gain = float(np.median(now[..., 0][::4, ::4] / np.maximum(ref[..., 0][::4, ::4], 8.0)))
        d_l = np.abs(now[..., 0] - ref[..., 0] * gain)
        d_ab = np.hypot(now[..., 1] - ref[..., 1], now[..., 2] - ref[..., 2])
        mask = ((d_l > CHANGE_L) | (d_ab > CHANGE_AB)).view(np.uint8)
        shade = ((now[..., 0] < ref[..., 0] * gain - CHANGE_L) & (d_ab <= CHANGE_AB)).view(np.uint8)
        return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), shade & mask


def calibration(profile) -> tuple | None:
    """What tells one calibration from another across copies of its profile: when it was made and the
    geometry it measured (the light may be adapted since, the name changed); ``None`` when the profile
    does not say when it was made (then only that very profile object finds its empty box)."""
    created = getattr(profile, "created", "")
    if not created:
        return None
    return (str(created), tuple(profile.frame_size), float(profile.die_side), float(profile.top_area))


def remember(profile, empty: EmptyBox | None) -> None:
    """Tie the empty box's picture to the profile it was calibrated with and every copy of it
    (``None``: forget it)."""
    key = calibration(profile)
    if empty is None:
        _KEPT.pop(profile, None)
        _BY_CALIBRATION.pop(key, None)
        return
    _KEPT[profile] = empty
    if key is not None:
        _BY_CALIBRATION[key] = empty
        _BY_CALIBRATION.move_to_end(key)
        while len(_BY_CALIBRATION) > _CALIBRATIONS_KEPT:
            _BY_CALIBRATION.popitem(last=False)


def kept(profile) -> EmptyBox | None:
    """The empty box's picture kept for ``profile`` or for the calibration it is a copy of, if any."""
    try:
        empty = _KEPT.get(profile)
    except TypeError:  # an object that cannot be weakly referenced: by its calibration alone
        empty = None
    return empty if empty is not None else _BY_CALIBRATION.get(calibration(profile))


def beside(profile_path: str | Path) -> Path:
    """Where calibration keeps the empty box's picture for the profile at ``profile_path``: ``NAME.empty.npy``."""
    return Path(profile_path).with_suffix(".empty.npy")


def keep_beside(profile_path: str | Path, empty_frame_bgr: np.ndarray) -> Path:
    """Save the empty box's picture beside the profile just written (whole or not at all)."""
    return EmptyBox.of(empty_frame_bgr).save(beside(profile_path))


def recall(profile, profile_path: str | Path) -> EmptyBox | None:
    """Load the picture kept beside ``profile_path`` and tie it to ``profile``; None (and a warning for a
    damaged file) when there is none: the card reader then reads from the colour labels alone."""
    path = beside(profile_path)
    if not path.exists():
        remember(profile, None)  # (nor one kept for its calibration before: the file says what there is)
        return None
    try:
        empty = EmptyBox.load(path)
    except (OSError, ValueError) as exc:
        log.warning("the empty box's picture %s cannot be read (%s): cards are read from their colours alone; "
                    "calibrate again to keep a new one", path, exc)
        remember(profile, None)
        return None
    remember(profile, empty)
    return empty


def open_rings(changed: np.ndarray, taken: np.ndarray, side: float, card: tuple[float, float]) -> list[np.ndarray]:
    """Cards whose field is the box bottom's own colour (a gray card on a gray floor): what changed from the empty
    box is their white border — broken where a wall's shade or a light wall lies behind it — and their darker icon,
    no closed ring to fill. Each group of such changes outside ``taken`` (the blobs read already, and round them)
    whose rectangle is a card's size (``card``: its sides in die sides of ``side`` px) and shape, its border changed
    along three of its sides or more and its icon changed in its middle, as a filled card mask (the field inside it
    still to be read: a coloured card on a floor of its colour shows the same)."""
    k = max(3, int(0.3 * side)) | 1
    rest = changed & (1 - cv2.dilate(taken, np.ones((k, k), np.uint8)))
    g = max(3, int(0.6 * side)) | 1  # (a border's pieces and the icon inside it: one group)
    n, cc = cv2.connectedComponents(cv2.dilate(rest, np.ones((g, g), np.uint8)), connectivity=8)
    area = card[0] * card[1] * side ** 2
    near = cv2.dilate(rest, np.ones((3, 3), np.uint8))
    out = []
    for i in range(1, n):
        pts = cv2.findNonZero(rest & (cc == i).view(np.uint8))
        if pts is None or len(pts) < 0.1 * area:
            continue
        rect = cv2.minAreaRect(pts)
        sides = _border_sides(near, rect)
        if sum(s >= 0.6 for s in sides) < 3 or rest[_inside(rect, 0.5, rest) > 0].mean() < 0.15:
            continue
        if not _card_sized(rect, area) and not (sum(s >= 0.6 for s in sides) == 3 and _card_sized(cv2.minAreaRect(
                _from_three_sides(cv2.boxPoints(rect), int(np.argmin(sides)), card[1] / card[0])), area)):
            continue  # (a card whose fourth side lies in a wall's deep shade, unchanged: its three sides say where it
            # ends — twin 5413 reveal 1, a gray beside the gray, its lower border unseen, the card 17 % short)
        out.append(_card_mask(rect, sides, 0.6, card, rest))
    return out


#: a border round a field taken for shade: changed along this share of a side at least, on three sides (the border
#: next to the darker field merges with it: twin 3810 reveal 1's pile 0.11, 0.83, 0.54, 0.76)
FRAMED_SIDE = 0.5


def framed_fields(changed: np.ndarray, taken: np.ndarray, fields: list[np.ndarray], side: float,
                  card: tuple[float, float]) -> list[np.ndarray]:
    """Gray cards on a floor of their colour whose field changed only as a shade does (darker, its colour the same:
    read as the shadow an arm casts, nothing there) while their white border changed round it: each of ``fields`` (the
    blobs taken for shade) with the changes round it outside ``taken`` (the blobs read, and round them) that make a
    card's rectangle (size and shape as :func:`open_rings` asks) whose border changed along three of its sides or
    more (:data:`FRAMED_SIDE` of each) — the border's own changes, not the field's — the field inside it, apart from
    its sides; as a filled card mask (its field still to be read: gray against its border, or nothing). Twin 3810 and 3812 reveal 1 (round 19's
    fresh set): a second gray card laid askew on a gray one on a gray floor, the field's lower part darker than the
    floor, the two borders a ring a few px short of closing — the pile not found while it lay there alone."""
    k = max(3, int(0.3 * side)) | 1
    g = max(3, int(0.6 * side)) | 1  # (a border's pieces round the field: one group)
    area = card[0] * card[1] * side ** 2
    out = []
    for field in fields:
        rest = changed & (1 - cv2.dilate(taken, np.ones((k, k), np.uint8))) & (1 - cv2.dilate(field, np.ones((3, 3), np.uint8)))
        n, cc = cv2.connectedComponents(cv2.dilate(rest, np.ones((g, g), np.uint8)), connectivity=8)
        near_field = np.unique(cc[cv2.dilate(field, np.ones((2 * g + 1, 2 * g + 1), np.uint8)) > 0])
        border = rest & np.isin(cc, near_field[near_field > 0]).view(np.uint8)
        if border.sum() < 0.1 * area:
            continue
        rect = cv2.minAreaRect(cv2.findNonZero(border | field))
        if not _card_sized(rect, area):
            continue
        sides = _border_sides(cv2.dilate(border, np.ones((3, 3), np.uint8)), rect)
        inner = _inside(rect, 0.9, rest)
        if sum(s >= FRAMED_SIDE for s in sides) < 3 or (field & (1 - inner)).sum() > 0.05 * field.sum():
            continue
        out.append(_card_mask(rect, sides, FRAMED_SIDE, card, rest))
    return out


def _card_sized(rect, area: float) -> bool:
    """Whether the rotated rectangle ``rect`` is a card's size (``area`` px, within -25 % and +30 %) and shape."""
    _, (rw, rh), _ = rect
    return 0.75 * area <= rw * rh <= 1.3 * area and 1.2 <= max(rw, rh) / max(min(rw, rh), 1.0) <= 1.65


def _border_sides(near: np.ndarray, rect) -> list[float]:
    """The share of each of ``rect``'s four sides, along the white border's middle, that ``near`` covers."""
    (cx, cy), (rw, rh), ang = rect
    corners = cv2.boxPoints(((cx, cy), (rw * 0.96, rh * 0.96), ang))
    return [_along(near, corners[j], corners[(j + 1) % 4]) for j in range(4)]


def _inside(rect, share: float, like: np.ndarray) -> np.ndarray:
    """``rect`` shrunk to ``share`` of its sides about its centre, filled (uint8 0/1, the shape of ``like``)."""
    (cx, cy), (rw, rh), ang = rect
    mask = np.zeros_like(like)
    cv2.fillConvexPoly(mask, np.int32(cv2.boxPoints(((cx, cy), (rw * share, rh * share), ang))), 1)
    return mask


def _card_mask(rect, sides: list[float], seen: float, card: tuple[float, float], like: np.ndarray) -> np.ndarray:
    """``rect`` filled as a card (uint8 0/1, the shape of ``like``); with only three of its ``sides`` seen (``seen`` of
    each), the fourth where a card's shape puts it, from the one opposite."""
    box = cv2.boxPoints(rect)
    if sum(s >= seen for s in sides) == 3:
        box = _from_three_sides(box, int(np.argmin(sides)), card[1] / card[0])
    blob = np.zeros_like(like)
    cv2.fillConvexPoly(blob, np.int32(np.round(box)), 1)
    return blob


#: the most of a gapped ring's filled outline its own changed pixels may cover: a card's white border (and its icon)
#: is a hollow ring round a field of the floor's colour, not a solid patch of change (shade, an arm)
RING_HOLLOW = 0.6


def gapped_rings(changed: np.ndarray, taken: np.ndarray, least: float) -> list[np.ndarray]:
    """Piles of gray cards on a floor of their colour whose white border is broken by a px at a corner: what changed
    from the empty box outside ``taken`` (the blobs read already, and the rings found) that closes into an outline
    once gaps of a px are bridged, filled, at least ``least`` px and hollow (a border round an unchanged field). A
    second gray card laid askew on a gray one makes the two borders' change bigger than a card's, no card's
    rectangle for :func:`open_rings`, and its top card's border a ring one px short of closing (twin 3702 reveal 1,
    round 18's fresh set: the pile and the card on it not found at all, for as long as they lay there)."""
    rest = changed & (1 - cv2.dilate(taken, np.ones((3, 3), np.uint8)))
    closed = cv2.morphologyEx(rest, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, cc, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    out = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < 0.1 * least:
            continue
        contours, _ = cv2.findContours((cc == i).view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        blob = np.zeros_like(rest)
        cv2.drawContours(blob, contours, -1, 1, -1)
        area = int(blob.sum())
        if area >= least and int((rest & blob).sum()) <= RING_HOLLOW * area:
            out.append(blob)
    return out


def _from_three_sides(box: np.ndarray, missing: int, aspect: float) -> np.ndarray:
    """A card's corners (``box``, in order) with side ``missing`` (corners ``missing`` to ``missing + 1``) put where
    the card's shape (long side over short, ``aspect``) puts it from the side opposite: its length is known from the
    two sides beside it, the card's extent across it is not (the pieces of border and icon seen stop short of it,
    by more or less in each frame)."""
    m = missing
    a, b, c, d = (box[(m + i) % 4] for i in range(4))  # a-b the missing side, c-d the one opposite
    width, height = float(np.linalg.norm(b - a)), float(np.linalg.norm(c - b))
    across = min((width * aspect, width / aspect), key=lambda h: abs(h - height))
    normal = ((a + b) - (c + d)) / 2
    normal /= max(float(np.linalg.norm(normal)), 1e-6)
    out = box.copy()
    out[m], out[(m + 1) % 4] = d + normal * across, c + normal * across
    return out


def _along(mask: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """The share of the points along the line from ``a`` to ``b`` where ``mask`` is set."""
    n = max(2, int(np.hypot(*(b - a))))
    xs = np.clip(np.round(np.linspace(a[0], b[0], n)).astype(int), 0, mask.shape[1] - 1)
    ys = np.clip(np.round(np.linspace(a[1], b[1], n)).astype(int), 0, mask.shape[0] - 1)
    return float(mask[ys, xs].mean())

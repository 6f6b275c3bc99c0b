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

"""A die read again with its crop's light evened out: a check on the learned reader's ``ok`` dice that can only flag.

A shadow cast across a die's top (a tray wall's, another die's) leaves some of its pips dark on dark: the reader
counts the pips on the lit part and is sure of it (issue 25, round 26: the pip twin 9762 throw 0, a white 4 half in
a wall's shadow, read 2 at 0.92, ``ok``; in the die's own crop 0.65). Each pixel of the reader's crop divided by
the light about it (a grey closing that fills the pips, blurred), brought to the crop's lit face, shows the shadowed
pips as dark on white again; a die in even light reads the same. An ``ok`` die whose evened-out crop the reader gives
less than ``[anydie] relit_ok`` for the number it read is flagged. Issue 25, docs/games.md "... (issue 25, round 26)".
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from rig.vision.dierecheck import Look, box_crop, rereads_ok
from rig.vision.pips import PipDie

#: the closing's side, a fraction of the crop: wider than a pip, narrower than the lit part of a face
LIGHT_KERNEL = 0.2
#: the light taken as the face's: this percentile of the crop's light
LIT_PERCENTILE = 95
#: a pixel is brightened at most this many times (the floor's dark corners stay dark, its noise unraised)
MAX_GAIN = 4.0


def evened(crop: np.ndarray) -> np.ndarray:
    """``crop`` (BGR) with each pixel divided by the light about it, brought to the crop's lit face."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    side = max(3, int(LIGHT_KERNEL * crop.shape[0]) | 1)
    light = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    light = cv2.GaussianBlur(light, (0, 0), side / 4)
    lit = _percentile(light, LIT_PERCENTILE)
    gain = np.clip(lit / np.maximum(light, 1.0), 1.0, MAX_GAIN)[..., None]
    return np.clip(crop.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def _percentile(a: np.ndarray, q: float) -> float:
    """``float(np.percentile(a, q))`` of a float32 array (numpy 2's default, linear method, ``q`` a Python number),
    the same float without its generic machinery (a fifth of its time on a 48 x 48 crop; round 29): the virtual index
    worked out as numpy does, the two values about it found by one partition and mixed in float32 as its ``_lerp``."""
    flat = a.ravel()
    n = flat.shape[0]
    share = np.true_divide(q, 100)
    at = float((n - 1) * share)  # numpy's virtual index for its linear method
    if n == 0 or not 0 <= at < n - 1:
        return float(np.percentile(a, q))
    i = int(math.floor(at))
    gamma = at - i
    part = np.partition(flat, (i, i + 1))
    lo, hi = part[i], part[i + 1]
    diff = hi - lo
    return float(hi - diff * np.float32(1 - gamma)) if gamma >= 0.5 else float(lo + diff * np.float32(gamma))


def relit_reasons(frame: np.ndarray, dice: list[PipDie], nets, least: float) -> list[PipDie]:
    """``dice`` with each ``ok`` die flagged when the reader gives its evened-out crop less than ``least`` for its
    number (``least`` 0: none looked at); the crops read in one batch."""
    return rereads_ok(dice, nets, [relit_look(frame, nets, least)])


def relit_look(frame: np.ndarray, nets, least: float, crop_of: Callable[[PipDie], np.ndarray] | None = None) -> Look:
    """:func:`relit_reasons`'s check as a look of :func:`rig.vision.dierecheck.rereads_ok` (``crop_of``: a die's
    :func:`rig.vision.dierecheck.box_crop`, shared with other looks; default made here)."""
    crop_of = crop_of or (lambda d: box_crop(frame, d.box, nets))
    return (lambda d: evened(crop_of(d)), least,
            lambda pips, q: f"read otherwise with its light evened out ({pips}: {q:.2f}): pips in a shadow?")

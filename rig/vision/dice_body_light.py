"""A die top read blank, not surely, read again in its own body's light (issue 24, round 34).

The light correction (:mod:`rig.vision.light`) scales a die's place by one grey gain: it takes out how much brighter
or darker the place is than calibration saw it, not which lamp lights it. With two lamps of different colour the
balance locked at calibration is their mean, so a die lit mostly by one of them keeps that lamp's cast, and a top lit
brighter than any ritual die clips once the gain is put on. Its frog then lies outside its colour's model, unknown or
clipped, and the top reads blank, unsure (twin 11702, tray floor, lamps of 5478 K and 3622 K, round 33's fresh set:
a pink frog read blue-violet, a yellow frog clipped in red, in every light).

The die's own body is a reference that lies under the same light: its violet is known from calibration
(``profile.body``). Scaling each channel so that the top's body pixels come out that violet takes the local cast and
brightness off the frog too. The reader takes that reading only when it is clear (one or two frog colours, each of
its usual share, nothing unclear, no more unknown pixels than a die's) and still asks about the die
(:data:`BODY_LIGHT`). Only once calibration is done (its empty box kept beside the profile): calibration's own
read-back reads as before.
"""

from __future__ import annotations

import cv2
import numpy as np

from rig.vision.card_empty import kept
from rig.vision.pixel_classes import BODY, CLIPPED

BODY_LIGHT = "blank die top read in its own body's light"
#: the top's body pixels (in the frame's overall light) must be at least this share of the top: the light is
#: measured on them
BODY_SHARE = 0.15
#: a top read blank is read again when at least this share of it clips, or a frog colour shows at least half of
#: the share a blank top may hold (``t.colour_absent``), or its reading was doubtful
CLIPPED_SHARE = 0.1


def unsure_blank(counts: np.ndarray, n_in: int, fractions: dict, doubtful: bool, t) -> bool:
    """Whether a top read blank (its class ``counts`` of ``n_in`` pixels, its frog colours' ``fractions``) is read
    again in its body's light: its reading was ``doubtful``, it clips, or a frog colour shows a little."""
    return doubtful or counts[CLIPPED] >= CLIPPED_SHARE * n_in or max(fractions.values()) >= t.colour_absent / 2


def body_bgr(profile) -> np.ndarray:
    """The die body's colour as calibration modelled it, BGR (float)."""
    lab = np.clip(np.round(np.array([[profile.body.mean]], np.float32)), 0, 255).astype(np.uint8)
    return cv2.cvtColor(lab, cv2.COLOR_Lab2BGR)[0, 0].astype(np.float64)


def in_body_light(crop, centre, work, t, frog_size: dict, full_counts, shares_of):
    """The reading (``full_counts``' tuple and ``shares_of``' shares) of a die top (``crop``: its full-resolution box
    and mask, ``dice._crop``) with each channel scaled so that its body pixels come out the profile's body colour, or
    None: before a frog's usual size is known or the empty box is kept (calibration), too few body pixels to measure
    the light on, or a reading that is not a clear face."""
    if crop is None or not frog_size or work.gain is None or work.profile is None or kept(work.profile) is None:
        return None
    first = full_counts(crop, centre, work, t, gain=work.overall_gain)
    if first is None:
        return None
    counts, n, labels, mask = first
    body = (labels == BODY) & (mask > 0)
    if np.count_nonzero(body) < BODY_SHARE * n:
        return None
    X0, Y0, X1, Y1, _ = crop
    mean = work.frame[Y0:Y1, X0:X1][body].mean(axis=0)
    again = full_counts(crop, centre, work, t, gain=(body_bgr(work.profile) / np.maximum(mean, 1.0)).astype(np.float32))
    if again is None:
        return None
    shares = shares_of(again[0], again[1], t, again[2:])
    fractions, present, unclear, odd = shares
    lo, hi = t.single_share if len(present) == 1 else t.combo_share
    usual = all(lo <= fractions[c] / frog_size.get(c, fractions[c]) <= hi for c in present)
    if not present or unclear or odd > t.unknown_max or not usual or len(present) > 2:
        return None
    return again, shares

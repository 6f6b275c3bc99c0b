"""A frog colour whose pixels do not have that colour's hue; a die top under a lamp's veil.

The colour models are Gaussians in Lab, and a frog colour's model is long along the line from the frog
to the die body (calibration samples the frog's edge too). A die top under a lamp's veil moves its
body's pixels off the body's model and onto that line: on twin table 2003 a pink die's veiled body
read as a yellow half, "yellow+pink", status ok — yet those "yellow" pixels were mauve, a hue 100°
from the profile's yellow. On 7,677 frog colours read right on the twin (tuning and seen tables,
every lamp drift) the hue of a colour's pixels lay at most 22° from its model's; a frog more than
:data:`OFF_HUE` off is flagged.

The same veil lowers a frog's contrast: on table 8002, after the lamp turned 700 K warmer, a pink
die's veiled top showed 2 % pink and read blank, status ok. A die whose body is paler
(:data:`VEIL_LIGHTER`) and greyer (:data:`VEIL_GREYER`) than the body model and whose reading is
not sure (:data:`VEIL_SURE`) is flagged: on the twin's tuning and seen tables 3 of 4,763 dice read
right in unflagged turns were.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from rig.vision.pixel_classes import BODY, COLOUR_CLASSES

#: the most a frog's mean hue may differ from its colour model's (degrees, Lab a*b*)
OFF_HUE = 45.0
#: a veiled top: its body's pixels this much lighter (Lab L, 0-255) than the body model ...
VEIL_LIGHTER = 15.0
#: ... and their chroma below this share of the model's
VEIL_GREYER = 0.7
#: ... flags a die read with less confidence than this
VEIL_SURE = 0.9
#: a top veiled deeper still — its body this much lighter than the model and its chroma under VEIL_DEEP_GREYER of the
#: model's — is flagged however sure its reading: the lamp's mirror image washed its frog into the body (thrown twin
#: 5014 turn 1: a pink die read blank, sure 0.97-1.0, status ok, body 56-61 lighter at 0.32-0.48 of the chroma; round 25)
VEIL_DEEP_LIGHTER = 40.0
VEIL_DEEP_GREYER = 0.55
#: below this chroma (Lab units) a hue means nothing: such a mean is not judged
MIN_CHROMA = 10.0
#: a frog colour whose model has at least this chroma is no frog where its pixels show less than MIN_CHROMA
FROG_CHROMA = 25.0
#: ... or, of chroma from MIN_CHROMA up, where their mean hue is this far off the model's (degrees): the lamp's grey
#: image tinted by the light turns a colour's hue across (twin 11405's "yellow" blue-grey, 140-150 degrees off); a frog
#: under the lamp's hotspot keeps some of it (virtual table, glare: blue tops 50-73 degrees off, read blue at 45)
NO_FROG_HUE = 90.0
NO_FROG = "read grey or off its hue, no frog (the lamp's image?)"


def hue_gap(ab: np.ndarray, model_ab: np.ndarray) -> float | None:
    """Degrees between two a*b* directions (offset 128 removed), or None when either is too grey.

    >>> hue_gap(np.array([27.0, -10.0]), np.array([5.0, 34.0]))  # 2003's mauve "yellow" vs the yellow model
    102.0
    >>> hue_gap(np.array([3.0, 2.0]), np.array([5.0, 34.0])) is None
    True
    """
    a0, a1, m0, m1 = float(ab[0]), float(ab[1]), float(model_ab[0]), float(model_ab[1])
    if math.hypot(a0, a1) < MIN_CHROMA or math.hypot(m0, m1) < MIN_CHROMA:  # (the C library's functions on plain
        return None  # floats: numpy's on scalars gave the same gaps on 200,000 seeded pairs, in six times the time)
    turn = math.atan2(a1, a0) - math.atan2(m1, m0)
    return round(math.degrees(abs(math.atan2(math.sin(turn), math.cos(turn)))), 1)


def off_hue(small: np.ndarray, labels: np.ndarray, inner: np.ndarray, present, profile, means: dict | None = None
            ) -> list[str]:
    """The ``present`` frog colours of a die top whose pixels' mean hue is off their model's.

    ``small`` (BGR) and ``labels`` are the top's crop at working scale, ``inner`` its mask; ``means``: the colours' mean
    Lab there as :func:`frog_means` gave them, when the caller has them (the same numbers).
    """
    off = []
    for c in present if profile is not None else ():
        lab = _frog_mean(small, labels, inner, c, means)
        if lab is None:
            continue
        gap = hue_gap(lab[1:] - 128, np.asarray(profile.colour(c).mean, np.float64)[1:] - 128)
        if gap is not None and gap > OFF_HUE:
            off.append(c)
    return off


def no_frog_colours(small: np.ndarray, labels: np.ndarray, inner: np.ndarray, present, profile,
                    means: dict | None = None) -> list[str]:
    """The ``present`` frog colours of a die top whose pixels are grey where their model is not (mean chroma under
    :data:`MIN_CHROMA`, the model's at least :data:`FROG_CHROMA`) or far off its hue (:data:`NO_FROG_HUE`): no frog of that
    colour, the lamp's mirror image (or a lit body) the colour's long model took in. Twin 11405 (felt, a 5168 K
    lamp): blank dice read "yellow" on 0.5-0.9 of their tops in every light, those pixels at Lab a*b* (1, -4)
    to (6, -9), chroma 4-11, against the yellow model's 40; frog colours read right lay within 22 degrees of their
    model's hue (see :data:`OFF_HUE`; not all: twin 11301 turn 10's yellow+pink, its yellow half under the lamp's
    image, now reads pink). Read without that colour, the die is still asked (:data:`NO_FROG`). ``means``: as
    :func:`off_hue` takes them."""
    gone = []
    for c in present if profile is not None else ():
        lab = _frog_mean(small, labels, inner, c, means)
        if lab is None:
            continue
        model = np.asarray(profile.colour(c).mean, np.float64)[1:] - 128
        if math.hypot(*(lab[1:] - 128)) < MIN_CHROMA:
            grey = math.hypot(*model) >= FROG_CHROMA
        else:
            gap = hue_gap(lab[1:] - 128, model)
            grey = gap is not None and gap > NO_FROG_HUE
        if grey:
            gone.append(c)
    return gone


def frog_means(small: np.ndarray, labels: np.ndarray, inner: np.ndarray, present) -> dict:
    """The mean Lab (:func:`_mean_lab`) of each ``present`` frog colour's pixels of a die top, found once for both
    :func:`no_frog_colours` and :func:`off_hue` (issue 24, round 33: each found them, the same, for the same top)."""
    return {c: _mean_lab(small, (labels == COLOUR_CLASSES[c]) & inner) for c in present}


def _frog_mean(small: np.ndarray, labels: np.ndarray, inner: np.ndarray, colour: str, means: dict | None):
    if means is not None and colour in means:
        return means[colour]
    return _mean_lab(small, (labels == COLOUR_CLASSES[colour]) & inner)


def _mean_lab(small: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """The Lab of the mean colour of ``small`` under ``mask`` (None for fewer than 4 pixels)."""
    mask = mask.view(np.uint8)
    if cv2.countNonZero(mask) < 4:
        return None
    b, g, r, _ = cv2.mean(small, mask)
    mean = np.array([[[b + 0.5, g + 0.5, r + 0.5]]]).clip(0, 255).astype(np.uint8)
    return cv2.cvtColor(mean, cv2.COLOR_BGR2Lab).reshape(3).astype(np.float64)


def veiled(small: np.ndarray, labels: np.ndarray, inner: np.ndarray, profile) -> bool:
    """Whether a die top's body pixels are paler and greyer than the body model: a lamp's reflection on it."""
    return _veil(small, labels, inner, profile, VEIL_LIGHTER, VEIL_GREYER)


def deeply_veiled(small: np.ndarray, labels: np.ndarray, inner: np.ndarray, profile) -> bool:
    """Whether a die top's body is veiled deeper still (:data:`VEIL_DEEP_LIGHTER`, :data:`VEIL_DEEP_GREYER`): a veil
    that can hide a frog from a sure reading."""
    return _veil(small, labels, inner, profile, VEIL_DEEP_LIGHTER, VEIL_DEEP_GREYER)


def _veil(small: np.ndarray, labels: np.ndarray, inner: np.ndarray, profile, lighter: float, greyer: float) -> bool:
    lab = None if profile is None else _mean_lab(small, (labels == BODY) & inner)
    if lab is None:
        return False
    model = np.asarray(profile.body.mean, np.float64)
    chroma, model_chroma = np.hypot(*(lab[1:] - 128)), np.hypot(*(model[1:] - 128))
    return bool(lab[0] - model[0] > lighter and chroma < greyer * model_chroma)

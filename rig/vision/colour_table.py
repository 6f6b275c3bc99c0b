"""The colour table: a profile's look-up table from a pixel's colour to its class (built block by block
as colours are met, kept per profile and on disk) (issue 29: split from :mod:`rig.vision.dice`,
which re-exports every name).
"""

from __future__ import annotations

import functools
import hashlib

import cv2
import numpy as np

from rig.vision.pixel_classes import (
    AMBIG,
    BG,
    BLOWN,
    BLUE,
    BODY,
    CLASS_NAMES,
    CLIPPED,
    COLOUR_CLASSES,
    EDGE,
    PINK,
    UNKNOWN,
    YELLOW,
)
from rig.vision.profile import COLOURS, Profile

# --------------------------------------------------------------------------- colour table

@functools.cache
def _grid_colours() -> tuple[np.ndarray, np.ndarray]:
    """The 64**3 table cells' BGR centres and their Lab (computed once per process)."""
    q = (np.arange(64, dtype=np.uint16) * 4 + 2).astype(np.uint8)
    b, g, r = np.meshgrid(q, q, q, indexing="ij")
    bgr = np.stack([b, g, r], axis=-1).reshape(1, -1, 3)
    return bgr, cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)


class _LutBuilder:
    """Builds the blocks of one colour table; the censored blocks only when a frame needs them."""

    def __init__(self, profile: Profile) -> None:
        bgr, lab = _grid_colours()
        models = [(BG, m) for m in profile.background]
        models += [(BODY, profile.body), (EDGE, profile.edge)]
        models += [(COLOUR_CLASSES[c], profile.colour(c)) for c in COLOURS]
        scores, logdets = [], []
        for _, m in models:
            cov = np.array(m.cov, np.float64)
            inv = np.linalg.inv(cov).astype(np.float32)
            d = lab - np.array(m.mean, np.float32)
            logdet = float(np.log(np.linalg.det(cov)))
            x, y, z = d[:, 0], d[:, 1], d[:, 2]  # the quadratic form, term by term (faster than einsum)
            q = inv[0, 0] * x * x + inv[1, 1] * y * y + inv[2, 2] * z * z
            q += 2 * (inv[0, 1] * x * y + inv[0, 2] * x * z + inv[1, 2] * y * z) + np.float32(logdet)
            scores.append(q)
            logdets.append(logdet)
        self.classes = np.array([cls for cls, _ in models], np.uint8)
        self.logdets = np.array(logdets, np.float32)[:, None]
        self.score = np.stack(scores)  # classes x 2**18
        self.t = profile.thresholds
        self.clipped = bgr.reshape(-1, 3).max(axis=1) >= self.t.clip_level
        self.washed = bgr.reshape(-1, 3).min(axis=1) > self.t.glare_min
        patterns = 8 if profile.glare is not None else 1  # channels are censored only under known glare
        self.table = np.zeros(patterns * 64**3, np.uint8)
        self.built = [False] * patterns
        self.ensure((0,))

    def ensure(self, patterns) -> None:
        for p in patterns:
            if p < len(self.built) and not self.built[p]:
                self.table[p * 64**3 : (p + 1) * 64**3] = self._block(int(p))
                self.built[p] = True

    def _block(self, pattern: int) -> np.ndarray:
        t, classes, n = self.t, self.classes, len(self.classes)
        s = self.score.reshape(-1, 64, 64, 64)
        for axis in range(3):
            if pattern >> axis & 1:  # best score at or above the measured value
                s = np.flip(np.minimum.accumulate(np.flip(s, axis + 1), axis=axis + 1), axis + 1)
        s = s.reshape(n, -1)
        best = s.argmin(axis=0)
        d2 = s - self.logdets
        best_d2 = np.take_along_axis(d2, best[None], 0)[0]
        label = classes[best]
        far = best_d2 > t.class_distance**2
        if pattern == 0:
            label[far] = UNKNOWN
            label[far & self.clipped] = CLIPPED
            # glare whitens a die: its darkest channel rises above anything a die top shows
            label[self.washed & np.isin(label, (BODY, BLUE, PINK, YELLOW))] = CLIPPED
        else:
            fits = d2 <= t.class_distance**2
            die = np.isin(classes, (BODY, BLUE, PINK, YELLOW))
            top_s = np.sort(np.where(fits[die], s[die], np.inf), axis=0)
            floor_fit = fits[classes == BG].any(axis=0)
            is_top = np.isin(label, (BODY, BLUE, PINK, YELLOW))
            with np.errstate(invalid="ignore"):
                label[is_top & (top_s[1] - top_s[0] < t.ambiguity)] = AMBIG
            label[is_top & floor_fit] = BLOWN
            label[far] = CLIPPED
        return label


_LUTS: dict[tuple, _LutBuilder] = {}
_BY_TABLE: dict[int, _LutBuilder] = {}


def _lut_key(profile: Profile) -> tuple:
    """What the colour table depends on: the colour models, four thresholds, whether glare is known
    (a profile copied with another die size or frog share shares its table)."""
    t = profile.thresholds
    models = (*profile.background, profile.body, profile.edge, *(profile.colour(c) for c in COLOURS))
    return (tuple((m.mean, m.cov) for m in models), t.class_distance, t.clip_level, t.glare_min, t.ambiguity,
            profile.glare is not None)


def _code_fingerprint(code) -> bytes:
    """The byte code, names and constants of ``code`` and of the code inside it (comprehensions):
    a table built by other code is another table. Nothing in it varies from run to run."""
    consts = [_code_fingerprint(c) if hasattr(c, "co_code") else repr(c).encode() for c in code.co_consts]
    return b"\0".join([code.co_code, repr(code.co_names).encode(), *consts])


def colour_lut_key(profile: Profile) -> str:
    """A name for the profile's colour table (hex): the same for every profile that gives the same
    table (colour models, thresholds, glare known), different when the profile or the code that
    builds the table changes. For a cache of :func:`full_colour_lut` kept beside the profile."""
    digest = hashlib.sha256(repr(_lut_key(profile)).encode())
    digest.update(repr((CLASS_NAMES, COLOUR_CLASSES, COLOURS, np.__version__, cv2.__version__)).encode())
    for fn in (_grid_colours.__wrapped__, _LutBuilder.__init__, _LutBuilder._block):
        digest.update(_code_fingerprint(fn.__code__))
    return digest.hexdigest()[:32]


def full_colour_lut(profile: Profile) -> np.ndarray:
    """The profile's whole colour table, every censored block built (what :func:`colour_lut` builds
    block by block as frames need them): the thing worth keeping between runs."""
    colour_lut(profile)
    builder = _LUTS[_lut_key(profile)]
    builder.ensure(range(len(builder.built)))
    return builder.table


def adopt_colour_lut(profile: Profile, table: np.ndarray) -> bool:
    """Use ``table`` (an earlier :func:`full_colour_lut` of this profile, e.g. from a cache) as the
    profile's colour table, so :func:`colour_lut` need not build it. False (and nothing adopted) if it
    cannot be the profile's table: wrong size or type."""
    patterns = 8 if profile.glare is not None else 1
    if not isinstance(table, np.ndarray) or table.dtype != np.uint8 or table.shape != (patterns * 64**3,):
        return False
    key = _lut_key(profile)
    if key in _LUTS:
        return True
    if len(_LUTS) >= 2:
        _LUTS.clear()
        _BY_TABLE.clear()
    builder = _LutBuilder.__new__(_LutBuilder)  # a complete table: nothing left to build, no scores needed
    builder.table = np.ascontiguousarray(table)
    builder.built = [True] * patterns
    _LUTS[key] = builder
    _BY_TABLE[id(builder.table)] = builder
    return True


def colour_lut(profile: Profile) -> np.ndarray:
    """The profile's pixel classifier: 8 (1 without glare) x 2**18 class labels indexed by
    (censored channels, B>>2, G>>2, R>>2) — see :func:`label_pixels`.

    Block 0 is for pixels whose channels are all measured. In block ``p`` (bit 0 B, bit 1 G,
    bit 2 R) the flagged channels were clipped before the known glare was taken off, so their
    value is only a lower bound: a class fits if any value at or above it fits (the best
    score over the censored range). Where two die colours fit about equally well (scores
    within the ``ambiguity`` threshold) the pixel is ``AMBIG`` (die top, colour unreadable);
    where a die colour and the floor both fit, ``BLOWN``. Block 0 is built at once, the
    others the first time a frame has pixels censored that way (loading stays fast).
    """
    key = _lut_key(profile)
    builder = _LUTS.get(key)
    if builder is None:
        if len(_LUTS) >= 2:  # one live profile at a time is the normal case; keep memory bounded
            _LUTS.clear()
            _BY_TABLE.clear()
        builder = _LUTS[key] = _LutBuilder(profile)
        _BY_TABLE[id(builder.table)] = builder
    return builder.table

"""A die top lit brighter than calibration saw any: read again dimmed, below the clip level.

Exposure is locked at calibration, the brightest print in the box just below clipping. A die thrown nearer the lamp,
or whose top catches the light over a wall's shade, is lit brighter than any ritual die was: its frog's brightest
channel reaches the clip level once the light correction is put on, in its place's light and in the frame's overall
light alike, and its top reads as unknown and clipped pixels, a blank die with "unknown colour or glare" (twin 11611,
tray floor, round 33: yellow dice over the right wall's shade, 1.1 times the overall correction, read blank in every
light). Read again with the overall correction scaled down until the top's bright pixels lie below the clip level, its
frog shows its colour. The reader takes that reading only when it is clear (nothing unclear, no more unknown pixels
than a die's, each frog colour of its usual share, one or two colours, every colour the first reading found and one more), and
asks about it.
"""

from __future__ import annotations

import numpy as np

from rig.vision.pixel_classes import CLIPPED

#: a top whose reading holds at least this share of clipped pixels is read again dimmed
CLIPPED_SHARE = 0.1
#: the top's bright pixels (their 95th percentile's brightest channel) are brought to this share of the clip level
DIM_TO = 0.9
DIMMED = "die top lit past the clip level read dimmed"


def dimmed(crop, centre, work, t, counts, n_in: int, first_present: list, frog_size: dict, full_counts, shares_of):
    """The reading (``full_counts``' tuple and ``shares_of``' shares) of a die top (``crop``: its full-resolution box
    and mask, ``dice._crop``) in the frame's overall light scaled down below the clip level, or None: when its reading
    (``counts`` of ``n_in`` pixels) clips too little, nothing clips in the overall light, a frog's usual size is not
    yet known (calibration measuring it), or the dimmed reading is not clear."""
    if crop is None or not frog_size or counts[CLIPPED] < CLIPPED_SHARE * n_in or work.gain is None:
        return None
    X0, Y0, X1, Y1, mask = crop
    top = work.frame[Y0:Y1, X0:X1][mask > 0]
    if top.size == 0:
        return None
    bright = float(np.percentile(top.max(axis=1), 95)) * float(work.overall_gain.max())
    scale = DIM_TO * t.clip_level / max(bright, 1.0)
    if scale >= 1.0:
        return None
    again = full_counts(crop, centre, work, t, gain=work.overall_gain * scale)
    if again is None:
        return None
    shares = shares_of(again[0], again[1], t, again[2:])
    fractions, present, unclear, odd = shares
    lo, hi = t.single_share if len(present) == 1 else t.combo_share
    usual = all(lo <= fractions[c] / frog_size.get(c, fractions[c]) <= hi for c in present)
    if unclear or odd > t.unknown_max or not usual or len(present) > 2 or not set(first_present) < set(present):
        return None  # (the same colours as the first reading: nothing to take, and nothing to ask about)
    return again, shares

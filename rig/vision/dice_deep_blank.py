"""A blank die top in a wall's deep shade, read as one big frog colour, read again in its own light (issue 24,
round 37).

The shade map (:mod:`rig.vision.calibrate_shade`) lifts a wall's deep shade per channel to the open floor's light.
A die's top stands a die's height above that floor and catches more of the walls' and the room's light, bluer than
the floor's: lifted, a blank top there comes out blue all over (twin 11922, near wall's band lifted ~8 times: three
blank dice read blue in every light; twin 11910 turns 1 and 17).

A frog lies on the die's body, so a top's median colour is its body's unless the frog covers most of it. Scaled per
channel so that the median comes out the profile's body colour (the light there measured on the top itself), such a
top loses its blue; a true frog's top keeps its frog. The reader takes that reading only for a die in the deep shade
(more than ``dice.DEEP_SHARE`` of its top) read blue alone — the shade's light is bluer; a pink frog covers about half
its top, so its median can be the frog's (twin 11608, 11905, 11926: pink read blank so) — when its blue fades there
to a speck, and reads it blank and asks (:data:`DEEP_BLANK`). Only once calibration is done (its empty box kept beside the profile).
"""

from __future__ import annotations

import numpy as np

from rig.vision.card_empty import kept
from rig.vision.dice_body_light import body_bgr

DEEP_BLANK = "die top in deep shade reads blank in its own light"
#: ... when the colour it was read as keeps at most this share of what it was there (the camera's noise, lifted
#: another 8-14 times in red, leaves specks of other colours, pink: not read, asked)
FADED = 0.35


def blank_in_own_light(crop, centre, work, t, shares: tuple, frog_size: dict, full_counts, shares_of):
    """The reading (``full_counts``' tuple and ``shares_of``' shares) of a die top in deep shade (``crop``: its
    full-resolution box and mask, ``dice._crop``) read blue, and blue alone (``shares``: its reading's), with each
    channel scaled so that the top's median comes out the body's colour, read blank, when that colour fades there
    (:data:`FADED`); or None."""
    fractions, present, unclear, _ = shares
    if crop is None or present != ["blue"] or unclear or not frog_size or work.profile is None or kept(work.profile) is None:
        return None
    X0, Y0, X1, Y1, mask = crop
    median = np.median(work.frame[Y0:Y1, X0:X1][mask > 0], axis=0)
    again = full_counts(crop, centre, work, t, gain=(body_bgr(work.profile) / np.maximum(median, 1.0)).astype(np.float32))
    if again is None:
        return None
    colour, first = present[0], fractions[present[0]]
    fractions, present, _, odd = shares_of(again[0], again[1], t, again[2:])
    if colour in present or fractions[colour] > FADED * first or odd > t.unknown_max:
        return None
    return again, (fractions, [], [], odd)  # the specks lifted noise leaves of other colours, not read (asked)

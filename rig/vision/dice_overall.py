"""A die top read in the frame's overall light, when the light of its place on the floor misreads it.

The light correction and the glare the empty box showed are the floor's: a lamp's reflection on a
varnished floor, or a wall's shade on it, is taken off (or lifted) wherever it lies. A die's top
stands a die's height above the floor and is glossy: the floor's reflection is often not on it, and
the shade can miss it. Corrected as its floor, such a top's frog comes out darker and more
saturated than any frog of the profile — unknown colour, or no frog at all. Read again in the
frame's overall light (the median correction over the view, nothing taken off), it shows its
colours as dice in the open do. The reader takes that second reading only where the place's
correction differs from the overall one, the frame's light is within correction, and the second
reading is clear, with frog areas of their usual size, and keeps every colour the first found (a die in a
wall's deep shade, lifted, shows its frog; unlifted, it is too dark to show one); and only with a flag.

Under the floor's glare the second reading also guards a first one read clearly enough to pass: a die whose top,
read without the glare taken off, shows no clear face either (a lamp's veil on its own top, not the floor's) and
whose first reading is unsure (confidence under :data:`BARE_SURE`) is flagged (twin 8610's yellow ritual die read
"blank" with confidence 0.35, unflagged).
"""

from __future__ import annotations

import numpy as np

#: the place's correction must differ from the overall one by this factor (or lie under the floor's
#: glare) before a die top is read again: elsewhere the two readings are the same
DIFFERENT = 1.15
#: a die under the floor's glare whose top reads no clear face without the glare taken off (a lamp's veil
#: on its own top, not the floor's) is flagged when its first reading is less sure than this
BARE_SURE = 0.5
#: a top whose place's correction is at least this many times the overall one in every channel lies over a shade of
#: the floor (a wall's) that it stands above: lit, it is brightened past its colours and reads blank
ABOVE_SHADE = 1.8
LIT_ABOVE_SHADE = "die top over the floor's shade read in the frame's overall light"
#: a top read blank with less confidence than this (a frog colour's share of it near the threshold) is flagged: twin
#: 11702 turn 4 at lamp x0.8 read a clear blue+yellow die blank at 0.35, unflagged (round 33's fresh set); on the 78
#: seen twin tables (7,488 turn-lights) 5 turns read right and ``ok`` hold a blank this unsure
BLANK_SURE = 0.4
UNSURE_BLANK = "die top read blank with a frog colour near its threshold"
#: a top read blank whose overall reading is more than ``dice.FLOOR_ON_TOP`` the floor's class (and its first reading
#: more than ``dice.FLOOR_FIRST``) is flagged: twin 11710 turn 10 at lamp x1.2 and 700 K warmer (round 33's fresh set)
#: read a pink die blank at 0.95, its pale frog clipped in red and classed as the floor (the lamp's reflection on the
#: varnish taught the floor pale pink): 594 of 977 pixels
FLOOR_IN_OVERALL = "blank die top reads as the floor in the frame's overall light"


def overall_counts(crop: tuple | None, centre, work, t, full_counts) -> tuple | None:
    """``full_counts``' counts of a die top (``crop``: its full-resolution box and mask, ``dice._crop``) in the frame's
    overall light, or None when its place's light is the overall light (nothing to read again) or the top is too
    small to count."""
    if work.light is not None and not work.light.correctable:
        return None  # the whole frame's light is beyond correction (and flagged): no place reads better
    gain = work.gain
    gh, gw = gain.shape[:2]
    cx, cy = min(gw - 1, max(0, int(centre[0]))), min(gh - 1, max(0, int(centre[1])))
    overall = work.overall_gain
    ratio = gain[cy, cx] / np.maximum(overall, 1e-6)
    if not under_glare(cx, cy, work) and ratio.max() < DIFFERENT and ratio.min() > 1 / DIFFERENT:
        return None
    return full_counts(crop, centre, work, t, gain=overall)


def lit_above_shade(centre, work, first_present: list, shares: tuple, t) -> bool:
    """Whether a top read blank in its place's light (``first_present`` empty) is read by its overall reading
    (``shares``: :func:`rig.vision.dice._shares`'s, of :func:`overall_counts`): its place's correction brightens it at
    least :data:`ABOVE_SHADE` times the overall (the floor's shade at a wall's foot; a die's top stands above it, lit)
    and the overall reading is a clear face, one or two frog colours, nothing unclear, no more unknown pixels than a
    die's (twin 11410 turns 10 and 22, a pink and a blue die at the near wall, 2.1-2.4 times: their tops clipped pale,
    read blank; in the overall light pink 0.25-0.27, blue 0.24). The reading stays flagged (:data:`LIT_ABOVE_SHADE`)."""
    fractions, present, unclear, odd = shares
    if first_present or not present or unclear or odd > t.unknown_max or len(present) > 2:
        return False
    gain = work.gain
    cx, cy = min(gain.shape[1] - 1, max(0, int(centre[0]))), min(gain.shape[0] - 1, max(0, int(centre[1])))
    return bool((gain[cy, cx] >= ABOVE_SHADE * np.maximum(work.overall_gain, 1e-6)).all())


def shows_frog(fractions: dict, t) -> bool:
    """Whether a top read blank in its place's light shows a frog in the frame's overall light: any colour's share of
    the top (``fractions``, the overall reading's) more than a blank top's most (``t.colour_absent``). A pale frog under
    the lamp's sheen, darkened with the floor there, vanished into the body and read blank surely (twin 10508 turn 2
    after the lamp brightened: pink 0.005 in its place's light, 0.106 in the overall; round 22): it is flagged."""
    return any(share >= t.colour_absent for share in fractions.values())


def past_the_floors_glare(shares: tuple, frog_size: dict, first: tuple, t) -> bool:
    """Whether a die under the floor's glare, read clearly in its place's light, takes its reading in the frame's
    overall light (``shares``: :func:`rig.vision.dice._shares`'s, of :func:`overall_counts`), read clearly too and as
    another face: the glare the empty box showed lies on the floor, a die's height below the glossy top, and taking it
    off that top (as a tinted or darkened floor's correction) shifts the frog's colours: a blue frog under one 2710 K
    lamp sank into the die body and read blank, a blank top took the floor's cast and read pink (twin 11601 and 11606,
    round 33: the overall reading was the true face on all 38 such dice looked at on 11600-11611, every light). The die is
    still asked about ("reads another face without it"). Only once calibration has measured a frog's usual size
    (``frog_size``): it measures it on the ritual's dice as read in their places' light, and keeps doing so. The
    overall reading must keep every colour the first one (``first``: its shares) found, unless that found three: a
    frog read in its place can be a veiled frog the overall light loses (twin 10103 turn 20: blue 0.24 read blank;
    card table 3016's pink ritual die, lifted by a wall's shade), so 11606's blank tops read pink stay asked."""
    fractions, present, unclear, odd = shares
    if not frog_size or unclear or len(present) > 2:
        return False
    return len(first[1]) > 2 or set(first[1]) <= set(present)


def lamp_on_top(small: np.ndarray, labels: np.ndarray, inner: np.ndarray, work, cx: float, cy: float) -> bool:
    """Whether the lamp's own reflection lies on a die's top (its body veiled paler and greyer, or calibration saw the
    lamp's mirror image pale a ritual die's top there): then the floor's glare under it is on the top too, and read
    without it a veiled frog vanishes (twin 11501 turn 19 after the lamp brightened: a yellow die read yellow in its
    place's light, blank in the overall light; round 33). Such a die keeps its place's reading, asked."""
    from rig.vision.dice_hue import veiled
    from rig.vision.light import sheen_at

    sheen = sheen_at(work.profile, work.labels.shape[:2])
    on_sheen = sheen is not None and bool(sheen[min(int(cy), sheen.shape[0] - 1), min(int(cx), sheen.shape[1] - 1)])
    return on_sheen or veiled(small, labels, inner, work.profile)


def overall_gain(gain: np.ndarray) -> np.ndarray:
    """The median correction over the view (every fourth working pixel each way); the frame's :class:`Work` keeps it
    (``Work.overall_gain``): one per frame, not one per die."""
    return _column_medians(gain[::4, ::4])


def _column_medians(a: np.ndarray) -> np.ndarray:
    """``np.median(a.reshape(-1, 3), axis=0)`` of an n x 3 (or h x w x 3) array without NaNs, the same values (the
    middle one, or the mean of the two middle ones, in ``a``'s type): each channel partitioned once, as one contiguous
    row, at the upper middle; the lower middle is the largest value below it (a quarter of the time of numpy's median
    on the view's 4,800 points at a 320 x 240 working scale, which partitions at both middles; on the light's grid of
    192 cells the two-middle partition stays quicker). An h x w x 3 view (the gain's every fourth pixel) is copied
    once, straight into its channels' rows (copied to n x 3 first, then to rows, it took a fifth longer: 118 against
    95 us)."""
    rows = np.ascontiguousarray(a.transpose(2, 0, 1) if a.ndim == 3 else a.T).reshape(a.shape[-1], -1)
    n = rows.shape[1]
    if n == 0:
        return np.median(rows, axis=1)
    m = n // 2
    part = np.partition(rows, m, axis=1)
    if n % 2:
        return part[:, m]
    return (part[:, :m].max(axis=1) + part[:, m]) / 2


def under_glare(cx: float, cy: float, work) -> bool:
    """Whether the floor's glare (as the empty box showed it) lies under a working-scale point."""
    if work.glare is None:
        return False
    gh, gw = work.glare.shape[:2]
    return int(work.glare[min(gh - 1, max(0, int(cy))), min(gw - 1, max(0, int(cx)))].max()) >= 4

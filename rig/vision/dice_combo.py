"""A two-colour frog whose second half reads only "unclear": the half-size frog beside it says it is a combo (issue 24, round 19).

A die's colour counts as present at 0.3 of the smallest calibrated frog (:func:`rig.vision.calibrate`), and a
combo's half is 0.3-0.7 of its colour's frog (``combo_share``): a half in shade, turned from the lamp or paled by it
falls under the bar and reads "unclear", and the die is read as its other half's single colour (twin 10200 turn 3, a
yellow+pink die whose pink half lay in its own shade, read yellow in all four lights; 10205 turn 1, blue+yellow with a
pale blue half, read yellow). A single frog is a whole frog: at least ``single_share[0]`` (0.75) of its calibrated
size. A die showing one colour at a combo half's size (no more than :data:`HALF_MOST` of its frog) and another colour
unclear is read as the combo of the two when, on the full-resolution top, the two colours form one frog
(:func:`rig.vision.dice._one_frog`: each colour one compact blob, the two halves touching). Without that guard a
single frog half in a wall's shade, the shade's noise speckled blue round it, read as a combo (twin 10009 turn 2's
pink, found by :func:`rig.vision.dice_missed.cut_tops`, read "pink+blue"). The "unclear" flag stays: the face is the
reader's best guess, still asked.
"""

from __future__ import annotations

#: the most of its calibrated frog a colour may show and be read as a combo's half (``combo_share``'s top, 0.7;
#: a single frog shows at least 0.75): chosen on twin 10200-10211 (seen), checked on the other seen sets
HALF_MOST = 0.7


def half_partner(fr: dict, present: list[str], unclear: list[str], frog_size: dict) -> str | None:
    """The colour an unclear die's frog pairs with (``present``'s one colour being a half-size frog), or None.
    ``fr``: the top's share of each colour; ``frog_size``: the calibrated share of each colour's whole frog.

    >>> half_partner({"blue": 0.107, "pink": 0.0, "yellow": 0.186}, ["yellow"], ["blue"], {"blue": 0.41, "yellow": 0.43})
    'blue'
    >>> half_partner({"blue": 0.05, "pink": 0.0, "yellow": 0.40}, ["yellow"], ["blue"], {"blue": 0.41, "yellow": 0.43}) is None
    True
    """
    if len(present) != 1 or not unclear or not frog_size:
        return None
    (c,) = present
    size = frog_size.get(c)
    if not size or fr[c] > HALF_MOST * size:
        return None
    return max(unclear, key=fr.get)


#: the most of its calibrated frog, measured against a whole top, a one-colour frog on a top read short may show and be
#: flagged as maybe a combo's half (round 28, probed on the seen twin 10000-10005, 10100-10101, 10103, 10903: the combo
#: dice read as one half measured 0.33-0.50, flat one-colour dice cut short 0.24-0.70). Size alone does not part them
#: (2D 44000-44011 needless 4.2 -> 9.0 %): the second look's net judges each such die (``dice_second_look.HALF_KIND``)
HALF_SHORT = 0.6


def half_on_short_top(fr: dict, present: list[str], frog_size: dict, whole: float) -> str | None:
    """The colour of a one-colour die whose frog, on a top read short (``whole``: the share of a whole top its counted
    pixels cover, under 1), shows no more of its colour than a combo's half (of its frog, measured against a whole
    top: :data:`HALF_SHORT`), or None. The top's missing part may hold the other half.

    >>> half_on_short_top({"blue": 0.0231, "pink": 0.0, "yellow": 0.2538}, ["yellow"], {"yellow": 0.3193}, 0.521)
    'yellow'
    >>> half_on_short_top({"blue": 0.0, "pink": 0.0, "yellow": 0.40}, ["yellow"], {"yellow": 0.43}, 0.8) is None
    True
    """
    if len(present) != 1 or whole >= 1.0:
        return None
    (c,) = present
    size = frog_size.get(c)
    return c if size and fr[c] / size * whole <= HALF_SHORT else None

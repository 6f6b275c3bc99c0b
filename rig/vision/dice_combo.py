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

"""A blob of die body in shade flagged "die in shadow or on edge" only when a die could lie hidden in it (issue 24,
round 18: rig.vision.dice_shade)."""

from __future__ import annotations

import numpy as np

from rig.vision import dice, dice_missed, dice_shade
from rig.vision.dice_shade import CORE, blob, disc

from .dice_twin import frame_and_profile

SHADE = "die in shadow or on edge"
#: twin 10107 (round 17's fresh set, seen since) turn 2: six flat dice read right; the far wall's shade, a band 1.1-1.6
#: die sides wide along the box's edge 6 die sides long, broken by the lift's noise, was flagged before round 18
FLAT = ("t10107-turn2.jpg", "t10107")
#: twin 10105 (seen) turn 3: a yellow die at (514, 239) leaning on the right wall; the shade of two walls joined in an
#: L holds a disc of 0.38 die sides and stays flagged
COCKED = ("t10105-turn3.jpg", "t10105")
#: twin 10106 (seen) turn 3: a blank die at (345, 362) hidden in the near wall's deep shade, its blob broken up by the
#: lift's noise (it holds a disc of a third of a die side), and a yellow+pink die leaning on the far wall
HIDDEN = ("t10106-turn3.jpg", "t10106")


def _read(which, thrown=6):
    frame, profile = frame_and_profile(*which)
    return dice.read_dice(frame, profile, thrown=thrown)


def _shade(reading):
    return [str(r) for r in reading.reasons if str(r).startswith(SHADE)]


def test_a_walls_shade_band_is_no_die_once_every_die_is_read():
    reading = _read(FLAT)
    assert reading.status == "ok" and not reading.reasons
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "pink", "pink", "yellow", "yellow"]


def test_without_the_count_the_band_stays_flagged(monkeypatch):
    assert _shade(_read(FLAT, thrown=None)) == [f"{SHADE} at (90, 62)"]  # as before round 18, the count unknown
    monkeypatch.setattr(dice_shade, "CORE", 0.0)  # the disc not asked: flagged as before
    assert _shade(_read(FLAT)) == [f"{SHADE} at (90, 62)"]


def test_a_leaning_die_stays_flagged():
    reading = _read(COCKED)
    assert reading.status == "uncertain" and "cocked die at (505, 239)" in [str(r) for r in reading.reasons]
    assert _shade(reading) == [f"{SHADE} at (197, 158)"]  # as before round 18: the L holds a disc of CORE
    assert [(d.face, round(d.x), round(d.y)) for d in reading.dice if d.cocked] == [("yellow", 504, 238)]


def test_a_die_hidden_in_shade_keeps_its_flag_with_or_without_the_count(monkeypatch):
    # with the count the die is read since round 18 (dice_missed.cut_tops), flagged at its place
    reading = _read(HIDDEN)
    assert len(reading.dice) == 6 and "die in deep shade, check at (344, 357)" in [str(r) for r in reading.reasons]
    monkeypatch.setattr(dice_missed, "cut_tops", lambda work, t, dice, want: [])  # the die not read: a die short
    for thrown in (6, None):
        reading = _read(HIDDEN, thrown)
        assert len(reading.dice) == 5 and _shade(reading) == [f"{SHADE} at (345, 355)"]
    assert "5 of the 6 dice thrown seen (one hidden in shade?)" in [str(r) for r in _read(HIDDEN).reasons]


def test_the_disc_a_blob_holds():
    mask = np.zeros((60, 120), np.uint8)
    mask[5:15, 5:115] = 255  # a band 10 px wide (the wall's shade)
    mask[30:52, 40:62] = 255  # a square 22 px wide (a die's top)
    assert blob(mask, 100, 3.0) == (59.5, 9.5)  # the first blob
    assert blob(mask, 100, 3.0, disc=8.0) == (50.5, 40.5)  # the band holds a disc of 5 px, the square of 11
    assert blob(mask, 100, 3.0, disc=12.0) is None
    assert disc(6, 6) == CORE and disc(5, 6) == 0.0 and disc(6, None) == 0.0

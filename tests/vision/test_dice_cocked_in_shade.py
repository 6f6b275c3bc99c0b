"""A flat die the top's aspect test calls cocked whose lit top, joined to its own shade, is whole and square: the second
look may take its "cocked die" flag off when it reads the die flat and the same face (issue 24, round 20:
dice_second_look.JOINED_KINDS). Twin frames committed as JPEG 4:4:4 q95 with the profiles they are read with."""

from __future__ import annotations

from rig.vision import dice, dice_second_look
from rig.vision.dice_frames import prepare

from .dice_twin import frame_and_profile

#: twin 10211 (seen) turn 3 at lamp x1.2: six flat dice read right; a pink die at (458, 233), turned 45 degrees, part
#: of its top in shade: its lit top 0.82 short / long side, flagged "cocked die" by the aspect test on ``main``
ASPECT = ("t10211-turn3-bright.jpg", "t10211")
#: twin 10105 (seen) turn 3: a yellow die at (504, 238) truly leaning on the right wall, flagged "cocked die"
LEANING = ("t10105-turn3.jpg", "t10105")


def _read(which):
    frame, profile = frame_and_profile(*which)
    return dice.read_dice(frame, profile, thrown=6)


def test_a_flat_die_whose_top_lies_partly_in_shade_is_not_cocked():
    reading = _read(ASPECT)
    assert reading.status == "ok" and not reading.reasons
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "blue", "pink", "pink", "yellow+pink"]


def test_with_the_joined_top_for_partly_hidden_dice_only_it_stays_cocked(monkeypatch):
    monkeypatch.setattr(dice_second_look, "JOINED_KINDS", (dice_second_look.HIDDEN_KIND,))  # as before round 20
    reading = _read(ASPECT)
    assert reading.status == "uncertain" and [str(r) for r in reading.reasons] == ["cocked die at (459, 234)"]


def test_its_lit_top_fails_the_aspect_test_and_its_joined_top_is_whole():
    frame, profile = frame_and_profile(*ASPECT)
    work = prepare(frame, profile)
    reading = dice.read_dice(frame, profile, thrown=6)
    pink = next(d for d in reading.dice if abs(d.x - 458) < 10 and abs(d.y - 233) < 10)
    assert pink.aspect < profile.thresholds.cocked_aspect
    assert not dice_second_look.square(pink.aspect, pink.area)
    assert dice_second_look.whole_in_shade(pink, work, list(reading.dice))


def test_a_die_leaning_on_the_wall_stays_cocked():
    frame, profile = frame_and_profile(*LEANING)
    work = prepare(frame, profile)
    reading = _read(LEANING)
    leaning = next(d for d in reading.dice if abs(d.x - 504) < 10 and abs(d.y - 238) < 10)
    assert leaning.cocked and "cocked die at (505, 239)" in [str(r) for r in reading.reasons]
    assert not dice_second_look.whole_in_shade(leaning, work, list(reading.dice))

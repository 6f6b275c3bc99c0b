"""A die the reader calls partly hidden whose top, joined to its own shade, is whole and square: the second look may
take its flag off when it reads the die flat and the same face (issue 24, round 19: dice_second_look.whole_in_shade)."""

from __future__ import annotations

from rig.vision import dice, dice_second_look
from rig.vision.dice_frames import prepare

from .dice_twin import frame_and_profile

HIDDEN = "die partly hidden or on edge"
#: twin 10205 (round 18's fresh set, seen since) turn 0: six flat dice read right; a pink die under the far wall at
#: (204, 95) whose body lies in the wall's shade, its pink frog lit: its top read 0.36 tops, flagged partly hidden
WHOLE = ("t10205-turn0.jpg", "t10205")
#: twin 10004 (seen) turn 1: a yellow+pink die at (348, 405) whose yellow half lies in shade, read "pink" before
#: round 19 and flagged partly hidden: its flag stays (the second look does not read it flat); round 19's combo rule
#: (dice_combo.half_partner) reads it right, still flagged
MISREAD = ("t10004-turn1.jpg", "t10004-r19")


def _read(which):
    frame, profile = frame_and_profile(*which)
    return dice.read_dice(frame, profile, thrown=6)


def test_a_flat_die_whose_body_lies_in_shade_is_whole():
    reading = _read(WHOLE)
    assert reading.status == "ok" and not reading.reasons
    assert sorted(d.face for d in reading.dice) == ["blank", "blue", "pink", "pink+blue", "yellow", "yellow"]


def test_without_the_joined_top_the_die_stays_partly_hidden(monkeypatch):
    monkeypatch.setattr(dice_second_look, "JOINED_WHOLE", 9.0)  # no joined top is whole: flagged as before round 19
    reading = _read(WHOLE)
    assert reading.status == "uncertain" and f"{HIDDEN} at (201, 96)" in [str(r) for r in reading.reasons]


def test_the_joined_top_is_measured_whole_and_square():
    frame, profile = frame_and_profile(*WHOLE)
    work = prepare(frame, profile)
    reading = dice.read_dice(frame, profile, thrown=6)
    pink = next(d for d in reading.dice if d.face == "pink")
    assert pink.area < profile.thresholds.die_area_min  # the reader's top: partly hidden
    assert dice_second_look.whole_in_shade(pink, work, list(reading.dice))


def test_a_die_in_shade_the_second_look_does_not_read_flat_stays_flagged():
    reading = _read(MISREAD)
    assert reading.status == "uncertain" and f"{HIDDEN} at (349, 396)" in [str(r) for r in reading.reasons]
    assert "yellow+pink" in [d.face for d in reading.dice if abs(d.x - 348) < 10 and abs(d.y - 396) < 10]

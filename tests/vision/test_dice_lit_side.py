"""A leaning die's side face in the room's light, where a flat die shows none (issue 24, round 17:
rig.vision.dice_upright.lit_side)."""

from __future__ import annotations

from rig.vision import dice, dice_upright
from rig.vision import dice_second_look as second
from rig.vision.dice_frames import prepare
from rig.vision.dice_upright import LIT_SIDE, REASON, lit_side

from .dice_twin import frame_and_profile

#: twin 10000 (round 16's fresh set, seen since) turn 3: a pink die at (393, 98) leaning 26 degrees on the far wall
#: with its top turned to the lens (square and die-sized from above), its wall-side face labelled floor; read "ok"
#: before round 17
LEANING = ("t10000-turn3.jpg", "t10000")
#: twin 10006 (seen) turn 0: six flat dice whose cast shadows take the die's hue on a grey-violet floor (the band of
#: die hue beyond their far edges reaches 0.3-0.4 die sides); a flat blue die at (163, 381) the flank test calls cocked
FLAT = ("t10006-turn0.jpg", "t10006")


def _read(which):
    frame, profile = frame_and_profile(*which)
    return frame, profile, dice.read_dice(frame, profile, thrown=6)


def test_a_die_leaning_with_its_top_to_the_lens_is_flagged():
    _, _, reading = _read(LEANING)
    assert reading.status == "uncertain"
    assert [str(r) for r in reading.reasons] == [f"{REASON} at (395, 108)"]
    assert [(d.face, round(d.x), round(d.y)) for d in reading.dice if d.cocked] == [("pink", 394, 107)]


def test_what_flags_it_is_its_lit_side_face(monkeypatch):
    frame, profile, reading = _read(LEANING)
    work = prepare(frame, profile)
    pink = next(d for d in reading.dice if d.cocked)
    assert lit_side(pink, work, reading.dice) >= LIT_SIDE
    assert all(lit_side(d, work, reading.dice) < LIT_SIDE for d in reading.dice if not d.cocked)
    monkeypatch.setattr(dice_upright, "LIT_SIDE", 9.0)  # without it the turn reads "ok": no other test sees the lean
    assert dice.read_dice(frame, profile, thrown=6).status == "ok"


def test_the_second_look_does_not_take_it_off(monkeypatch):
    _, _, with_it = _read(LEANING)
    monkeypatch.setattr(second, "ENABLED", False)
    _, _, without = _read(LEANING)
    assert with_it.reasons == without.reasons and not second.freeable(REASON)


def test_flat_dice_with_shadows_of_die_hue_keep_their_reading(monkeypatch):
    frame, profile, reading = _read(FLAT)
    assert [str(r) for r in reading.reasons] == ["cocked die at (167, 379)"]  # the flank test's, as before round 17
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "blank", "blue", "blue+yellow", "pink+blue"]
    work = prepare(frame, profile)
    flat = [d for d in reading.dice if not d.cocked]
    assert len(flat) == 5 and all(lit_side(d, work, reading.dice) < LIT_SIDE for d in flat)
    # the band of die hue at any brightness: their cast shadows; the bound on brightness is what keeps them
    monkeypatch.setattr(dice_upright, "LIT_BRIGHT", (0.0, 9.0))
    assert max(lit_side(d, work, reading.dice) for d in flat) >= 2 * LIT_SIDE

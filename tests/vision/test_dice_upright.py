"""A die's side face where a flat die shows none (issue 24, round 15: rig.vision.dice_upright)."""

from __future__ import annotations

from rig.vision import dice
from rig.vision import dice_second_look as second
from rig.vision.dice_frames import prepare
from rig.vision.dice_upright import REASON, SIDE, side_faces

from .dice_twin import frame_and_profile

#: twin 9711 (seen) turn 3, lamp x1.2: a blue die leaning on the far side at (534, 262) that the flank test let
#: pass (the reading was "ok" before round 15), and a flat blank die far out at (146, 349)
FRAME = ("t9711-turn3-bright.jpg", "t9711")


def _reading():
    frame, profile = frame_and_profile(*FRAME)
    return frame, profile, dice.read_dice(frame, profile, thrown=6)


def test_a_die_leaning_on_the_far_side_is_flagged():
    _, _, reading = _reading()
    assert reading.status == "uncertain"
    assert [str(r) for r in reading.reasons] == [f"{REASON} at (534, 262)"]
    leaning = [d for d in reading.dice if d.cocked]
    assert [(d.face, round(d.x), round(d.y)) for d in leaning] == [("blue", 533, 261)]


def test_the_second_look_does_not_take_the_flag_off(monkeypatch):
    # the flag is no "cocked die": a kind the second look never frees, so the turn stays flagged with or without it
    _, _, with_it = _reading()
    monkeypatch.setattr(second, "ENABLED", False)
    _, _, without = _reading()
    assert with_it.reasons == without.reasons and not second.freeable(REASON)


def test_a_flat_die_far_out_with_a_side_face_short_is_not_flagged():
    # the blank die far out shows less side face than the sweep predicts on its nadir side, but no shade beyond
    # another edge: a flat die's top partly in the lamp's light, not a leaning die
    frame, profile, reading = _reading()
    work = prepare(frame, profile)
    blank = next(d for d in reading.dice if round(d.x) == 146)
    extra, missing = side_faces(blank, work, reading.dice)
    assert missing >= SIDE > extra
    assert not blank.cocked
    blue = next(d for d in reading.dice if d.cocked)
    assert min(side_faces(blue, work, reading.dice)) >= SIDE


def test_a_die_without_a_lit_top_is_not_measured():
    frame, profile, reading = _reading()
    d = reading.dice[0]
    corner = d.__class__(d.face, 2.0, 2.0, (0, 0, 4, 4), d.confidence)  # a "die" in the frame's corner: no top there
    assert side_faces(corner, prepare(frame, profile), ()) is None

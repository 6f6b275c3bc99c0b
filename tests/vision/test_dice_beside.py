"""Round 26 (issue 24): a blank die whose whole top the colour table calls shade body, touching another die at a corner
(twin 10805 turn 0, round 24's fresh set, seen now): its dark top and the other die's dark body ring are one blob of
two tops, partly inside the other die's box, so :func:`rig.vision.dice_missed.dark_tops` never looked at it. While a
die thrown is missing, :func:`rig.vision.dice_beside.beside_blobs` cuts the read dice's boxes out of such blobs."""

from rig.vision import dice_missed
from rig.vision.dice import read_dice

from .dice_twin import faces_near, frame_and_profile

BLANK = (188, 15)  # the blank die at the frame's top edge, touching a blue+yellow die at (209, 66)


def test_a_blank_die_touching_another_in_its_place_s_dark_light_is_found_and_flagged():
    frame, profile = frame_and_profile("t10805-turn0.webp", "t10805")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, *BLANK, 10) == ["blank"]
    assert faces_near(reading, 209, 66, 10) == ["blue+yellow"]
    assert len(reading.dice) == 6
    assert any(r.startswith(dice_missed.REASON) and "(188, 17)" in r for r in reading.reasons)
    assert reading.status == "uncertain"  # read brightened: flagged, as every die dark_tops finds


def test_without_the_cut_the_blank_die_is_not_found(monkeypatch):
    monkeypatch.setattr("rig.vision.dice.beside_blobs", lambda *args: iter(()))
    frame, profile = frame_and_profile("t10805-turn0.webp", "t10805")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, *BLANK, 10) == []
    assert "5 of the 6 dice thrown seen (one hidden in shade?)" in reading.reasons


def test_looked_for_only_while_a_die_thrown_is_missing():
    frame, profile = frame_and_profile("t10805-turn0.webp", "t10805")
    assert faces_near(read_dice(frame, profile), *BLANK, 10) == []  # the game's count unknown: not looked for


def test_the_frame_s_edge_cuts_the_top_a_square_s_aspect_would_refuse_it(monkeypatch):
    # the blank die's part, cut by the frame's top edge, is 0.67 as wide as long: at a square's 0.75 it is not read
    monkeypatch.setattr("rig.vision.dice_beside.CUT_ASPECT", 0.75)
    frame, profile = frame_and_profile("t10805-turn0.webp", "t10805")
    assert faces_near(read_dice(frame, profile, thrown=6), *BLANK, 10) == []

"""Round 21 (issue 24): dice against the far wall of twin 10405 (wood floor, 4279 K; round 20's fresh set, seen now).
The lamp stands beyond the far wall: the dice there are lit, their tops paled by the lamp's sheen and lighter than the
die body as calibrated, while the empty box showed the wall's deep shade band there. The shade's lift took them to
white, and the searches in shade look for tops darker than the body: "4 of the 6 dice thrown seen". The lift now leaves
a pixel it would take to white as the frame shows it (:data:`rig.vision.dice_frames.STANDING`), and
:func:`rig.vision.dice_relief.lit_tops` finds such a top by its colour with its lightness and sheen taken out; always
flagged."""

import numpy as np

from rig.vision import dice_frames, dice_relief
from rig.vision.dice import prepare, read_dice
from rig.vision.dice_missed import SHADE_REASON

from .dice_twin import faces_near, frame_and_profile


def test_a_lit_blue_die_against_the_far_wall_is_read_and_flagged():
    # turn 0 (its frame at lamp x0.8): the blue die at (280, 92) was "part of a die"; main read four dice of six
    frame, profile = frame_and_profile("t10405-turn0-lamp08.jpg", "t10405")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 280, 92, 12) == ["blue"] and faces_near(reading, 161, 86, 12) == ["pink+blue"]
    assert reading.status == "uncertain" and any(r.startswith(SHADE_REASON + " at (28") for r in reading.reasons)
    assert len(reading.dice) == 6
    # the four dice main read keep their faces
    assert faces_near(reading, 238, 116, 12) == ["blank"] and faces_near(reading, 536, 224, 12) == ["blank"]
    # without the count of dice thrown the search does not run
    assert faces_near(read_dice(frame, profile), 280, 92, 12) == []


def test_the_lift_leaves_a_lit_top_in_the_shade_band_its_colour():
    frame, profile = frame_and_profile("t10405-turn0-lamp08.jpg", "t10405")
    work = prepare(frame, profile)
    top = work.small[43:49, 136:144].reshape(-1, 3)  # the blue die's top, working scale
    assert np.median(top.min(axis=1)) < dice_frames.STANDING


def test_without_the_lift_left_off_the_top_is_white_and_not_found(monkeypatch):
    frame, profile = frame_and_profile("t10405-turn0-lamp08.jpg", "t10405")
    monkeypatch.setattr(dice_frames, "STANDING", 256)  # nothing reaches it: every pixel in the band lifted
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 280, 92, 12) == []


def test_the_sheen_is_taken_off_a_paled_body():
    body = np.array([164.0, 73.0, 124.0], np.float32)
    paled = (0.47 * body + 63).astype(np.uint8)
    top = np.broadcast_to(paled, (10, 10, 3)).copy()
    from rig.vision.colour_table import colour_lut

    _, profile = frame_and_profile("t10405-turn0-lamp08.jpg", "t10405")
    read = dice_relief._unsheened(top, np.ones((10, 10), np.uint8), body, colour_lut(profile))
    assert read is not None
    bright, _, a, _ = read
    assert abs(a - 0.47) < 0.03 and np.abs(bright[0, 0].astype(float) - body).max() < 6
    # a floor's grey-green is no paled body
    floor = np.full((10, 10, 3), (150, 160, 150), np.uint8)
    assert dice_relief._unsheened(floor, np.ones((10, 10), np.uint8), body, colour_lut(profile)) is None


def test_a_top_whose_far_half_lies_in_the_walls_shade_is_grown_from_its_lit_half():
    # turn 2: the yellow die at (207, 82); the wall's shade covers its top's far half, the lit half is 116 working px
    # of a 318 px top. Its sheen is fitted on the lit half, the box round it read again without it: the yellow frog's
    # pixels join the top
    frame, profile = frame_and_profile("t10405-turn2.jpg", "t10405")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 207, 86, 12) == ["yellow"] and len(reading.dice) == 6
    assert any(r.startswith(SHADE_REASON) for r in reading.reasons)


def test_without_the_grown_box_the_half_lit_top_is_not_found(monkeypatch):
    frame, profile = frame_and_profile("t10405-turn2.jpg", "t10405")
    monkeypatch.setattr(dice_relief, "GROW", 0.0)
    monkeypatch.setattr(dice_relief, "SEED_PART", dice_relief.LIT_ASPECT)  # a seed a whole top, as first written
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 207, 86, 12) == []

"""Round 20 (issue 24): violet dice on a violet felt (twin 10311, round 19's fresh set, seen now). A blue die against
the far wall, in the wall's deep shade, was lost in every turn that threw one there ("5 of the 6 dice thrown seen"):
on a floor of the die's own hue the finders by colour see the whole shade band as die colour. It is found by its
lightness over the floor round it (:mod:`rig.vision.dice_relief`), always flagged. And a blue die's cast shadow on the
lit felt was read as a blank die in deep shade: :func:`rig.vision.dice_missed.shade_tops` no longer takes a blob where
the empty box showed lit floor (:data:`rig.vision.dice_missed.SHADOW`)."""

import numpy as np

from rig.vision import dice_missed, dice_relief
from rig.vision.dice import prepare, read_dice
from rig.vision.dice_missed import SHADE_REASON

from .dice_twin import faces_near, frame_and_profile


def test_a_blue_die_in_the_far_walls_shade_on_a_violet_felt_is_read_and_flagged():
    # 10311 turn 0: the blue die at (215, 124) against the far wall; main read five dice, "part of a die" at its lit edge
    frame, profile = frame_and_profile("t10311-turn0.jpg", "t10311")
    reading = read_dice(frame, profile, thrown=6)
    assert len(reading.dice) == 6 and faces_near(reading, 215, 124, 12) == ["blue"]
    assert reading.status == "uncertain" and any(r.startswith(SHADE_REASON + " at (21") for r in reading.reasons)
    # the other five dice keep their faces
    assert sorted(d.face for d in reading.dice) == ["blue", "blue", "blue", "blue+yellow", "pink+blue", "yellow"]
    # without the count of dice thrown the search does not run: five dice, flagged
    alone = read_dice(frame, profile)
    assert len(alone.dice) == 5 and alone.status == "uncertain"


def test_the_relief_finds_the_top_lighter_than_the_shade_band_and_nothing_on_the_lit_floor():
    frame, profile = frame_and_profile("t10311-turn0.jpg", "t10311")
    work = prepare(frame, profile)
    reading = read_dice(frame, profile)  # the five dice the first pass reads, for the search to stay clear of
    tops = dice_relief.relief_tops(work, profile.thresholds, list(reading.dice), 3)
    assert len(tops) == 1
    mask, x, y, _ = tops[0]
    h, w = mask.shape
    assert abs((x + w / 2 + 0.5) * work.factor - 215) < 12 and abs((y + h / 2 + 0.5) * work.factor - 124) < 14


def test_a_dies_cast_shadow_on_the_lit_felt_is_no_die_in_shade():
    # 10311 turn 1: the blue die at (491, 363) casts its shadow towards (504, 398), where main read a blank die "in deep
    # shade"; the yellow+pink die under the blank one is hidden, so the reading stays one short and flagged
    frame, profile = frame_and_profile("t10311-turn1.jpg", "t10311")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 504, 398, 20) == []
    assert faces_near(reading, 334, 123, 12) == ["blue"]  # the far wall's blue die, found by its lightness
    assert reading.status == "uncertain"


def test_the_shadow_bound_leaves_a_die_darker_than_no_empty_floor(monkeypatch):
    # with the bound off the shadow is taken again (the test above fails without it)
    frame, profile = frame_and_profile("t10311-turn1.jpg", "t10311")
    monkeypatch.setattr(dice_missed, "SHADOW", np.inf)
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 504, 398, 20) == ["blank"]


def test_a_lit_gap_among_dice_shadows_is_no_die_in_a_walls_shade(monkeypatch):
    # seen twin 9960 turn 0 at lamp x0.8: a blank die at (221, 47) is lost; the lit floor between dice's shadows at
    # (356, 363) is lighter than the shade round it, but the empty box showed lit floor there: no die is read there
    frame, profile = frame_and_profile("t9960-turn0-lamp08.jpg", "t9960")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 356, 363, 20) == [] and reading.status == "uncertain"
    monkeypatch.setattr(dice_relief, "EMPTY_SHADE", 0.0)  # without the bound it was read "blank"
    assert faces_near(read_dice(frame, profile, thrown=6), 356, 363, 20) == ["blank"]


def _turn_10611():
    # round 22's fresh twin 10611 (seen now), turn 0: a yellow die against the near wall in its deep shade at (363, 369);
    # the relief finds its top, but lifted by the die body's gain its yellow frog reads "unknown": 0.56 of the blob die
    # top, under TOP_SHARE, and the die was lost ("5 of the 6 dice thrown seen"). Lossless: a JPEG moves its pixels.
    return frame_and_profile("t10611-turn0.webp", "t10611")


def test_a_yellow_die_whose_frog_the_shades_gain_leaves_unread_is_read_and_flagged():
    frame, profile = _turn_10611()
    reading = read_dice(frame, profile, thrown=6)
    assert len(reading.dice) == 6 and faces_near(reading, 363, 372, 12) == ["yellow"]
    assert reading.status == "uncertain" and any(r.startswith(SHADE_REASON + " at (36") for r in reading.reasons)
    assert sorted(d.face for d in reading.dice) == ["blank", "pink", "pink", "pink+blue", "yellow", "yellow"]


def test_without_the_frogs_hole_filled_that_die_is_lost(monkeypatch):
    frame, profile = _turn_10611()
    monkeypatch.setattr(dice_relief, "frog_holed", lambda *a: False)
    reading = read_dice(frame, profile, thrown=6)
    assert len(reading.dice) == 5 and faces_near(reading, 363, 372, 12) == []
    assert any(r.startswith("5 of the 6 dice thrown seen") for r in reading.reasons)


def test_a_top_with_a_frog_hole_is_holed_and_a_ring_of_specks_is_not():
    part = np.ones((20, 20), np.uint8)
    relabelled = np.full((20, 20), dice_relief.BODY, np.uint8)
    relabelled[4:17, 4:17] = 6  # (an unknown frog in the middle)
    take = relabelled == dice_relief.BODY
    share = np.count_nonzero(take) / part.size
    assert 0.5 <= share < dice_missed.TOP_SHARE
    assert dice_relief.frog_holed((share, None, None, relabelled, take), part, part.size)
    open_ = take.copy()
    open_[9:12, 0:4] = False  # the unread middle open to the blob's edge: no hole to fill
    share = np.count_nonzero(open_) / part.size
    assert share >= 0.5 and not dice_relief.frog_holed((share, None, None, relabelled, open_), part, part.size)

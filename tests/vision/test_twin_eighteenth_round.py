"""The twin's eighteenth round (issue 24): a flat die against the far wall, the wall's black shade across its top —
a lit part and a part four to six times darker — was lost (round 16's fresh set 10009 turn 2, round 17's 10106
turn 3, both seen now): the first pass called the whole top shade or saw only a sliver of it, and the shade searches
brightened it by one factor (clipping the lit part) or looked among dark pixels only. When the reading is short of the
dice thrown, :func:`rig.vision.dice_missed.cut_tops` brightens each part by its own gain and reads the die, always
flagged (docs/vision.md, round 18)."""

from rig.vision.dice import read_dice
from rig.vision.dice_missed import SHADE_REASON

from .dice_twin import faces_near, frame_and_profile


def test_a_blank_die_whose_top_the_far_walls_shade_cuts_is_read_and_flagged():
    # 10106 turn 3: a blank die at (345, 357) against the far wall, its top's far half in the wall's shade; main read
    # five dice and said "die in shadow or on edge" there
    frame, profile = frame_and_profile("t10106-turn3.jpg", "t10106")
    reading = read_dice(frame, profile, thrown=6)
    assert len(reading.dice) == 6 and faces_near(reading, 345, 357, 10) == ["blank"]
    assert reading.status == "uncertain" and any(r.startswith(SHADE_REASON + " at (34") for r in reading.reasons)
    # without the count of dice thrown (the 2D bench, calibration) the search does not run: five dice, flagged
    alone = read_dice(frame, profile)
    assert len(alone.dice) == 5 and alone.status == "uncertain"


def test_a_pink_die_cut_by_the_walls_shade_across_its_middle_is_read_and_flagged():
    # 10009 turn 2: a pink die at (252, 53) turned 45 degrees against the far wall, its far half in the wall's shade
    frame, profile = frame_and_profile("t10009-turn2.jpg", "t10009")
    reading = read_dice(frame, profile, thrown=6)
    assert len(reading.dice) == 6 and faces_near(reading, 252, 53, 10) == ["pink"]
    assert reading.status == "uncertain" and any(r.startswith(SHADE_REASON + " at (25") for r in reading.reasons)

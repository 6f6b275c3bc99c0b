"""Calibration of a card table whose dice were refused for a frog a player sees (issue 24, round 21).

Card twin table 3902 (round 20's fresh card set, seen now; two lamps, a gray bottom): refused "blue frame: the die at
(407, 167) shows no frog; turn all six dice to blue" — its frog is plainly blue. Each die's first mask held its warm
and its blue shadow, the violet fitted over such tops spread so wide (L sd 26, b sd 21) that the blue frog lay
within it. The retry that finds the dice apart from their shadows saw every frog (shares 0.5-1.0) but was refused
for the box ("body and background overlap (separation 1.2 < 3.0)": the near wall and the table at the bottom right,
lifted to violet by the evening of the light), and that refusal's own tries were not run: the first refusal stood.
Now they run; the last (``bottom``) fits the profile on the plain bottom (84 of the floor grid's 177 cells, taken
from 0.4 of them). Frames committed as JPEG (q95): they give the same refusal on ``main`` and the same acceptance."""

import numpy as np

import rig.vision.calibrate as calibrate
import rig.vision.calibrate_background as background
from rig.vision.calibrate import fit_profile

from .dice_twin import ritual_frames


def test_the_card_table_calibrates_every_ritual_die_read_right():
    frames, empty = ritual_frames("t3902")
    report = fit_profile(frames, empty=empty)
    for face in calibrate.RITUAL:
        assert report.self_test[face][0] == [face] * 6
    assert report.separation["body/background"] >= calibrate.MIN_SEPARATION
    assert any(w.startswith("the box's walls and rim or the table around the box look like the dice") for w in
               report.warnings)
    cells = np.asarray(report.profile.floor_cells, bool)
    assert not cells[10:].any() and not cells[:2].any()  # not the near wall, the rim or the table beyond


def test_without_the_tries_after_the_dice_found_apart_the_frog_refusal_stands(monkeypatch):
    monkeypatch.setattr(calibrate, "FOUND_APART", ())
    frames, empty = ritual_frames("t3902")
    try:
        fit_profile(frames, empty=empty)
    except calibrate.NoFrogError as refused:
        assert str(refused).startswith("blue frame: the die at (407, 16")
        assert "shows no frog" in str(refused)
    else:
        raise AssertionError("calibrated without the tries after the dice were found apart from their shadows")


def test_a_plain_bottom_of_half_the_floor_grid_refuses_for_the_box_not_the_frog(monkeypatch):
    monkeypatch.setattr(background, "PLAIN_SHARE", 0.5)
    frames, empty = ritual_frames("t3902")
    try:
        fit_profile(frames, empty=empty)
    except calibrate.BackgroundError as refused:  # the dice found apart show their frogs: the box is what refuses
        assert str(refused).startswith("body and background overlap (separation 1.")
    else:
        raise AssertionError("calibrated with a plain bottom of half the floor grid")

"""Calibration of a card table whose dice were refused for a frog a player sees, and the empty box's own shade
(issue 24, round 21).

Card twin table 3902 (round 20's fresh card set, seen now; two lamps, a gray bottom): refused "blue frame: the die at
(407, 167) shows no frog; turn all six dice to blue" — its frog is plainly blue. Each die's first mask held its warm
and its blue shadow, the violet fitted over such tops spread so wide (L sd 26, b sd 21) that the blue frog lay
within it. The retry that finds the dice apart from their shadows saw every frog (shares 0.5-1.0) but was refused
for the box ("body and background overlap (separation 1.2 < 3.0)": the near wall and the table at the bottom right,
lifted to violet by the evening of the light), and that refusal's own tries were not run: the first refusal stood.
Now they run; the last (``bottom``) fits the profile on the plain bottom (84 of the floor grid's 177 cells, taken
from 0.4 of them). The empty box, read with its profile, flagged "die in shadow or on edge" at (522, 450), as twin
10008's violet wall face in its shade: calibration keeps where the empty box shows that (``[shaded]``) and the
reader leaves it. Frames committed as JPEG (q95): they give the same refusal on ``main`` and the same acceptance."""

import cv2
import numpy as np

import rig.vision.calibrate as calibrate
import rig.vision.calibrate_background as background
from rig.vision.calibrate import fit_profile
from rig.vision.dice import read_dice
from rig.vision.dice_shade import blob_masks
from rig.vision.profile import Profile

from .dice_twin import ritual_frames

SHADE_FLAG = "die in shadow or on edge"


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


def test_the_empty_box_own_shade_is_mapped_and_left_by_the_reader(tmp_path):
    frames, empty = ritual_frames("t3902")
    profile = fit_profile(frames, empty=empty).profile
    shaded = np.asarray(profile.shaded, bool)
    rows, cols = shaded.shape
    assert shaded[450 * rows // 480, 522 * cols // 640]  # the flag the empty box gave
    assert not shaded[rows // 4 : 3 * rows // 4, cols // 8 : 5 * cols // 8].any()  # the open bottom: no map
    assert SHADE_FLAG not in " ".join(read_dice(empty, profile).reasons)
    bare = Profile(**{**profile.__dict__, "shaded": None})
    assert any(r.startswith(f"{SHADE_FLAG} at (52") for r in read_dice(empty, bare).reasons)
    profile.save(tmp_path / "p.toml")
    assert Profile.load(tmp_path / "p.toml").shaded == profile.shaded


def test_a_die_body_in_shade_off_the_map_is_still_flagged():
    frames, empty = ritual_frames("t3902")
    profile = fit_profile(frames, empty=empty).profile
    frame = empty.copy()
    body = cv2.cvtColor(np.uint8([[profile.body.mean]]), cv2.COLOR_Lab2BGR)[0, 0]
    side = int(profile.die_side * 640)
    cv2.rectangle(frame, (300, 240), (300 + side, 240 + side), tuple(int(v * 0.8) for v in body), cv2.FILLED)
    assert any(r.startswith(SHADE_FLAG) for r in read_dice(frame, profile).reasons)


def test_blob_masks_takes_what_the_shade_test_flags_and_no_thin_line():
    mask = np.zeros((120, 160), np.uint8)
    mask[20:40, 20:40] = 255  # a die-sized blob
    mask[80:82, 10:150] = 255  # a thin line along an edge
    got = blob_masks(mask, least=200, thick=6)
    assert got is not None and got[30, 30] and not got[81, 80]
    assert blob_masks(np.zeros_like(mask), least=200) is None

"""Calibration of two twin tables a player calls fine (issue 24, round 19).

Twin 10208 (round 18's fresh set, seen now): six dice in plain view on a light floor, one lamp; in the blue frame two
of the six blue frogs lie in the lamp's sheen (less saturated: Lab a, b ~ 121, 107 against the other four's ~ 142,
77, which are the print's blue). The frog colour was the largest of three clusters of frog pixels: the four dice's
blue split by lightness into two, the two sheened dice's made the largest, and the fitted blue was found on two dice
alone ("finds hardly any blue frog", 1 %). Retried (``most``): the cluster most dice show, then that fit's own
refusal's tries (the two sheened dice read blank in the lamp's reflection, asked about: ``asked``).

Twin 10210 (the same set): a gray bottom in a violet tray. The whole view's colours overlap the dice's violet
(separation 1.6) but the bottom alone, where it is plain, does not (4.7): the refusal names the walls and rim or the
table around the box, not the bottom, whose advice (a plainer bottom) was wrong there. (Since round 20 the table
calibrates on its bottom; the walls refusal, for a bottom that reads back wrong, is tested in
``test_calibration_twentieth_round``.)"""

import numpy as np
import pytest

import rig.vision.calibrate as calibrate
from rig.vision.calibrate import fit_profile
from rig.vision.calibrate_background import plain_bottom
from rig.vision.errors import CalibrationError, FewFrogError, WallsError
from rig.vision.light import floor_grid

from .dice_twin import ritual_frames


def test_the_blue_most_dice_show_is_fitted_and_the_table_calibrates():
    frames, empty = ritual_frames("t10208")
    report = fit_profile(frames, empty=empty)
    blue = report.profile.blue.mean
    assert blue[1] > 135 and blue[2] < 85  # the print's blue (Lab ~ 131, 140, 70), not the sheen's (~ 121, 107)
    assert report.frog_fraction["blue"] > 0.2
    for face in ("pink", "yellow", "blank"):
        assert report.self_test[face][0] == [face] * 6
    faces, status = report.self_test["blue"]
    # round 33: the two dice under the floor's glare read blue in the frame's overall light (they read blank in their
    # places' light and were asked about as in the lamp's reflection); still asked, the profile the same
    assert faces == ["blue"] * 6 and status == "uncertain"
    glared = "die under the floor's glare reads another face without it"
    assert any(f"{glared} at (472, 223)" in w and f"{glared} at (506, 379)" in w for w in report.warnings)


def test_without_the_retry_the_blue_is_the_sheens_and_refused(monkeypatch):
    monkeypatch.setitem(calibrate.RETRIES, FewFrogError, ())
    frames, empty = ritual_frames("t10208")
    with pytest.raises(FewFrogError, match="finds hardly any blue frog on the dice"):
        fit_profile(frames, empty=empty)


def test_the_mode_most_dice_show_beats_the_largest_cluster():
    rng = np.random.default_rng(3)
    four = [np.vstack([rng.normal((106, 142, 77), 2, (40, 3)), rng.normal((119, 142, 77), 2, (35, 3))])
            for _ in range(4)]  # one colour, split by lightness into two clusters
    two = [rng.normal((110, 121, 107), 2, (100, 3)) for _ in range(2)]  # another, more pixels in one cluster
    lab = np.vstack(four + two).astype(np.float32)
    dice = np.concatenate([np.full(len(p), i) for i, p in enumerate(four + two)])
    assert calibrate._fit_mode(lab).mean[2] > 100  # the largest cluster: the two dice's
    assert calibrate._fit_mode(lab, dice).mean[2] < 85  # the one four dice show


def test_the_plain_bottom_leaves_out_the_violet_walls_rim_and_the_table_beyond():
    import cv2

    from rig.vision.calibrate_glare import _fit_glare
    from rig.vision.calibrate_lamp import _unglared
    from rig.vision.dice import shrink

    _, empty = ritual_frames("t10210")
    small = shrink(empty, 2)
    cells = floor_grid(_unglared(small, _fit_glare(small, deep=False)))
    plain = plain_bottom(small, cells)
    assert cells[10].all() and cells[11, :15].all()  # the grid takes in the near rim and the table beyond
    assert plain is not None and not plain[10:].any() and not plain[:, 13:].any()
    assert plain[4:9, 2:12].all()
    assert cv2.countNonZero(plain.view(np.uint8)) >= 0.5 * cells.sum()


def test_a_box_without_a_plain_bottom_keeps_the_first_refusal(monkeypatch):
    monkeypatch.setattr(calibrate, "plain_bottom", lambda empty, cells: None)
    frames, empty = ritual_frames("t10210")
    with pytest.raises(CalibrationError, match="give the box a plainer bottom of another colour") as refused:
        fit_profile(frames, empty=empty)
    assert not isinstance(refused.value, WallsError)


def test_a_few_frog_refusal_is_retried_with_the_mode_most_dice_show_then_that_fits_own_tries(monkeypatch):
    from rig.vision.errors import ReflectionError

    tries = []

    def fit(samples, **kw):
        tries.append({k: v for k, v in kw.items() if k in ("lit", "most", "asked", "least", "clamp", "deep")})
        if len(tries) == 1:
            raise FewFrogError("blue frame: the fitted profile finds hardly any blue frog on the dice (1% ...)")
        raise ReflectionError("the lamp's reflection lies on the dice ...") if len(tries) == 2 else CalibrationError("no")

    monkeypatch.setattr(calibrate, "_fit_profile", fit)
    frame = np.zeros((48, 64, 3), np.uint8)
    with pytest.raises(FewFrogError, match="finds hardly any blue frog"):  # the first refusal stands
        fit_profile(dict.fromkeys(calibrate.RITUAL, frame), empty=frame)
    few = calibrate.LAMP_FEW
    assert tries[1:] == [dict(lit=False, most=True), dict(lit=True, most=True), dict(lit=False, most=True, least=few),
                         dict(lit=False, most=True, least=few, clamp=True), dict(lit=False, most=True, asked=True)]

"""`rig doctor`'s plan check: the calibrated die size and the box bottom in the frame against `rig plan`.

Frames from the virtual table rendered at the plan's die size stand in for the camera: calibration
measures the dice in them, and the check compares that with the plan (issue 30)."""

from __future__ import annotations

import numpy as np
import pytest

from rig.config import RigConfig
from rig.doctor import FAIL, NA, PASS, Context, check_plan
from rig.plan import make_plan
from rig.vision import render
from rig.vision.calibrate import RITUAL, fit_profile

SIZE = (1280, 960)
CONFIG = RigConfig.parse('[camera]\nsource = "usb:0"\nwidth = 1280\nheight = 960\n'
                         '[build]\nbox = [280, 200, 45]\ncamera = "cm3"\nheight_cm = 40\n')


def calibrated(die_px: float, seed: int = 3, keep=slice(None)):
    """A profile fitted on virtual-table ritual frames whose dice are ``die_px`` wide (``keep``: the rows a
    [camera] crop passes on), and the empty box."""
    frames = {}
    for i, face in enumerate([*RITUAL, "empty"]):
        rng = np.random.default_rng([seed, i])
        n = 0 if face == "empty" else 6
        scene = render.random_scene(rng, n, "neutral", size=SIZE, faces=[face] * n, spread=True, die_side=die_px)
        frames[face] = np.ascontiguousarray(render.render_scene(scene, seed=seed + i)[keep])
    empty = frames.pop("empty")
    return fit_profile(frames, empty=empty, name="plan-test").profile, empty


@pytest.fixture(scope="module")
def plan():
    return make_plan(box=(280, 200, 45), camera="cm3", height_cm=40, frame=SIZE)


def test_dice_rendered_at_the_planned_size_are_measured_within_5_percent_and_pass(plan):
    profile, frame = calibrated(plan.die_px)
    assert profile.die_px(SIZE[0]) == pytest.approx(plan.die_px, rel=0.05)
    result = check_plan(Context(config=CONFIG, frame=frame, profile=profile))
    assert result.status == PASS, result
    assert f"plans dice {plan.die_px:.0f} px" in result.detail


def test_a_camera_mounted_lower_than_planned_fails_with_its_height(plan):
    profile, frame = calibrated(plan.die_px * 1.3)  # dice 30 % larger: the lens about 31 cm up, not 40
    result = check_plan(Context(config=CONFIG, frame=frame, profile=profile))
    assert result.status == FAIL and "off the plan" in result.detail
    estimated = float(result.detail.split("looks about ")[1].split(" cm")[0])
    assert 29 <= estimated <= 33
    assert "height_cm" in result.fix


def test_box_running_off_the_picture_fails(plan):
    profile, frame = calibrated(plan.die_px)
    h, w = frame.shape[:2]
    shifted = frame[h // 5:, :]  # the camera moved towards the near side: the box's top wall out of the picture
    result = check_plan(Context(config=CONFIG, frame=shifted, profile=profile))
    assert result.status == FAIL and "run off the top edge" in result.detail and "centre the camera" in result.fix


def test_without_a_profile_the_box_is_still_checked(plan):
    _, frame = calibrated(plan.die_px)
    result = check_plan(Context(config=CONFIG, frame=frame))
    assert result.status == PASS and "box bottom in view" in result.detail and "no calibration profile" in result.detail


def test_not_applicable_on_the_virtual_table_and_without_a_frame(plan):
    assert check_plan(Context(config=RigConfig.default(), frame=np.zeros((480, 640, 3), np.uint8))).status == NA
    assert check_plan(Context(config=CONFIG)).status == NA  # no frame


def test_a_plan_that_does_not_fit_fails():
    config = RigConfig.parse('[camera]\nsource = "usb:0"\n[build]\ncamera = "cm3-wide"\nheight_cm = 45\n')
    result = check_plan(Context(config=config, frame=np.zeros((960, 1280, 3), np.uint8)))
    assert result.status == FAIL and "too small" in result.detail


def test_a_cropped_picture_is_planned_as_the_full_frame(plan):
    # [camera] crop keeps the middle 96 % of the rows: the rig calibrates and reads the cropped frames
    profile, cropped = calibrated(plan.die_px, keep=slice(19, 941))
    config = RigConfig.parse('[camera]\nsource = "usb:0"\nwidth = 1280\nheight = 960\ncrop = [0, 0.02, 1, 0.96]\n'
                             '[build]\nbox = [280, 200, 45]\ncamera = "cm3"\nheight_cm = 40\n')
    result = check_plan(Context(config=config, frame=cropped, profile=profile))
    assert f"plans dice {plan.die_px:.0f} px" in result.detail
    assert result.status == PASS and "in view of the crop" in result.detail, result

"""Calibration from the ritual frames, and every refusal."""

import numpy as np
import pytest

from rig.cli.calibrate import virtual_ritual
from rig.vision.calibrate import fit_profile
from rig.vision.errors import CalibrationError, FrameError
from rig.vision.render import LIGHTINGS, random_scene, render_scene, ritual_scene


@pytest.fixture(scope="module")
def ritual():
    return virtual_ritual("warm")


def test_fit_reads_back_and_reports(ritual):
    frames, empty = ritual
    report = fit_profile(frames, empty=empty, name="warm", exposure_us=9000, analogue_gain=1.5, colour_gains=(2.0, 1.4))
    p = report.profile
    assert p.exposure_us == 9000 and p.colour_gains == (2.0, 1.4)
    assert report.dice_found == {"blue": 6, "pink": 6, "yellow": 6, "blank": 6}
    assert min(report.separation.values()) > 3
    assert all(faces == [face] * 6 for face, (faces, _) in report.self_test.items())
    text = "\n".join(report.lines())
    assert "separation" in text and "blue/pink" in text


def test_fit_without_empty_frame(ritual):
    frames, _ = ritual
    report = fit_profile(frames)
    assert report.profile.thresholds.colour_present > report.profile.thresholds.colour_absent


def test_refuses_missing_face(ritual):
    frames, _ = ritual
    with pytest.raises(CalibrationError, match="missing yellow"):
        fit_profile({k: v for k, v in frames.items() if k != "yellow"})


def test_refuses_wrong_number_of_dice(ritual):
    frames, empty = ritual
    rng = np.random.default_rng(1)
    five = render_scene(random_scene(rng, 5, "warm", faces=["pink"] * 5, spread=True), seed=1)
    with pytest.raises(CalibrationError, match="pink frame: found 5 dice, expected 6"):
        fit_profile({**frames, "pink": five}, empty=empty)


def test_refuses_no_dice(ritual):
    frames, empty = ritual
    with pytest.raises(CalibrationError, match="blue frame: no dice found"):
        fit_profile({**frames, "blue": empty}, empty=empty)


def test_refuses_overlapping_classes(ritual):
    frames, empty = ritual
    with pytest.raises(CalibrationError, match="overlap|shows no frog"):
        fit_profile({**frames, "blue": frames["pink"]}, empty=empty)


def test_refuses_overexposed_frames(ritual):
    frames, empty = ritual
    light = LIGHTINGS["neutral"].replace(brightness=2.6)
    hot = render_scene(ritual_scene("yellow", light, seed=3), seed=3)
    with pytest.raises(CalibrationError, match="overexposed"):
        fit_profile({**frames, "yellow": hot}, empty=empty)


def test_refuses_mixed_sizes_and_bad_frames(ritual):
    frames, empty = ritual
    with pytest.raises(CalibrationError, match="differ in size"):
        fit_profile({**frames, "blank": frames["blank"][:400]}, empty=empty)
    with pytest.raises(FrameError):
        fit_profile({**frames, "blank": "blank.png"})
    with pytest.raises(CalibrationError, match="unknown calibration face"):
        fit_profile({**frames, "green": frames["blue"]})


def test_glare_from_the_empty_box_is_learned_and_used():
    frames, empty = virtual_ritual("glare")
    profile = fit_profile(frames, empty=empty).profile
    assert profile.glare is not None
    assert max(max(px) for row in profile.glare for px in row) > 40
    from rig.vision.dice import read_dice

    silent = 0
    for seed in range(8):
        rng = np.random.default_rng(100 + seed)
        scene = random_scene(rng, 6, "glare")
        reading = read_dice(render_scene(scene, seed=seed), profile)
        silent += reading.ok and reading.faces != scene.truth().faces
    assert silent == 0


def test_no_glare_map_without_glare(ritual):
    frames, empty = ritual
    assert fit_profile(frames, empty=empty).profile.glare is None

"""Round 34 (issue 24): a die top read blank, not surely, is read again in its own body's light
(:mod:`rig.vision.dice_body_light`). Twin 11702 turn 4 at lamp x0.8 (tray floor, lamps of 5478 K and 3622 K; round
33's fresh set, seen since): a clear blue+yellow die at (356, 163), its frog outside the colour
models in the place's grey correction, read blank at confidence 0.35 (round 33 flagged it, "a frog colour near its
threshold"). Its body's violet measures the light on the top: the frog reads blue+yellow, still asked. Turn 20 in
the same light: a pink die at (126, 223) under the floor's glare, its frog blue-violet, read blank
("unclear blue", "unknown colour or glare"): pink, asked, and the turn's six dice right."""

import cv2
import numpy as np
import pytest

from rig.vision import dice
from rig.vision.dice import read_dice
from rig.vision.dice_body_light import BODY_LIGHT, body_bgr, unsure_blank
from rig.vision.dice_overall import UNSURE_BLANK
from rig.vision.pixel_classes import CLASS_NAMES, CLIPPED

from .dice_twin import empty_box_kept, faces_near, flagged_at, frame_and_profile

FRAME, TABLE = "t11702-turn4-x0.8.webp", "t11702"


@pytest.fixture(params=[FRAME])
def kept_box(request):
    """The frame and its profile with the table's empty box kept (as after calibration); forgotten afterwards."""
    frame, profile = frame_and_profile(request.param, TABLE)
    with empty_box_kept(profile, TABLE):
        yield frame, profile


def test_the_blue_yellow_die_reads_blue_yellow_in_its_body_light_and_is_asked(kept_box):
    reading = read_dice(*kept_box, thrown=6)
    assert faces_near(reading, 356, 163, 6) == ["blue+yellow"]
    assert reading.status == "uncertain"
    assert flagged_at(reading, BODY_LIGHT) == [(356.0, 163.0)], reading.reasons
    assert flagged_at(reading, UNSURE_BLANK) == []


@pytest.mark.parametrize("kept_box", ["t11702-turn20.webp"], indirect=True)
def test_the_pink_die_under_the_glare_reads_pink_and_the_turn_is_right(kept_box):
    reading = read_dice(*kept_box, thrown=6)
    assert faces_near(reading, 126, 223, 8) == ["pink"]
    assert flagged_at(reading, BODY_LIGHT) == [(127.0, 224.0)], reading.reasons
    assert sorted(d.face for d in reading.dice) == ["blue", "blue", "pink", "pink", "pink", "yellow"]
    assert reading.status == "uncertain"


def test_without_the_body_light_it_reads_blank(kept_box, monkeypatch):
    monkeypatch.setattr(dice, "in_body_light", lambda *a: None)
    reading = read_dice(*kept_box, thrown=6)
    assert faces_near(reading, 356, 163, 6) == ["blank"]
    assert flagged_at(reading, UNSURE_BLANK) == [(356.0, 163.0)]


def test_before_calibration_keeps_the_empty_box_it_reads_as_before():
    frame, profile = frame_and_profile(FRAME, TABLE)  # (calibration's own read-back: no empty box kept yet)
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 356, 163, 6) == ["blank"]
    assert flagged_at(reading, BODY_LIGHT) == []


def test_only_a_top_read_blank_unsurely_is_read_again():
    t = frame_and_profile(FRAME, TABLE)[1].thresholds
    counts = np.zeros(len(CLASS_NAMES), np.int64)
    none = {"blue": 0.0, "pink": 0.0, "yellow": 0.0}
    assert not unsure_blank(counts, 100, none, False, t)  # a sure blank
    assert unsure_blank(counts, 100, none, True, t)  # doubtful
    assert unsure_blank(counts, 100, {**none, "yellow": t.colour_absent / 2}, False, t)
    counts[CLIPPED] = 10
    assert unsure_blank(counts, 100, none, False, t)


def test_the_body_colour_is_the_profiles_model():
    profile = frame_and_profile(FRAME, TABLE)[1]
    bgr = np.clip(np.round(body_bgr(profile)), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)[0, 0].astype(float)
    assert np.abs(lab - np.array(profile.body.mean)).max() <= 2

"""A die top the floor's light correction misreads is read again in the frame's overall light."""

from pathlib import Path

import cv2
import numpy as np

from rig.vision import dice
from rig.vision.dice import read_dice
from rig.vision.dice_frames import Work
from rig.vision.dice_overall import overall_counts
from rig.vision.profile import Profile

DATA = Path(__file__).parent / "dice_twin"


def _ritual_blue():
    # twin table 8101 (seen), the calibration's blue frame: the lamp's reflection on the floor left of the
    # tray is not on the two dice lying there (their tops stand higher), yet it was taken off them and their
    # place's gain (x1.4-1.8) put on: their blue frogs came out as no colour at all, read "blank", and
    # calibration refused the table
    return cv2.imread(str(DATA / "t8101-ritual-blue.jpg")), Profile.load(DATA / "t8101.toml")


def test_dice_under_the_floors_glare_are_read_in_the_overall_light_and_flagged():
    frame, profile = _ritual_blue()
    reading = read_dice(frame, profile)
    assert reading.faces == ["blue"] * 6
    assert reading.status == "uncertain"
    again = [r for r in reading.reasons if r.startswith("die top read in the frame's overall light")]
    assert len(again) == 2 and len(reading.reasons) == 2
    xs = sorted(float(r.split("(")[1].split(",")[0]) for r in again)
    assert xs[0] < 160 and xs[1] < 160  # the two dice on the left, under the floor's reflection


def test_without_the_second_reading_those_dice_read_blank(monkeypatch):
    frame, profile = _ritual_blue()
    monkeypatch.setattr(dice, "overall_counts", lambda *a, **k: None)
    reading = read_dice(frame, profile)
    assert sorted(reading.faces) == ["blank", "blank", "blue", "blue", "blue", "blue"]


def test_a_place_in_the_overall_light_is_not_read_again():
    gain = np.full((60, 80, 3), 1.1, np.float32)
    work = Work(np.zeros((60, 80), np.uint8), np.zeros((60, 80, 3), np.uint8), 2, 20.0, 300.0, gain=gain)
    calls = []
    poly = np.array([[[30, 20]], [[50, 20]], [[50, 40]], [[30, 40]]], np.int32)
    assert overall_counts(poly, 0, 0, (40, 30), work, None, lambda *a, **k: calls.append(k)) is None
    assert calls == []
    gain[25:35, 35:45] = 1.6  # the place lifted far more than the view: read again, at the view's median gain
    overall_counts(poly, 0, 0, (40, 30), work, None, lambda *a, **k: calls.append(k))
    assert len(calls) == 1 and np.allclose(calls[0]["gain"], 1.1)

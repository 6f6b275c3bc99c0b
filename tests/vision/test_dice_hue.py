"""A frog colour whose pixels do not have that colour's hue is flagged, never read as that colour in silence."""

from pathlib import Path

import cv2
import numpy as np

from rig.vision import dice
from rig.vision.dice import read_dice
from rig.vision.dice_hue import off_hue
from rig.vision.pixel_classes import COLOUR_CLASSES
from rig.vision.profile import Profile

DATA = Path(__file__).parent / "dice_twin"


def _ritual_pink():
    # twin table 2003 (seen), the calibration's pink frame: the die at (423, 285) lies where the lamp's veil is on its
    # glossy top; its body's pixels, paler and greyer, fall on the yellow model's long axis (the line from the yellow
    # frog to the die body) and half the top read "yellow": yellow+pink, status ok. The read-back refused the table.
    return cv2.imread(str(DATA / "t2003-ritual-pink.jpg")), Profile.load(DATA / "t2003.toml")


def test_the_veiled_pink_die_is_flagged_for_its_yellows_hue():
    frame, profile = _ritual_pink()
    reading = read_dice(frame, profile)
    assert reading.faces.count("pink") == 5 and reading.status == "uncertain"
    assert reading.reasons == ("yellow frog of unusual colour on die at (423, 285)",)
    flagged = [d for d in reading.dice if d.face == "yellow+pink"]
    assert len(flagged) == 1 and flagged[0].confidence == 0.0


def test_without_the_hue_check_the_same_die_reads_yellow_pink_in_silence(monkeypatch):
    monkeypatch.setattr(dice, "off_hue", lambda *a: [])
    frame, profile = _ritual_pink()
    reading = read_dice(frame, profile)
    assert sorted(reading.faces)[-1] == "yellow+pink" and reading.status == "ok"


def test_a_frog_is_judged_by_its_own_pixels_hue():
    profile = Profile.load(DATA / "t2003.toml")
    labels = np.zeros((10, 10), np.uint8)
    labels[2:6, 2:6] = COLOUR_CLASSES["yellow"]
    inner = np.ones((10, 10), bool)
    yellow = cv2.cvtColor(np.uint8([[profile.colour("yellow").mean]]), cv2.COLOR_Lab2BGR)[0, 0]
    small = np.full((10, 10, 3), yellow, np.uint8)
    assert off_hue(small, labels, inner, ["yellow"], profile) == []
    small[2:6, 2:6] = (165, 110, 144)  # the veiled body's mauve (BGR) where the pixels were labelled yellow
    assert off_hue(small, labels, inner, ["yellow"], profile) == ["yellow"]
    assert off_hue(small, labels, inner, [], profile) == []  # only colours the die is read with are judged
    inner[:] = False
    assert off_hue(small, labels, inner, ["yellow"], profile) == []  # pixels outside the top do not count

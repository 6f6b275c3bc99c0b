"""Calibration of a table whose blue frog measured next to the dice's violet (issue 24, round 23).

Twin table 10604 (round 22's fresh frog set, seen now; a tray floor, one lamp 2968 K, 38 px dice) was refused "body
and blue overlap (separation 2.5 < 3.0)". Its six blue frogs are plainly blue, but the dice stand dark against the
light tray (the violet at L 54 in the light-corrected frame) and at the working scale (half size, tops ~17 px) the
largest of the blue frog pixels' three clusters is their blend with the violet at the frog's edge (195 of 411 pixels,
Lab 64, 145, 82; the frog's own 111, 151, 65 has 145). Such a refusal (:class:`BodyError`) is now tried with that
colour fitted on its cluster farthest from the violet (``core``, round 20's try for a frog like the box bottom); when
that too overlaps, the refusal says what a rig builder can change (the light on the dice, their size in the frame).

The frames are the bench's developed frames saved as JPEG q90 (on them ``main`` refuses: separation 2.8)."""

import cv2
import pytest

import rig.vision.calibrate as calibrate
from rig.i18n import by_pattern, core_patterns
from rig.vision.calibrate import fit_profile
from rig.vision.errors import BackgroundError, BodyError

from .dice_twin import HERE


def _frames():
    frames = {k: cv2.imread(str(HERE / f"t10604-ritual-{k}.jpg")) for k in calibrate.RITUAL}
    return frames, cv2.imread(str(HERE / "t10604-empty.jpg"))


def test_the_blue_frog_fitted_on_its_core_is_told_from_the_violet_and_every_ritual_die_reads_right():
    frames, empty = _frames()
    report = fit_profile(frames, empty=empty)
    assert report.separation["body/blue"] >= calibrate.MIN_SEPARATION
    for face in calibrate.RITUAL:
        assert report.self_test[face][0] == [face] * 6
    assert report.profile.blue.mean[0] > report.profile.body.mean[0] + 30  # the frog itself, not its blend


def test_without_the_core_try_the_blue_frog_overlaps_the_violet(monkeypatch):
    monkeypatch.setitem(calibrate.RETRIES, BodyError, ())
    frames, empty = _frames()
    with pytest.raises(BodyError) as refused:
        fit_profile(frames, empty=empty)
    text = str(refused.value)
    assert text.startswith("body and blue overlap (separation 2.8 < 3.0): the frog looks like the dice's violet")
    assert text.endswith("bring the camera closer, so the dice are larger in the frame (now 39 px)")
    assert refused.value.colour == "blue"
    german = by_pattern(text, "de", core_patterns())
    assert (
        german.startswith("Würfelkörper und blau überschneiden sich (Trennung 2,8 < 3,0)") and "(jetzt 39 px)" in german
    )


def test_a_frog_like_the_violet_is_tried_on_its_core_alone_and_is_no_box_bottom_refusal():
    assert calibrate.RETRIES[BodyError] == ({"core": True},)
    assert not issubclass(BodyError, BackgroundError)

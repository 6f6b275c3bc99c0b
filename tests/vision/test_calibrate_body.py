"""Calibration of a table whose blue frog measured next to the dice's violet (issue 24, round 23).

Twin table 10604 (round 22's fresh frog set, seen now; a tray floor, one lamp 2968 K, 38 px dice) was refused "body
and blue overlap (separation 2.5 < 3.0)". Its six blue frogs are plainly blue and the six dice's tops equally lit as
shot, but the near wall's shade band bent the glare's floor: the lit middle of the floor was taken for the lamp's
glare, taken off the dice there, and the lamp fitted through the bodies sagged to half in the middle rows and rose to
three times at the top and bottom (the light correction's gain 0.5-1.86): the near dice were darkened to half and
their blue frogs' dark pixels were the largest of the blue pixels' clusters. Such a refusal (:class:`BodyError`) is
now tried with the glare's floor fitted without the wall's deep shade (``deep``: every ritual die then reads back
right and ``ok``), then with that colour fitted on its cluster farthest from the violet (``core``); when both fail,
the refusal says what a rig builder can change (the light on the dice, their size in the frame).

The frames are the bench's developed frames saved as JPEG q90 (on them ``main`` refuses: separation 2.8)."""

import pytest

import rig.vision.calibrate as calibrate
from rig.i18n import by_pattern, core_patterns
from rig.vision.calibrate import fit_profile
from rig.vision.errors import BackgroundError, BodyError
from rig.vision.light import floor_model

from .dice_twin import ritual_frames


def _frames():
    return ritual_frames("t10604")


def test_without_the_wall_s_deep_shade_in_the_glare_every_ritual_die_reads_right_and_ok():
    frames, empty = _frames()
    report = fit_profile(frames, empty=empty)
    assert report.separation["body/blue"] >= calibrate.MIN_SEPARATION
    for face in calibrate.RITUAL:
        assert report.self_test[face] == ([face] * 6, "ok")
    gain = floor_model(report.profile).flat
    assert gain.min() > 0.6 and gain.max() < 1.4  # no sagging lamp: the dice are not darkened to half anywhere


def test_the_frog_s_core_alone_calibrates_too_every_die_right(monkeypatch):
    monkeypatch.setitem(calibrate.RETRIES, BodyError, ({"core": True},))
    frames, empty = _frames()
    report = fit_profile(frames, empty=empty)
    assert report.separation["body/blue"] >= calibrate.MIN_SEPARATION
    for face in calibrate.RITUAL:
        assert report.self_test[face][0] == [face] * 6
    assert report.profile.blue.mean[0] > report.profile.body.mean[0] + 30  # the lit frogs, not the darkened ones


def test_without_those_tries_the_blue_frog_overlaps_the_violet_and_the_refusal_says_what_to_change(monkeypatch):
    monkeypatch.setitem(calibrate.RETRIES, BodyError, ())
    frames, empty = _frames()
    with pytest.raises(BodyError) as refused:
        fit_profile(frames, empty=empty)
    text = str(refused.value)
    assert text.startswith("body and blue overlap (separation 2.8 < 3.0): the frog looks like the dice's violet")
    assert text.endswith("bring the camera closer, so the dice are larger in the frame (now 39 px)")
    assert refused.value.colour == "blue"
    german = by_pattern(text, "de", core_patterns())
    assert german.startswith("Würfelkörper und blau überschneiden sich (Trennung 2,8 < 3,0)")
    assert "(jetzt 39 px)" in german


def test_a_frog_like_the_violet_tries_the_glare_s_floor_then_its_core_and_is_no_box_bottom_refusal():
    assert calibrate.RETRIES[BodyError] == ({"deep": True}, {"core": True})
    assert not issubclass(BodyError, BackgroundError)

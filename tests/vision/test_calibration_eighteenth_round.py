"""Calibration accepted on more tables (issue 24, round 18).

Calibration's lamp where a wall's shade band bends the glare's floor (issue 24, round 18): twin 10004 (round 16's
fresh set, seen now), one lamp, the near wall's shade band across the floor. The empty box's glare floor, fitted
through the band, fell below the lit floor beside it, which became a broad "glare" of up to 65 grey levels; taken off
the ritual dice there, their bodies fell to 37-62 of the open dice's 87-95 and the lamp through them was refused as
implausible. The lamp then came from the floor itself, the band inside its cells, and lit die tops on the band were
corrected about twice over and clipped. Now, when the bodies give no lamp, the glare's floor is fitted again without
the wall's deep shade (round 13's ``deep``) and taken when the bodies then give the lamp.

2D table 41008 (round 17's fresh set, seen now): violet blank dice on a wood photo tinted violet, every die in plain
view — a table a player calls fine. Their tops are darker than the floor alike in every channel (a shadow to the first
tries) and 8-13 off its hue (three found at the try by hue's 12): the last try takes a hue down to ``HUE_FAINT``. Its
body/background separation is then 2.4: a :class:`BackgroundError`'s last try (``overlap``) takes down to
``MIN_OVERLAP`` when every ritual frame reads back right and ``ok``."""

import dataclasses

import cv2
import numpy as np
import pytest

import rig.vision.calibrate as calibrate
import rig.vision.calibrate_lamp as lamp
from rig.vision.calibrate import RITUAL, fit_profile
from rig.vision.dice import read_dice, shrink
from rig.vision import calibrate_find
from rig.vision.calibrate_find import ritual_dice
from rig.vision.errors import BackgroundError, CalibrationError

from .dice_twin import HERE, faces_near, frame_and_profile, ritual_frames


def test_the_lamp_comes_from_the_dice_bodies_with_the_glare_floor_fitted_off_the_shade():
    frames, empty = ritual_frames("t10004")
    report = fit_profile(frames, empty=empty)
    assert report.profile.floor_lamp is not None  # the lamp from the die bodies, not from the floor
    for face in RITUAL:
        assert report.self_test[face][0] == [face] * 6


def test_dice_on_the_near_walls_shade_band_read_right():
    # turn 0: the pink at (330, 392) on the band (read blank and flagged with the lamp from the floor); turn 3: the pink
    # at (422, 390) touching the blank at (388, 365), both on the band (read as one blank, one die short)
    frames, empty = ritual_frames("t10004")
    profile = fit_profile(frames, empty=empty).profile
    turn0 = read_dice(frame_and_profile("t10004-turn0.jpg", "t10004")[0], profile, thrown=6)
    assert sorted(turn0.faces) == ["blank", "blue", "blue", "blue", "pink", "pink"] and turn0.status == "ok"
    assert faces_near(turn0, 330, 390, 10) == ["pink"]
    turn3 = read_dice(frame_and_profile("t10004-turn3.jpg", "t10004")[0], profile, thrown=6)
    assert sorted(turn3.faces) == ["blank", "blank", "blue+yellow", "pink", "yellow", "yellow"]
    assert faces_near(turn3, 421, 388, 10) == ["pink"] and faces_near(turn3, 387, 360, 10) == ["blank"]


def test_without_the_refit_the_lamp_comes_from_the_floor_and_the_band_die_clips(monkeypatch):
    monkeypatch.setattr(calibrate, "_glare_off_shade", lambda empty, glare, *a: (glare, None))
    frames, empty = ritual_frames("t10004")
    profile = fit_profile(frames, empty=empty).profile
    assert profile.floor_lamp is None
    turn0 = read_dice(frame_and_profile("t10004-turn0.jpg", "t10004")[0], profile, thrown=6)
    assert faces_near(turn0, 330, 390, 10) == ["blank"] and turn0.status != "ok"


def test_a_glare_the_same_without_the_shade_changes_nothing(monkeypatch):
    # the refit is asked only when the bodies give no lamp, and taken only when the glare differs and the bodies then
    # give one: otherwise the first fit's glare stands, with no lamp
    monkeypatch.setattr(lamp, "_fit_glare", lambda empty, deep=False: None)
    assert lamp._glare_off_shade(None, None, {}, {}, 8, False) == (None, None)


def _u41008():
    frames = {k: cv2.imread(str(HERE / f"u41008-ritual-{k}.jpg")) for k in RITUAL}
    return frames, cv2.imread(str(HERE / "u41008-empty.jpg"))


def test_violet_blank_dice_on_a_violet_tinted_wood_calibrate():
    frames, empty = _u41008()
    report = fit_profile(frames, empty=empty)
    for face in RITUAL:
        assert report.dice_found[face] == 6
        assert report.self_test[face] == ([face] * 6, "ok")
    assert calibrate.MIN_OVERLAP <= report.separation["body/background"] < calibrate.MIN_SEPARATION
    assert "body/background separation only 2.4" in report.warnings


def test_the_faint_try_finds_the_six_blank_dice(monkeypatch):
    frames, empty = _u41008()
    blank, bg = shrink(frames["blank"], 2), shrink(empty, 2)
    assert len(ritual_dice("blank", blank, bg, 6, 2).masks) == 6
    monkeypatch.setattr(calibrate_find, "HUE_FAINT", calibrate_find.SHADOW_HUE)  # as before round 18
    with pytest.raises(CalibrationError, match="blank frame: found 2 dice, expected 6"):
        ritual_dice("blank", blank, bg, 6, 2)


def test_without_the_overlap_try_the_table_is_refused_as_overlapping(monkeypatch):
    monkeypatch.setattr(calibrate, "RETRIES", {**calibrate.RETRIES, BackgroundError: (dict(deep=True),)})
    frames, empty = _u41008()
    with pytest.raises(BackgroundError, match="body and background overlap"):
        fit_profile(frames, empty=empty)


def test_the_overlap_try_asks_every_frame_read_back_right_and_ok(monkeypatch):
    # a read-back not ``ok`` refuses the overlap try (here: the blank frame's status made uncertain)
    read = calibrate.read_dice

    def unsure(frame, profile, *a, **kw):
        reading = read(frame, profile, *a, **kw)
        return dataclasses.replace(reading, status="uncertain") if np.array_equal(frame, frames["blank"]) else reading

    frames, empty = _u41008()
    monkeypatch.setattr(calibrate, "read_dice", unsure)
    with pytest.raises(BackgroundError, match="body and background overlap"):
        fit_profile(frames, empty=empty)


def _bent(table):
    frames, empty = ritual_frames(table)
    raw = {k: shrink(v, 2) for k, v in frames.items()}
    bg = shrink(empty, 2)
    found = calibrate.ritual_frames(raw, bg, 6, 2)
    glare, deeper = calibrate._fit_glare(bg), calibrate._fit_glare(bg, deep=True)
    first = lamp._lamp_from_bodies(found, {k: lamp._unglared(v, glare) for k, v in raw.items()})
    return first, lamp._glare_bent(found, raw, glare, deeper), lamp._glare_off_shade(bg, glare, found, raw, 8, False)


def test_the_refit_is_taken_only_where_the_glare_was_the_shades_bending():
    # 10004: the dice standing in the first fit's glare (27-59 levels) are as bright as the others, and without the
    # deep shade it is gone there; 2D 40007 (round 16's fresh set, seen): its bodies give no lamp either, but its broad
    # glare over a dark plank only halves without the deep shade — with the refit its turns were flagged needlessly
    # 75 % of the time, not 33 % (docs/vision.md, round 18): it keeps its fit
    first, bent, (_, refit) = _bent("t10004")
    assert first is None and bent and refit is not None
    first, bent, (_, refit) = _bent("u40007")
    assert first is None and not bent and refit is None

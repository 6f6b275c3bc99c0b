"""Calibration of a table whose printed floor the reader takes for a die in shade, in the empty box too (issue 24,
round 31).

Card twin table 4910 (round 30's fresh card set, seen now; printed floor, lamps 3629 K + 6420 K, dice 41 px): refused
"the fitted profile reads the blue frame back as ['blank', 'blue', ...x6]; the reader takes the box at (236, 317) for
a die, where none lies". At (236, 317) lies a maroon disc of the floor's print, a die's size: the colour table calls
it die body in shade, and brightened as a top in shade (``dark_tops``) it reads as a blank die — in every ritual
frame and in the empty box. The last try of such a refusal (``prints``) keeps where the empty box itself reads as a
die as the profile's ``prints``, where no die in shade is taken; a phantom the empty box does not read (4013's table
beyond the rim) stays refused. Frames: the twin's developed frames as JPEG (q90, 4:4:4); ``main`` refuses them."""

import numpy as np
import pytest

import rig.vision.calibrate as calibrate
from rig.vision.calibrate import fit_profile
from rig.vision.calibrate_readback import fit_prints
from rig.vision.dice import read_dice
from rig.vision.errors import CalibrationError, PhantomError
from rig.vision.profile import Profile

from .dice_twin import ritual_frames

DISC = (236, 317)  # the print's maroon disc, frame px


def _without_prints(monkeypatch) -> None:
    tries = tuple(r for r in calibrate.RETRIES[PhantomError] if not r.get("prints"))
    monkeypatch.setitem(calibrate.RETRIES, PhantomError, tries)


@pytest.fixture(scope="module")
def t4910():
    frames, empty = ritual_frames("t4910")
    return frames, empty, fit_profile(frames, empty=empty)


def test_without_the_prints_try_the_print_s_disc_is_read_as_a_blank_die(monkeypatch):
    _without_prints(monkeypatch)
    frames, empty = ritual_frames("t4910")
    with pytest.raises(PhantomError) as refused:
        fit_profile(frames, empty=empty)
    assert str(refused.value).startswith("the fitted profile reads the blue frame back as ['blank', 'blue'")
    assert "the reader takes the box at (236, 317) for a die, where none lies" in str(refused.value)


def test_the_disc_is_kept_as_the_box_s_print_and_every_ritual_die_reads_right(t4910):
    frames, empty, report = t4910
    for face in ("blue", "pink", "blank"):
        assert report.self_test[face][0] == [face] * 6
    assert report.self_test["yellow"][0] == ["yellow"] * 5  # the die on the print's violet spot: asked about
    prints = np.asarray(report.profile.prints, bool)
    h, w = empty.shape[:2]
    rows, cols = prints.shape
    assert prints[int(DISC[1] * rows / h), int(DISC[0] * cols / w)]
    assert prints.sum() <= 16  # the disc's box, no more
    assert any(n.startswith("the box's print at (23") and "reads as a die in shade" in n for n in report.warnings)
    assert not read_dice(empty, report.profile).dice


def test_a_game_that_reads_every_die_is_not_asked_about_the_print(t4910):
    frames, _, report = t4910
    for face in ("blue", "pink", "blank"):
        reading = read_dice(frames[face], report.profile, thrown=6)
        assert (reading.faces, reading.status) == ([face] * 6, "ok")


def test_a_die_missed_elsewhere_is_asked_about_by_the_count_not_read_on_the_print(t4910):
    # the yellow frame's die on the print's violet spot (167, 297) is not seen: the disc is not taken for it
    frames, _, report = t4910
    reading = read_dice(frames["yellow"], report.profile, thrown=6)
    assert reading.faces == ["yellow"] * 5 and reading.status == "uncertain"
    assert "5 of the 6 dice thrown seen (one hidden in shade?)" in reading.reasons


def test_the_prints_survive_the_profile_file(t4910, tmp_path):
    _, _, report = t4910
    again = Profile.load(report.profile.save(tmp_path / "t4910.toml"))
    assert again.prints == report.profile.prints


def test_a_phantom_the_empty_box_does_not_read_stays_refused(monkeypatch):
    """Card twin 4013 (round 22): the dark table beyond the rim read as a die in the pink frame, not in the empty
    box; without the ``bottom`` try that calibrates it, the ``prints`` try takes nothing off and the refusal stands."""
    tries = tuple(r for r in calibrate.RETRIES[PhantomError] if not r.get("bottom"))
    monkeypatch.setitem(calibrate.RETRIES, PhantomError, tries)
    frames, empty = ritual_frames("t4013", "webp")
    with pytest.raises(PhantomError) as refused:
        fit_profile(frames, empty=empty)
    assert "the reader takes the box at (11, 10) for a die, where none lies" in str(refused.value)


def test_an_empty_box_that_reads_no_die_gives_no_prints(t4910):
    _, empty, report = t4910
    plain = np.full_like(empty, 90)
    with pytest.raises(CalibrationError, match="the empty box reads no die"):
        fit_prints(plain, report.profile, [])


def test_the_prints_try_is_the_last():
    assert calibrate.RETRIES[PhantomError][-1] == {"prints": True, "asked": True}
    assert calibrate.RETRIES[PhantomError][:-1] == (*calibrate._READ_BACK, {"bottom": True}, {"asked": True})

"""The twin's ninth round (issue 24): calibration first try on the tables the eighth round left refused."""

import cv2
import numpy as np
import pytest

from rig.cli.calibrate import virtual_ritual
from rig.vision.calibrate import fit_profile
from rig.vision.dice import read_dice, shrink
from rig.vision.errors import CalibrationError

from .dice_twin import HERE, frame_and_profile


@pytest.fixture(scope="module")
def ritual():
    return virtual_ritual("warm")


def test_a_die_on_a_spot_as_violet_as_the_dice_leaves_the_frame_one_short(monkeypatch):
    # twin table 8611 (seen), the calibration's blue frame: a die lies on a mauve circle of the printed box
    # bottom, its body the circle's colour; only its frog differs from the empty box, too small for a die.
    # Found apart neither way, the frame is taken with five dice; two short is still refused — unless the last try,
    # by a fainter hue (round 18), finds the die on the circle too: asked for seven, it takes the six laid.
    from rig.vision import calibrate_find
    from rig.vision.calibrate_find import _find_dice, ritual_dice

    blue = shrink(cv2.imread(str(HERE / "t8611-ritual-blue.jpg")), 2)
    empty = shrink(cv2.imread(str(HERE / "t8611-empty.jpg")), 2)
    for hue_shadows in (False, True):
        with pytest.raises(CalibrationError, match="found 5 dice, expected 6"):
            _find_dice("blue", blue, empty, 6, 2, hue_shadows=hue_shadows)
    found = ritual_dice("blue", blue, empty, 6, 2)
    assert len(found.masks) == 5
    assert not any(abs(cx * 2 - 325) < 20 and abs(cy * 2 - 366) < 20 for cx, cy in found.centres)
    six = ritual_dice("blue", blue, empty, 7, 2)
    assert len(six.masks) == 6 and six.by_hue
    assert any(abs(cx * 2 - 325) < 20 and abs(cy * 2 - 366) < 20 for cx, cy in six.centres)
    monkeypatch.setattr(calibrate_find, "HUE_FAINT", calibrate_find.SHADOW_HUE)  # as before round 18
    with pytest.raises(CalibrationError, match="found 5 dice, expected 7"):
        ritual_dice("blue", blue, empty, 7, 2)


def test_a_die_under_the_floors_glare_that_reads_unclear_without_it_is_flagged(monkeypatch):
    # twin table 8610 (seen), the calibration's yellow frame: the lamp's reflection on the floor (about 40
    # levels) lies under the die at (410, 384); its top carries a veil of its own instead. The floor's glare
    # taken off, its yellow frog came out as no colour: "blank", unflagged, and the read-back refused the
    # table. Read without the glare taken off, its top shows no clear face either: now it is asked.
    frame, profile = frame_and_profile("t8610-ritual-yellow.jpg", "t8610")
    reading = read_dice(frame, profile)
    assert reading.faces == ["blank"] + ["yellow"] * 5 and reading.status == "uncertain"
    assert "die under the floor's glare reads unclear without it at (410, 384)" in reading.reasons
    import rig.vision.dice as dice

    monkeypatch.setattr(dice, "BARE_SURE", 0.0)
    unsure = read_dice(frame, profile)  # round 33's flag on an unsure blank catches it too
    assert [r for r in unsure.reasons if "(410, 384)" in r] == [f"{dice.UNSURE_BLANK} on die at (410, 384)"]
    monkeypatch.setattr(dice, "BLANK_SURE", 0.0)
    again = read_dice(frame, profile)
    assert again.faces == reading.faces
    assert not any("(410, 384)" in r for r in again.reasons)  # the blank misreading, unflagged at its place


def test_a_die_without_a_frog_among_dice_with_one_is_told_to_light_the_box_evenly(ritual, monkeypatch):
    # twin tables 6005 and 6006 (seen): two lamps of 3000 and 6300 K; a blue die where only one of them
    # lights it shows its frog too faintly to find. The refusal says what to change.
    import rig.vision.calibrate as calibrate

    frames, empty = ritual
    real, calls = calibrate.frog_pixels, []

    def faint_second(lab, *args):  # the second blue die, in the first fit and in the second look (round 12)
        calls.append(1)
        out = real(lab, *args)
        return np.zeros_like(out) if len(calls) in (2, 4) else out

    monkeypatch.setattr(calibrate, "frog_pixels", faint_second)
    with pytest.raises(CalibrationError, match="shows no frog; turn all six dice to blue — if it is, its light differs"):
        fit_profile(frames, empty=empty)
    calls.clear()
    monkeypatch.setattr(calibrate, "frog_pixels", lambda lab, *args: np.zeros(len(lab), bool))
    with pytest.raises(CalibrationError, match=r"shows no frog; turn all six dice to blue$"):
        fit_profile(frames, empty=empty)


def test_a_die_in_the_lamps_mirror_image_is_named(ritual):
    # twin table 8004 (seen): under two lamps one blank die's top is blown out white by a lamp's reflection
    # (91 % of its pixels, 16 % of all the dice's): the refusal names the die and the lamp, not the exposure
    from rig.vision.calibrate_find import ritual_dice

    frames, empty = ritual
    blank = frames["blank"].copy()
    found = ritual_dice("blank", shrink(blank, 2), shrink(empty, 2), 6, 2)
    (cx, _), mask = found.centres[2], found.masks[2]
    blank[cv2.resize(mask.view(np.uint8), blank.shape[1::-1], interpolation=cv2.INTER_NEAREST) > 0] = 255
    with pytest.raises(CalibrationError, match=f"blank frame: the lamp's reflection blows out the die at \\({cx * 2:.0f}, "):
        fit_profile({**frames, "blank": blank}, empty=empty)
    with pytest.raises(CalibrationError, match="blank frame is overexposed on the dice"):  # every die a little
        hot = frames["blank"].copy()
        for m in found.masks:  # a band across the middle of each die's top
            ys, xs = np.nonzero(m)
            y0, y1 = int(np.percentile(ys, 42)) * 2, int(np.percentile(ys, 58)) * 2
            hot[y0:y1, xs.min() * 2 : xs.max() * 2] = 255
        fit_profile({**frames, "blank": hot}, empty=empty)


def test_a_die_top_much_like_the_floor_is_flagged(monkeypatch):
    # twin table 8002 (seen), turn 2 after the lamp turned 700 K warmer, rendered again for the ninth round (another
    # Mitsuba variant: the same scene, other noise): the pink die at the tray's left edge under the floor's glare
    # carries a veil of its own; taken off the floor's glare, 46 % of its top inside the rim matched the floor's
    # colours, the rest its body: "blank" with confidence 0.95, status ok — silent, on main too. A top
    # that much the floor's colour is flagged now (dice read right in otherwise unflagged turns of the tuning and seen
    # sets: at most 31 %).
    import rig.vision.dice as dice

    frame, profile = frame_and_profile("t8002r9-turn2-warm.jpg", "t8002r9")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.faces.count("blank") == 4 and reading.status == "uncertain"
    assert reading.reasons == ("die top much like the floor (glare?) at (46, 152)",)
    monkeypatch.setattr(dice, "FLOOR_ON_TOP", 1.0)
    assert read_dice(frame, profile, thrown=6).status == "ok"  # the pink die read "blank" in silence

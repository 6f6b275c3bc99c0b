"""A ritual frame whose dice are not all found says what to change: spread the dice apart only when one found may be
two joined; else the box bottom hides the others (2D table 41008, round 17's fresh set, seen since: violet blank dice
on a violet wood, two of six found, and the advice was to spread dice that touched nothing)."""

import cv2
import pytest

from rig import i18n
from rig.vision import calibrate_find
from rig.vision.calibrate_find import _count_advice, ritual_dice
from rig.vision.dice import shrink
from rig.vision.errors import CalibrationError

from .dice_twin import HERE


def test_dice_the_box_bottom_hides_are_not_told_to_spread_apart(monkeypatch):
    # without round 18's faint try by hue (which finds 41008's six: test_calibration_eighteenth_round.py)
    monkeypatch.setattr(calibrate_find, "HUE_FAINT", calibrate_find.SHADOW_HUE)
    blank = shrink(cv2.imread(str(HERE / "u41008-ritual-blank.jpg")), 2)
    empty = shrink(cv2.imread(str(HERE / "u41008-empty.jpg")), 2)
    with pytest.raises(CalibrationError) as refused:
        ritual_dice("blank", blank, empty, 6, 2)
    text = str(refused.value)
    assert text.startswith("blank frame: found 2 dice, expected 6, none of them two joined")
    assert "plainer bottom of another colour" in text and "spread" not in text
    german = i18n.by_pattern(text, "de", i18n.core_patterns())
    assert german.startswith("Bild blanko: 2 Würfel gefunden, erwartet 6") and "schlichteren Boden" in german


@pytest.mark.parametrize("areas, spread", [
    ([100, 104, 98, 210], True),    # one found is about two dice: touching
    ([100, 104, 98, 140], False),   # sizes within a die's spread: the rest were not seen
    ([100] * 7, True),              # more than six: something taken for dice, or a seventh die
])
def test_the_advice_follows_what_was_found(areas, spread):
    text = _count_advice("pink", areas, 6)
    assert text.startswith(f"pink frame: found {len(areas)} dice, expected 6")
    assert ("spread the dice apart" in text) is spread
    assert ("is a die still in the empty-box frame" in text) is (spread and len(areas) < 6)

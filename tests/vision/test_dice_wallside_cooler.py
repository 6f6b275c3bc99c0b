"""Under a cooler white balance than calibration's, a warm floor's chroma turns toward the die body's: every flat
die's outer floor strip read "die body" as the frame shows it, the die flagged "cocked" (2D 55006 at white balance
x0.77, round 31). There the strips are judged with the light change taken out only (dice_wallside.AS_SHOWN_WARM)."""

from __future__ import annotations

import pytest

from rig.bench.tables import DRIFTS
from rig.vision import dice, dice_wallside
from rig.vision.card_empty import EmptyBox, remember

from tests.vision.conftest import calibrated_unseen, needs_data

pytestmark = needs_data


@pytest.fixture(scope="module")
def table_55006():
    #: 2D 55006 (round 31's fresh set, seen from then on): a printed floor, 43 px dice at 640x480
    table, profile = calibrated_unseen(55006)
    remember(profile, EmptyBox.of(table.ritual()[1]))  # kept beside the profile, as the bench does
    return table, profile


def _wall_flags(table_profile, k, light):
    table, profile = table_profile
    frame, truth = table.turn(k, DRIFTS[light])
    reading = dice.read_dice(frame, profile)
    return reading, [r for r in reading.reasons if r.startswith(dice_wallside.REASON)], truth


def test_flat_dice_under_a_cooler_light_are_not_cocked(table_55006):
    reading, flags, truth = _wall_flags(table_55006, 1, "wb cooler")
    assert reading.light.warm < dice_wallside.AS_SHOWN_WARM
    assert not flags
    assert reading.status == "ok" and sorted(d.face for d in reading.dice) == sorted(d.face for d in truth)


def test_judged_as_shown_too_they_were(table_55006, monkeypatch):
    monkeypatch.setattr(dice_wallside, "AS_SHOWN_WARM", 0.0)
    reading, flags, _ = _wall_flags(table_55006, 1, "wb cooler")
    assert len(flags) == 3 and reading.status == "uncertain"


def test_in_the_calibrated_light_nothing_changes(table_55006):
    reading, flags, _ = _wall_flags(table_55006, 1, "same")
    assert not flags and reading.status == "ok"

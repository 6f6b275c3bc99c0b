"""A die towards the frame's edge shows its side faces (perspective), counted in with its top: its frog's share of
them falls by as much, and the size test judges it on the top alone (issue 24, round 22: dice_frames.top_fit)."""

from __future__ import annotations

import pytest

from rig.bench.tables import DRIFTS
from rig.vision import dice, dice_frames

from tests.vision.conftest import calibrated_unseen

ODD = "frog of unusual size (glare?)"


@pytest.fixture(scope="module")
def table_45000():
    #: 2D 45000 (round 21's fresh set, seen since): a printed floor, 84 px dice at 1280x960
    return calibrated_unseen(45000)


def _read(table_profile, k):
    table, profile = table_profile
    frame, truth = table.turn(k, DRIFTS["same"])
    return dice.read_dice(frame, profile), truth


def test_a_die_showing_its_sides_is_read_without_an_odd_frog(table_45000):
    # turn 1: a pink die at (1116, 587), its part 1.47 tops, its frog 0.65 of the calibrated size: flagged before
    reading, truth = _read(table_45000, 1)
    assert reading.status == "ok" and not reading.reasons
    assert reading.faces == sorted(d.face for d in truth)


def test_without_the_sides_left_out_the_frog_is_of_unusual_size(table_45000, monkeypatch):
    monkeypatch.setattr(dice_frames, "SIDES_SHOWN_MAX", 1.0)  # the sides counted in: judged as before round 22
    reading, _ = _read(table_45000, 1)
    assert reading.status == "uncertain"
    assert [str(r) for r in reading.reasons] == [f"pink {ODD} on die at (1116, 587)"]


def test_top_fit_bounds():
    class _Work:  # a whole top of 100 pixels inside its rim at the working scale (no rim: side 0)
        side, top_area, factor = 0.0, 100.0, 2

    assert dice_frames.top_fit(_Work, False, 50) == pytest.approx((0.5, 1.0))  # half a top: in shade
    assert dice_frames.top_fit(_Work, False, 125) == pytest.approx((1.0, 0.8))  # its sides shown
    assert dice_frames.top_fit(_Work, False, 400) == pytest.approx((1.0, 1 / dice_frames.SIDES_SHOWN_MAX))
    assert dice_frames.top_fit(_Work, True, 500) == pytest.approx((1.0, 0.8))  # at full resolution: 400 a top

"""One die's top read as two dice (``rig.vision.dice.one_place_twice``): no two dice lie closer than a side."""

import pytest

from rig.bench.tables import DRIFTS
from rig.bench.unseen import score
from rig.vision.dice import TWICE_REASON, read_dice
from tests.vision.conftest import calibrated_unseen, needs_data


@pytest.fixture(scope="module")
def table_38004():
    return calibrated_unseen(38004)


@needs_data
@pytest.mark.parametrize("light", ["exp x0.7", "exp x0.8", "wb warmer"])
def test_a_die_read_twice_is_flagged_not_booked_as_two_in_silence(table_38004, light, monkeypatch):
    # 2D unseen table 38004 (round 14's fresh set), turn 17: the left blue die's frog, cut in two by its dark outline
    # in the dimmer light, was read as two blue dice 34 px apart (the die is 107 px) — four dice for three, status ok.
    # Round 25's held_blob (rig.vision.dice_blobs) reads it once (below); without it the flag still catches it
    monkeypatch.setattr("rig.vision.dice.held_blob", lambda *a: False)
    table, profile = table_38004
    frame, truth = table.turn(17, DRIFTS[light])
    reading = read_dice(frame, profile)
    _, _, wrong, _ = score(truth, reading, 0.6 * table.die)
    assert wrong and len(reading.dice) == 4
    assert reading.status == "uncertain"
    assert any(r.startswith(TWICE_REASON) for r in reading.reasons), reading.reasons


@needs_data
@pytest.mark.parametrize("light", ["exp x0.7", "exp x0.8", "wb warmer"])
def test_a_frog_piece_inside_the_dies_other_piece_is_read_with_it(table_38004, light):
    # round 25: the smaller piece's middle lies inside the larger's hull: one die, read right (blue), three dice for three
    table, profile = table_38004
    frame, truth = table.turn(17, DRIFTS[light])
    reading = read_dice(frame, profile)
    right, counted, wrong, _ = score(truth, reading, 0.6 * table.die)
    assert not wrong and right == counted == len(reading.dice) == 3


@needs_data
def test_the_same_die_in_the_same_light_is_read_once_and_not_flagged_twice(table_38004):
    table, profile = table_38004
    frame, truth = table.turn(17, DRIFTS["same"])
    reading = read_dice(frame, profile)
    assert len(reading.dice) == len(truth) == 3
    assert not any(r.startswith(TWICE_REASON) for r in reading.reasons), reading.reasons

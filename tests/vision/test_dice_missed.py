"""Dice the colour table's first pass misses (``rig.vision.dice_missed``): a die top under the lamp's glare."""

import pytest

from rig.bench.tables import DRIFTS
from rig.bench.unseen import score
from rig.vision.dice import read_dice
from rig.vision.dice_missed import GLARED_REASON
from tests.vision.conftest import calibrated_unseen, needs_data


@pytest.fixture(scope="module")
def table_35002():
    return calibrated_unseen(35002)


@needs_data
@pytest.mark.parametrize("light", ["same", "exp x1.2", "exp x1.3", "wb warmer", "wb cooler"])
def test_a_pink_die_under_the_lamps_glare_is_flagged_not_lost_in_silence(table_35002, light):
    # 2D unseen table 35002 (round 11's fresh set), turn 10: a pink die lies in the lamp's reflection; its frog, red
    # clipped, read as "blown" (or, the brighter light divided out, as the floor) and the die vanished: five dice
    # read right, status ok. Its violet rim round the hole is what is left of it: the turn is flagged there.
    table, profile = table_35002
    frame, truth = table.turn(10, DRIFTS[light])
    reading = read_dice(frame, profile)
    _, _, wrong, _ = score(truth, reading, 0.6 * table.die)
    assert wrong and len(reading.dice) == 5
    assert reading.status == "uncertain"
    assert any(r.startswith(GLARED_REASON) and "(61" in r for r in reading.reasons), reading.reasons


@needs_data
def test_turns_with_every_die_read_carry_no_glare_flag(table_35002):
    table, profile = table_35002
    for k in range(10):
        frame, truth = table.turn(k, DRIFTS["same"])
        reading = read_dice(frame, profile)
        assert not any(r.startswith(GLARED_REASON) for r in reading.reasons), (k, reading.reasons)

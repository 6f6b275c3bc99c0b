"""A die read where the empty box shows the same (``rig.vision.dice_unchanged``, issue 24, round 26)."""

import numpy as np
import pytest

from rig.bench.tables import DRIFTS
from rig.bench.unseen import score
from rig.vision import dice_unchanged
from rig.vision.card_empty import EmptyBox, remember
from rig.vision.dice import read_dice
from rig.vision.dice_unchanged import REASON, distance
from tests.vision.conftest import calibrated_unseen, needs_data


@pytest.fixture(scope="module")
def table_49011():
    # 2D unseen table 49011 (round 25's fresh set, seen now): a dark box bottom in a violet-pink room, the table beyond
    # the rim at the frame's top edge; calibrated once, its empty box kept beside the profile as `rig calibrate` does
    from rig.bench.tables import Table
    from tests.vision.conftest import DATA

    table, profile = calibrated_unseen(49011)
    empty = Table.random(49011, data=DATA).ritual()[1]
    remember(profile, EmptyBox.of(empty))
    return table, profile


@needs_data
def test_the_table_beyond_the_rim_read_as_a_die_after_the_light_dims_is_flagged(table_49011, monkeypatch):
    # turn 9 at exposure x0.7: two dice thrown; the light correction lifts the table beyond the rim at (472, 17) to the
    # dice's violet and it was read as a third die, blank, status ok (round 25's one silent 2D turn)
    table, profile = table_49011
    frame, truth = table.turn(9, DRIFTS["exp x0.7"])
    reading = read_dice(frame, profile)
    _, _, wrong, _ = score(truth, reading, 0.6 * table.die)
    assert wrong and len(reading.dice) == 3 and len(truth) == 2
    assert reading.status == "uncertain"
    phantom = [r for r in reading.reasons if r.startswith(REASON)]
    assert len(phantom) == 1 and abs(phantom[0].at[0] - 472) < 10 and phantom[0].at[1] < 30, reading.reasons
    monkeypatch.setattr(dice_unchanged, "UNCHANGED", 0.0)  # without the test: wrong in silence, as on main
    assert read_dice(frame, profile).status == "ok"


@needs_data
@pytest.mark.parametrize("light", ["same", "exp x0.8"])
def test_the_same_turn_where_the_table_is_no_die_is_read_right_and_ok(table_49011, light):
    table, profile = table_49011
    frame, truth = table.turn(9, DRIFTS[light])
    reading = read_dice(frame, profile)
    _, _, wrong, _ = score(truth, reading, 0.6 * table.die)
    assert not wrong and reading.status == "ok", reading.reasons


@needs_data
def test_without_the_empty_box_kept_nothing_is_judged(table_49011):
    table, profile = table_49011
    frame, _ = table.turn(9, DRIFTS["exp x0.7"])
    remember(profile, None)
    try:
        assert not any(r.startswith(REASON) for r in read_dice(frame, profile).reasons)
    finally:
        remember(profile, EmptyBox.of(table.ritual()[1]))


def test_distance_is_the_median_lab_gap_in_the_frames_light():
    rng = np.random.default_rng(3)
    empty = np.full((60, 80, 3), (90.0, 40.0, 100.0), np.float32)
    frame = np.clip(empty * 0.7 + rng.normal(0, 2, empty.shape), 0, 255).astype(np.uint8)  # the light dimmed
    box = (20, 10, 40, 40)
    assert distance(frame, empty, (0.7, 0.7, 0.7), box) < 4  # in the frame's light: the same
    assert distance(frame, empty, (1.0, 1.0, 1.0), box) > 8  # not matched to it: another colour
    frame[20:40, 30:50] = (60, 20, 50)  # a die's top in the middle
    assert distance(frame, empty, (0.7, 0.7, 0.7), box) > 15
    assert distance(frame, empty, (0.7, 0.7, 0.7), (79, 59, 1, 1)) is None  # no middle to compare

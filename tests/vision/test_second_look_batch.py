"""Round 30 (issue 24): the second look runs its net once a die a reading (``dice_second_look._Looks``), the dice not yet
looked at in one batch: a die's row must come out as it does looked at alone, whatever the batch holds."""

import numpy as np

import rig.vision.dice as dice
import rig.vision.dice_second_look as second
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile


def _work_and_dice(monkeypatch):
    # twin 10002 turn 14 in its own light: six dice, one flagged, so the second look is asked (test_second_look_shade_cut_guard)
    seen = []

    def keep(work, found, reasons, excused=frozenset()):
        seen.append((work, found))
        return second.second_look(work, found, reasons, excused)

    monkeypatch.setattr(dice, "second_look", keep)
    frame, profile = frame_and_profile("t10002-turn14.webp", "t10002")
    read_dice(frame, profile, thrown=6)
    return seen[0]


def test_each_die_is_looked_at_once_and_reads_as_alone(monkeypatch):
    work, found = _work_and_dice(monkeypatch)
    assert len(found) == 6
    model = second.net()
    alone = [second.look(second._die_crop(work, d)[None], None, model)[0] for d in found]
    batches = []
    net_look = second.look

    def counted(inputs, measures=None, model=None):
        batches.append(len(inputs))
        return net_look(inputs, measures, model)

    monkeypatch.setattr(second, "look", counted)
    looks = second._Looks(work, found, model)
    first = looks.of([3, 0, 3])
    rows = looks.of([5, 4, 3, 2, 1, 0])
    assert batches == [2, 4]  # dice 3 and 0, then the four not yet looked at
    for i, row in zip([3, 0, 3], first):
        assert np.array_equal(row, alone[i])
    for i, row in zip([5, 4, 3, 2, 1, 0], rows):
        assert np.array_equal(row, alone[i])

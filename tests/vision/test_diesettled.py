"""An ok die the first rereading check (turned) reads surely is not read by the last (relit) (issue 25, round 33)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from rig.vision.anydie import AnyDieParams, _checked
from rig.vision.dierecheck import rereads_ok
from rig.vision.pips import PipCount, PipDie

# what look k's crop of die i is filled with: 10 * i + k; the reader gives that crop Q[fill] for the die's number
Q = {0: 0.97, 1: 0.96, 2: 0.5,      # die 0: sure turned: the relit look, which would flag it, left out
     10: 0.1, 11: 0.9, 12: 0.9,    # die 1: flagged by the turned look
     20: 0.9, 21: 0.9, 22: 0.1,    # die 2: unsettled, the relit look flags it
     30: 0.97, 31: 0.5, 32: 0.9}   # die 3: sure turned, still read wider: flagged there


class _FillReader:
    """Gives each crop :data:`Q` of its fill value for every number; counts its calls and crops."""

    def __init__(self):
        self.calls, self.crops = 0, 0

    def read(self, crops):
        self.calls += 1
        self.crops += len(crops)
        return np.array([[Q[int(c[0, 0])]] * 7 for c in crops], np.float32)


def _looks(dice):
    def crop_for(look):
        return lambda d: np.full((4, 4), 10 * dice.index(d) + look, np.uint8)
    return [(crop_for(look), 0.3 if look == 0 else 0.6, lambda pips, q, look=look: f"look {look}") for look in range(3)]


def _dice():
    return [PipDie((60 * i, 0, 40, 40), PipCount(2, (), 0.9, "ok", ())) for i in range(4)]


def _reasons(dice):
    return [d.count.reasons for d in dice]


def test_a_die_read_surely_turned_is_not_read_relit():
    dice, reader = _dice(), _FillReader()
    got = rereads_ok(dice, reader, _looks(dice), settled=0.95)
    assert _reasons(got) == [(), ("look 0",), ("look 2",), ("look 1",)]
    assert reader.calls == 2 and reader.crops == 8 + 1  # the four turned and wider, then die 2's relit crop


def test_without_settling_every_look_reads_every_ok_die():
    dice, reader = _dice(), _FillReader()
    got = rereads_ok(dice, reader, _looks(dice))
    assert _reasons(got) == [("look 2",), ("look 0",), ("look 2",), ("look 1",)]
    assert reader.calls == 1 and reader.crops == 12


def test_settling_flags_as_the_one_call_where_no_die_is_settled():
    dice = _dice()
    assert rereads_ok(dice, _FillReader(), _looks(dice), settled=0.99) == rereads_ok(dice, _FillReader(), _looks(dice))


def test_nothing_is_left_out_when_the_first_or_last_look_is_off():
    dice = _dice()
    for off in (0, 2):
        looks = [(crop, 0.0 if k == off else least, why) for k, (crop, least, why) in enumerate(_looks(dice))]
        assert rereads_ok(dice, _FillReader(), looks, settled=0.95) == rereads_ok(dice, _FillReader(), looks)


def test_the_frames_checks_leave_a_surely_turned_die_unread_by_default():
    frame = np.full((120, 200, 3), 60, np.uint8)
    frame[40:90, 40:90] = 230
    die = PipDie((40, 40, 50, 50), PipCount(3, (), 0.9, "ok", ()))

    class Sure(_FillReader):
        crop = 48

        def read(self, crops):
            self.calls += 1
            self.crops += len(crops)
            return np.full((len(crops), 7), 0.96, np.float32)

    reader = Sure()
    _checked(frame, [die], AnyDieParams(), reader)
    assert (reader.calls, reader.crops) == (1, 2)  # turned and wider; not relit
    reader = Sure()
    _checked(frame, [die], replace(AnyDieParams(), settled_read=0.0), reader)
    assert (reader.calls, reader.crops) == (1, 3)

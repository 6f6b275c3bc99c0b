"""The dice's size learned once per table (rig.vision.readers.DieSize): kept, checked, relearned."""

from __future__ import annotations

from types import SimpleNamespace

from rig.vision.pips import PipParams
from rig.vision.readers import DieSize


def _reading(*sides, status="ok"):
    return SimpleNamespace(dice=tuple(SimpleNamespace(box=(10, 10, s, s)) for s in sides), status=status)


def test_an_empty_tray_at_a_size_learned_wrong_is_read_again_on_the_pyramid_and_the_size_relearned():
    """A size learned from a wrong sure reading (a heap of small dice read as one large die) found nothing
    at it afterwards, and an empty reading "fitted": every later frame empty and ok. The pyramid confirms."""
    reads = []

    def read(frame, params):
        reads.append(params.anydie.die_px)
        if params.anydie.die_px == 0:  # the pyramid sees the dice as they are
            return _reading(60, 62, 61) if frame == "dice" else _reading()
        return _reading()  # at the size learned wrong: nothing

    size = DieSize(PipParams(), None)
    size.learn(_reading(300))  # learned wrong: 240 px
    assert size.die_px == 240
    reading = size.read("dice", read)
    assert len(reading.dice) == 3 and reads == [240, 0]
    assert abs(size.die_px - 0.8 * 61) < 1e-6  # relearned from the pyramid's sure dice
    reads.clear()
    assert size.read("empty", read).dice == () and reads == [size.die_px, 0]  # empty: confirmed on the pyramid
    assert abs(size.die_px - 0.8 * 61) < 1e-6  # and the size kept


def test_dice_at_the_learned_size_are_read_once():
    reads = []

    def read(frame, params):
        reads.append(params.anydie.die_px)
        return _reading(60, 61)

    size = DieSize(PipParams(), 2)
    size.read("frame", read)
    reads.clear()
    size.read("frame", read)
    assert reads == [size.die_px] and size.used == size.die_px



def _die(side, *reasons):
    return SimpleNamespace(box=(10, 10, side, side),
                           count=SimpleNamespace(status="uncertain" if reasons else "ok", reasons=reasons))


def _flagged(*dice):
    return SimpleNamespace(dice=dice, status="uncertain" if any(d.count.reasons for d in dice) else "ok")


FAINT = "faint die (finder 0.31)"


def test_a_flagged_frame_showing_the_dice_count_with_a_sure_die_teaches_the_size():
    """Issue 25, round 16: on another table the finder scores the dice low, no frame is read surely and no size was
    ever learned; a frame with the game's dice count, one die at least read ok, the dice of one size, teaches it."""
    size = DieSize(PipParams(), 3)
    size.learn(_flagged(_die(60), _die(64, FAINT), _die(70, "pips unclear: 3 (0.60) or 2 (0.40)")))
    assert abs(size.die_px - 0.8 * 64) < 1e-6


def test_a_flagged_frame_teaches_nothing_without_the_count_a_sure_die_or_dice_of_one_size():
    one = "a 1 the finder is unsure of (finder 0.50): a die, or a coin or knot?"
    for count, reading in ((None, _flagged(_die(60), _die(64, FAINT))),  # no dice count: no faint die is ever read
                           (3, _flagged(_die(60), _die(64, FAINT))),  # a die short
                           (2, _flagged(_die(60, FAINT), _die(64, FAINT))),  # no die read surely: pips as dice?
                           (2, _flagged(_die(60), _die(30, FAINT))),  # a pip read as a die beside a die
                           (2, _flagged(_die(20), _die(21, one)))):  # a 1 that may be no die: a pip, a coin
        size = DieSize(PipParams(), count)
        size.learn(reading)
        assert size.die_px == 0, (count, reading)


def test_a_flagged_reading_at_the_learned_size_that_shows_it_is_kept_when_the_pyramid_does_not_show_the_dice():
    """Issue 25, round 16: at the table's size the dice were read (flagged), on the pyramid pips were taken for
    dice (or a die missed): the reading at the size is the one kept. When the pyramid's reading shows the dice
    (sure, or flagged but counted) it is kept, as before; a reading at the size that shows no size never is."""
    reads, at_size, pyramid = [], [], []

    def read(frame, params):
        reads.append(params.anydie.die_px)
        return at_size[0] if params.anydie.die_px else pyramid[0]

    size = DieSize(PipParams(), 2)
    pyramid[:] = [_flagged(_die(60), _die(62, FAINT))]  # the first frame: the dice's count, one of them faint
    size.read("first", read)
    assert reads == [0] and abs(size.die_px - 0.8 * 62) < 1e-6
    counted, short = _flagged(_die(61, FAINT), _die(63)), _flagged(_die(20, FAINT))
    for sized, on_pyramid, kept in ((counted, short, counted),  # the pyramid misses: the size's reading kept
                                    (counted, _flagged(_die(58), _die(60, FAINT)), None),  # both show it: pyramid's
                                    (_flagged(_die(61, FAINT)), short, short),  # a die missing at the size too
                                    (_flagged(_die(61, FAINT), _die(63, FAINT)), short, short)):  # no sure die
        at_size[:], pyramid[:], reads[:] = [sized], [on_pyramid], []
        assert size.read("next", read) is (kept or on_pyramid)
        assert reads == [reads[0], 0] and reads[0] > 0  # read at the size, then on the pyramid
        assert size.used == (reads[0] if kept is sized else 0.0)
    unknown = DieSize(PipParams(), None)  # no count: a flagged reading at the size is never kept
    unknown.learn(_flagged(_die(60), _die(62)))
    at_size[:], pyramid[:] = [counted], [short]
    assert unknown.read("next", read) is short


def test_two_dice_fit_the_learned_size_by_their_mean_side_not_the_larger():
    """Issue 25, round 35: two touching 1s read ok at the learned 17.6 px in 24 and 36 px boxes (a coloured tuning
    photo at x0.6) were judged by the larger box alone (36 x 0.8 / 17.6 = 1.64, over DRIFT) and read again on the
    pyramid, which saw one box over both. Their median side is their mean, 30 px: they fit."""
    reads = []

    def read(frame, params):
        reads.append(params.anydie.die_px)
        return _reading(24, 36) if params.anydie.die_px else _reading(50)

    size = DieSize(PipParams(), 2)
    size.learn(_reading(22, 22))
    assert abs(size.die_px - 17.6) < 1e-6
    assert size.fits(_reading(24, 36)) and not size.fits(_reading(40, 44))
    assert len(size.read("frame", read).dice) == 2 and reads == [size.die_px]

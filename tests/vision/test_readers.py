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

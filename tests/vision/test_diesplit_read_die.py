"""Issue 25, round 31: a coarser pyramid level's peak read surely as showing 2-6 pips, its face its own, is a sure die
whose pips a finer level's peaks inside it are (rig.vision.diesplit.sure_dice, READ_DIE), whatever the finder scores
it. White dice of 50-100 px showing 2 (the tuning photos at x1.5) were read by their level as 2 at 0.95-0.97, but the
finder scored them 0.45-0.65 (finder x reader under SURE_DIE 0.7), and a finer level reading their pips as dice
showing 1 won.

The fixture is a tuning photo of ../shared/data/real-pip-dice (never the held-out split): the part of ``two_38`` the
benchmark's x1.5 frame shows (rig.bench.pips.scaled_frame: the photo scaled x1.5, its middle 640 x 480 cut out), kept
at its own size with two pixels about it (JPEG) and scaled here as the benchmark scales it."""

import numpy as np
import pytest

from rig.vision import diesplit

from .pip_small import read_x15

#: two_38's labelled dice in the x1.5 frame: pips, centre
TRUTH = [(2, 114.5, 57.0), (2, 281.7, 72.0), (2, 359.7, 376.5), (2, 62.7, 420.0)]


def _read() -> list[tuple[int, str, list[int]]]:
    return read_x15("two_38", TRUTH)


def test_large_white_dice_showing_2_are_read_as_dice_not_their_pips(nets):
    read = _read()
    assert len(read) == 4
    assert all(inside == [2] and pips == 2 for pips, _, inside in read)


def test_before_their_pips_were_read_as_dice_showing_1(nets, monkeypatch):
    monkeypatch.setattr(diesplit, "READ_DIE", False)
    read = _read()
    assert not any(inside for _, _, inside in read)  # no box on a die
    assert sum(pips == 1 for pips, _, _ in read) >= 8 and all(status != "ok" for _, status, _ in read)


def _level(peaks: list) -> list:
    return [0.0, 0.0, None, peaks, 0.0, [1.0] * len(peaks)]


#: a finer level's two peaks inside the die: the pips it may hold
HERE = [(92.0, 92.0), (108.0, 108.0)]
SHOWS_2 = np.array([0.0, 0.02, 0.95, 0.01, 0.01, 0.01, 0.0], np.float32)


@pytest.mark.parametrize("floor, face, want", [(90, 90, False), (90, 230, True)])
def test_a_die_read_surely_is_sure_only_with_a_face_of_its_own(floor, face, want):
    """A peak read 2 at 0.95 but scored under SURE_DIE (0.5): a sure die when its box's middle is not the floor's colour
    (a white die on a dark floor); not when it is (white dice_28 at x0.4: three white 9 px dice showing 1 on a pale floor,
    one 76 px box read 2)."""
    frame = np.full((200, 200, 3), floor, np.uint8)
    frame[80:120, 80:120] = face
    memo = {(100.0, 100.0, 40.0): (SHOWS_2, None)}
    sure = diesplit.sure_dice(frame, [_level([(100.0, 100.0, 40.0, 0.5)])], memo, 0.7, HERE)
    assert sure == ([(100.0, 100.0, 40.0)] if want else [])
    assert diesplit.sure_dice(frame, [_level([(100.0, 100.0, 40.0, 0.75)])], memo, 0.7, HERE) == [(100.0, 100.0, 40.0)]


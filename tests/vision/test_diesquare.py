"""Issue 25, round 34: a die the second opinion alone flags ("unlike the dice the reader knows") is ok again when the
thing in its box is a square body seen whole (rig.vision.diesquare); a disk, a knot, a glint, a die flagged for more,
stay flagged. Fixture: a 540 px crop of the tuning photo real-colour-dice/IMG_20191209_095849.jpg (its left 100 and
bottom 100 px cut off), whose red 1 the second opinion rates 0.02."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from rig.vision.anydie import AnyDieParams, read_pip_dice
from rig.vision.diesquare import UNLIKE, doubted_only, square_body, squares_freed
from rig.vision.pips import PipCount, PipDie

PHOTO = Path(__file__).parent / "pip_photos" / "IMG_20191209_095849-540.png"
ONE = (228, 278)  # the red 1's label centre in the crop


def _at(dice, x, y):
    return [(d.pips, d.count.status, d.count.reasons) for d in dice
            if d.box[0] <= x <= d.box[0] + d.box[2] and d.box[1] <= y <= d.box[1] + d.box[3]]


def test_a_real_die_the_second_opinion_doubts_is_ok_when_its_body_is_square(nets):
    frame = cv2.imread(str(PHOTO))
    (pips, status, reasons), = _at(read_pip_dice(frame, replace(AnyDieParams(), square_rect=0.0)).dice, *ONE)
    assert (pips, status) == (1, "uncertain") and len(reasons) == 1 and reasons[0].startswith(UNLIKE)
    assert _at(read_pip_dice(frame).dice, *ONE) == [(1, "ok", ())]


def _floor():
    return np.full((200, 200, 3), (150, 150, 150), np.uint8)


def _doubted(box=(80, 80, 40, 40), more=()):
    return PipDie(box, PipCount(1, (), 0.9, "uncertain", (f"{UNLIKE} (0.05): a coin, a knot, a pip?",) + more))


def test_a_square_body_is_freed_and_round_long_or_glinting_things_are_not():
    p = AnyDieParams()
    die = _floor()
    die[80:120, 80:120] = (40, 40, 200)
    cv2.circle(die, (100, 100), 5, (230, 230, 230), -1)
    assert square_body(die, (80, 80, 40, 40), p.square_rect, p.square_circle)
    assert [d.count.status for d in squares_freed(die, [_doubted()], p)] == ["ok"]
    assert squares_freed(die, [_doubted()], replace(p, square_rect=0.0))[0].count.status == "uncertain"
    more = _doubted(more=("overlaps another die (pips seen as dice?)",))
    assert not doubted_only(more) and squares_freed(die, [more], p) == [more]
    coin = _floor()
    cv2.circle(coin, (100, 100), 20, (60, 120, 170), -1)
    knot = _floor()
    cv2.ellipse(knot, (100, 100), (24, 14), 30, 0, 360, (40, 70, 110), -1)
    glint = die.copy()
    cv2.circle(glint, (100, 100), 5, (255, 255, 255), -1)
    for thing in (coin, knot, glint):
        assert not square_body(thing, (80, 80, 40, 40), p.square_rect, p.square_circle)
        assert squares_freed(thing, [_doubted()], p)[0].count.status == "uncertain"
    touching = die.copy()
    touching[80:120, 120:160] = (200, 40, 40)  # another die against its side: the outline not seen whole
    assert not square_body(touching, (80, 80, 40, 40), p.square_rect, p.square_circle)

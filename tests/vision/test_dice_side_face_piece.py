"""A flat die's side face, cut from its top by the dark edge between them, read as a piece of die colour beside the
die: not "part of a die (glare or hidden?)" where it lies on the side perspective shows, just beyond the die's box
(issue 24, round 23: dice_walls_seen.a_side_face). A piece away from every die read stays flagged."""

from __future__ import annotations

import pytest

from rig.bench.tables import DRIFTS
from rig.vision import dice, dice_walls_seen
from rig.vision.card_empty import EmptyBox, remember

from tests.vision.conftest import calibrated_unseen

PART = "part of a die (glare or hidden?)"


def _calibrated(seed):
    table, profile = calibrated_unseen(seed)
    remember(profile, EmptyBox.of(table.ritual()[1]))  # kept beside the profile, as the bench does
    return table, profile


@pytest.fixture(scope="module")
def table_44006():
    #: 2D 44006 (seen): a plain dark floor, 68 px dice at 1280x960
    return _calibrated(44006)


def _read(table_profile, k, light="same"):
    table, profile = table_profile
    frame, truth = table.turn(k, DRIFTS[light])
    return dice.read_dice(frame, profile), truth


def test_a_turned_die_s_corner_face_is_no_part_of_a_die(table_44006):
    # turn 1: the pink+blue die at (546, 865) turned 45 degrees; its violet side face towards the frame's centre
    # sticks out beyond the top's box at (579, 867), cut from the top by the dark edge: flagged before
    reading, truth = _read(table_44006, 1)
    assert reading.status == "ok" and not reading.reasons
    assert reading.faces == sorted(d.face for d in truth)


def test_without_the_side_face_s_reach_it_is_flagged(table_44006, monkeypatch):
    monkeypatch.setattr(dice_walls_seen, "SIDE_FACE_REACH", 0.0)
    reading, _ = _read(table_44006, 1)
    assert reading.status == "uncertain"
    assert [str(r) for r in reading.reasons] == [f"{PART} at (579, 867)"]


def test_a_piece_of_a_die_not_read_stays_flagged():
    # 44003 exp x1.2 turn 2: a yellow die at (250, 121) not read, a piece of it seen; the nearest die read is 160 px off
    table_profile = _calibrated(44003)
    reading, truth = _read(table_profile, 2, "exp x1.2")
    assert len(reading.dice) < len(truth)
    assert reading.status == "uncertain"
    assert [str(r) for r in reading.reasons] == [f"{PART} at (252, 121)"]


class _Work:  # a 640 x 480 frame read at the working scale (factor 2): labels 320 x 240, a die side of 20 working px
    factor, side = 2, 20.0

    class labels:
        shape = (240, 320)


def _die(x, y, cocked=False):
    return dice.DieObservation("pink", x, y, (x - 20, y - 20, 40, 40), 0.9, cocked)


def test_a_side_face_lies_beside_the_box_towards_the_frame_s_centre():
    die = [_die(100.0, 100.0)]  # up and left of the centre (320, 240): its side faces show right and down
    assert dice_walls_seen.a_side_face(62.0, 50.0, die, _Work)  # (125, 101): 5 px beyond the right edge
    assert not dice_walls_seen.a_side_face(37.0, 50.0, die, _Work)  # (75, 101): 5 px beyond the left edge, away
    assert not dice_walls_seen.a_side_face(70.0, 50.0, die, _Work)  # (141, 101): 21 px beyond, 0.3 side is 12
    assert not dice_walls_seen.a_side_face(62.0, 50.0, [_die(100.0, 100.0, cocked=True)], _Work)

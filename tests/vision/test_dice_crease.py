"""A die leaning on a wall with its top to the lens, its side face inside its read box beyond a crease (issue 24,
round 26): twin 10702 turn 3's and 10209 turn 1's geometry, drawn."""

import cv2
import numpy as np

from rig.vision.dice import DieObservation
from rig.vision.dice_crease import DIP, crease, creased, creased_dice
from rig.vision.dice_wallside import NEARER, empty_chroma, outward_sides

SIDE = 44
FLOOR = (120, 122, 118)  # grey felt, B, G, R
BODY = (170, 40, 120)  # violet die body, lit (10702: Lab 88 / 163 / 85)
CREASE = (110, 25, 80)  # the edge between the top and the turned-up side face: die hue, two thirds as light
SHADOW = (30, 32, 30)


def _lab(bgr):
    return cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2Lab)[0, 0].astype(np.float32)


BODY_AB = np.array([_lab(BODY)[1:], _lab(CREASE)[1:]], np.float32)


def _floor():
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[:] = FLOOR
    return frame


def _empty_ab():
    return empty_chroma(cv2.cvtColor(_floor(), cv2.COLOR_BGR2Lab), (480, 640))


def _die(frame, x, y, h=SIDE, crease_at=None):
    """A die read flat at (x, y) (top-left), its box ``h`` px tall; with ``crease_at`` a crease that many px above
    the box's bottom (outer) side, lit die body beyond it: the turned-up side face inside the box."""
    frame[y : y + h, x : x + SIDE] = BODY
    frame[y + h : y + h + 8, x : x + SIDE] = SHADOW  # its shade or shadow beyond the box
    if crease_at is not None:
        frame[y + h - crease_at - 1 : y + h - crease_at + 2, x : x + SIDE] = CREASE
    return DieObservation("blank", x + SIDE / 2, y + h / 2, (x, y, SIDE, h), 1.0)


def test_a_side_face_beyond_a_crease_inside_the_box_is_a_leaning_die():
    # 10702 turn 3: a die-sized box near the near wall, its outer eighth the side face beyond the crease
    frame = _floor()
    die = _die(frame, 152, 364, crease_at=6)
    dip, outer, hue, at = crease(frame, _empty_ab(), die.box, "B", SIDE, BODY_AB, NEARER)
    assert dip <= DIP and outer > 0.95 and hue == 1.0 and 0.08 < at < 0.2
    assert creased(frame, _empty_ab(), die.box, "B", SIDE, BODY_AB, NEARER)


def test_a_long_box_holding_the_top_and_its_side_face_is_a_leaning_die():
    # 10209 turn 1: a box 1.3 die sides long, the crease 0.45 die sides inside its outer side (drawn at the bottom)
    frame = _floor()
    dice = [_die(frame, 100, 120), _die(frame, 300, 100), _die(frame, 560, 380, h=57, crease_at=20)]
    assert creased_dice(frame, _empty_ab(), dice, SIDE, BODY_AB, NEARER, outward_sides) == [dice[2]]


def test_a_flat_die_its_box_ending_at_its_top_has_no_crease():
    frame = _floor()
    die = _die(frame, 152, 364)
    frame[364 + SIDE - 2 : 364 + SIDE, 152 : 152 + SIDE] = CREASE  # its rounded rim, darker, at the box's very side
    assert not creased(frame, _empty_ab(), die.box, "B", SIDE, BODY_AB, NEARER)


def test_a_dark_line_of_another_colour_is_no_crease():
    frame = _floor()
    die = _die(frame, 152, 364)
    frame[364 + SIDE - 8 : 364 + SIDE - 5, 152 : 152 + SIDE] = (40, 40, 40)  # a shadow's line across the top, grey
    assert not creased(frame, _empty_ab(), die.box, "B", SIDE, BODY_AB, NEARER)


def test_a_die_read_cocked_or_flagged_already_is_not_judged_again():
    frame = _floor()
    die = _die(frame, 152, 364, crease_at=6)
    cocked = DieObservation("blank", die.x, die.y, die.box, 0.5, True)
    assert creased_dice(frame, _empty_ab(), [cocked], SIDE, BODY_AB, NEARER, outward_sides) == []
    assert creased_dice(frame, _empty_ab(), [die], SIDE, BODY_AB, NEARER, outward_sides, found=[die]) == []


def test_a_die_near_the_view_s_centre_is_not_judged():
    # flat dice near the nadir whose box shows a crease-like line (a frog's edge): twin 10704 turn 2, 10308 turn 0
    frame = _floor()
    near = _die(frame, 300, 250, crease_at=6)  # 0.23 of the half frame below the centre
    far = _die(frame, 152, 364, crease_at=6)
    assert creased(frame, _empty_ab(), near.box, "B", SIDE, BODY_AB, NEARER)
    assert creased_dice(frame, _empty_ab(), [near, far], SIDE, BODY_AB, NEARER, outward_sides) == [far]

"""A leaning die's side face dark on the lamp's side of its top (issue 24, round 21): twin 10400 turn 3's geometry."""

import cv2
import numpy as np

from rig.vision.dice import DieObservation
from rig.vision.dice_lampside import FACE, dark_shares, turned_to_lens

SIDE = 40
FLOOR = 140  # each channel: B + G + R = 420, the open floor of 10400


def _table(dice_at, faces_right=(), shadow=True):
    """Dice tops at ``dice_at`` (x, y: top-left), the lamp on the right: each casts its shadow to its left; a die of
    ``faces_right`` shows a dark side face on its right (towards the lamp)."""
    frame = np.full((480, 640, 3), FLOOR, np.uint8)
    empty = frame.copy()
    dice = []
    for i, (x, y) in enumerate(dice_at):
        if shadow:
            frame[y : y + SIDE, x - 14 : x] = 25  # its cast shadow, away from the lamp
        if i in faces_right:
            frame[y : y + SIDE, x + SIDE : x + SIDE + 12] = 7  # its side face, turned from every lamp
        frame[y : y + SIDE, x : x + SIDE] = (160, 60, 120)  # violet die body
        dice.append(DieObservation("blank", x + SIDE / 2, y + SIDE / 2, (x, y, SIDE, SIDE), 1.0))
    return frame, cv2.cvtColor(empty, cv2.COLOR_BGR2Lab), dice


SPREAD = [(100, 100), (300, 100), (500, 120), (120, 300), (330, 320), (520, 330)]


def test_the_die_leaning_with_its_top_to_the_lens_is_found():
    frame, empty, dice = _table(SPREAD, faces_right={4})
    assert turned_to_lens(frame, empty, dice, SIDE) == [dice[4]]


def test_flat_dice_with_their_shadows_are_not():
    frame, empty, dice = _table(SPREAD)
    shares = [
        dark_shares(frame, np.full((480, 640), 3.0 * FLOOR), d.box, SIDE) for d in dice
    ]
    assert all(s["L"] >= FACE for s in shares)  # every die's shadow is dark: the lamp's side is the right
    assert turned_to_lens(frame, empty, dice, SIDE) == []


def test_a_neighbours_shadow_on_the_lamp_side_is_no_side_face():
    # die 1 lies just right of die 0: its shadow falls on die 0's right, where the lamp shines
    frame, empty, dice = _table([(100, 100), (155, 100), (500, 120), (120, 300), (330, 320), (520, 330)])
    assert (
        dark_shares(frame, np.full((480, 640), 3.0 * FLOOR), dice[0].box, SIDE)["R"]
        >= FACE
    )
    assert turned_to_lens(frame, empty, dice, SIDE) == []


def test_the_same_strip_is_not_judged_without_a_lamp_side():
    # no shadows at all (a lamp above): no side is known to be lit, and the lit side's test is not the shadow's
    frame, empty, dice = _table(SPREAD, faces_right={4}, shadow=False)
    assert turned_to_lens(frame, empty, dice, SIDE) == [dice[4]]  # every side lit: the dark strip is a face
    frame, empty, dice = _table(SPREAD[:2], faces_right={1})
    assert turned_to_lens(frame, empty, dice, SIDE) == []  # too few dice to tell the lamp's side


def test_the_empty_boxs_lightness_is_made_once_a_picture_and_size():
    """Made for every frame it cost 14 ms a 640x480 frame (2D 42000-42002 with the picture kept: 21.1 ms a frame
    against 7.5); the same numbers, once a calibration."""
    from rig.vision.dice_lampside import empty_lightness

    lab = np.full((96, 128, 3), 128, np.uint8)
    first = empty_lightness(lab, (480, 640))
    assert empty_lightness(lab, (480, 640)) is first and first.shape == (480, 640)
    other = empty_lightness(lab.copy(), (480, 640))
    assert other is not first and np.array_equal(other, first)

"""The twin's dice physics (pybullet): thrown dice come to rest in the tray, faces and cocked dice."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("pybullet")

from rig.twin import physics  # noqa: E402


def test_thrown_dice_come_to_rest_flat_in_the_tray():
    tray = (0.2, 0.15)
    dice = physics.throw(3, tray=tray)
    assert len(dice) == 6
    faces = {"blue", "pink", "yellow", "blank", *physics.COMBOS}
    for die in dice:
        assert abs(die.centre[0]) < tray[0] / 2 and abs(die.centre[1]) < tray[1] / 2
        assert die.face in faces
        if not die.cocked:
            assert die.centre[2] == pytest.approx(physics.DIE / 2, abs=0.002)  # lying on the floor
            assert die.tilt_deg < physics.COCKED_DEG
    assert physics.throw(3, tray=tray) == dice  # seeded: the same throw again


def test_a_die_set_against_the_wall_stays_cocked_and_says_so():
    dice = physics.throw(0, lean=True)
    cocked = [d for d in dice if d.cocked]
    assert cocked and all(d.tilt_deg > physics.COCKED_DEG for d in cocked)
    assert all(d.centre[2] > physics.DIE / 2 + 0.001 for d in cocked)  # propped up off the floor


def test_the_face_up_is_the_side_whose_normal_points_up():
    quarter = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], float)  # +90 degrees about x: local +y (pink) up
    assert physics.face_up(quarter, "pink+blue") == ("pink", pytest.approx(0.0, abs=1e-6))
    tilted = np.array([[1, 0, 0], [0, math.cos(0.4), -math.sin(0.4)], [0, math.sin(0.4), math.cos(0.4)]])
    face, tilt = physics.face_up(tilted, "pink+blue")
    assert face == "blank" and tilt == pytest.approx(math.degrees(0.4))
    assert physics.face_up(np.diag([1.0, -1.0, -1.0]), "yellow+pink")[0] == "yellow+pink"  # the combo on -z


def test_the_ritual_lays_every_die_the_same_face_up():
    for face in ("blue", "pink", "yellow", "blank"):
        dice = physics.lay(1, face)
        assert [physics.face_up(np.array(d.rotation), d.combo)[0] for d in dice] == [face] * 6

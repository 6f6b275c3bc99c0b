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


def test_a_propped_throw_leaves_many_dice_cocked_on_walls_and_other_dice():
    tray = (0.2, 0.15)
    plain = [physics.throw(seed, tray=tray) for seed in range(4)]
    propped = [physics.throw(seed, tray=tray, propped=4) for seed in range(4)]
    assert [physics.throw(seed, tray=tray, propped=0) for seed in range(4)] == plain  # without it: the throw as before
    cocked = [d for dice in propped for d in dice if d.cocked]
    assert len(cocked) >= 6 > sum(d.cocked for dice in plain for d in dice)  # about two a throw, seeded
    for dice in propped:
        assert len(dice) == 6
        for d in dice:  # the truth is the pose: cocked when the top tilts more than COCKED_DEG, and then off the floor
            assert d.cocked == (d.tilt_deg > physics.COCKED_DEG)
            assert abs(d.centre[0]) < tray[0] / 2 and abs(d.centre[1]) < tray[1] / 2
            if d.cocked:
                assert d.centre[2] > physics.DIE / 2 + 0.001
    assert [physics.throw(seed, tray=tray, propped=4) for seed in range(4)] == propped


def test_a_twin_tables_propped_turns_are_shots_of_their_own():
    from rig.twin.table import TwinTable

    table = TwinTable.random(8500)
    turns, propped = table.shots(2), table.shots(2, propped=4)
    assert [s.name for s in propped[5:]] == ["propped:0", "propped:1"]
    assert [s.name for s in turns[:5]] == [s.name for s in propped[:5]]  # the same ritual and empty box
    assert {table.cache_path(s, 8) for s in propped[5:]}.isdisjoint(table.cache_path(s, 8) for s in turns)
    assert sum(d.cocked for s in propped[5:] for d in s.dice) > sum(d.cocked for s in turns[5:] for d in s.dice)

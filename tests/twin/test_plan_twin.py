"""``rig plan`` against the twin's camera: the plan for a twin table's camera (Camera Module 3, lens
height, picture, sensor crop) gives the die size the twin's own projection draws. No Mitsuba needed."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from rig.twin.optics import project
from rig.twin.physics import DIE
from rig.twin.table import TwinTable


def _top_px(table, x: float, y: float) -> float:
    """The mean side (px) of a die's 16 mm top face, lying square at (x, y), through the twin's camera."""
    a = DIE / 2
    c = project(table, np.array([(x - a, y - a, DIE), (x + a, y - a, DIE), (x + a, y + a, DIE), (x - a, y + a, DIE)]))
    return float(np.mean([np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]))


@pytest.mark.parametrize("seed", range(100, 112))
def test_the_plans_die_px_is_the_twins_projected_top_face(seed):
    table = TwinTable.random(seed, size=(640, 480))
    plan = table.plan()
    assert plan.camera.name == "cm3" and plan.height_mm == pytest.approx(table.camera["height"] * 1000)
    # an untilted camera straight over the tray's centre: the pinhole and the twin agree exactly (to the
    # rounding of the uncropped picture's size)
    level = copy.copy(table)
    level.camera = dict(table.camera, x=0.0, y=0.0, tilt_x=0.0, tilt_y=0.0)
    assert _top_px(level, 0.0, 0.0) == pytest.approx(plan.die_px, rel=0.002)
    # the table's own camera (up to 3° of tilt), dice anywhere in the tray: within 5 % (docs/building.md)
    w, h = table.tray
    for x, y in [(0, 0), (-w / 2 + DIE, -h / 2 + DIE), (w / 2 - DIE, h / 2 - DIE), (w / 2 - DIE, -h / 2 + DIE)]:
        assert _top_px(table, x, y) == pytest.approx(plan.die_px, rel=0.05)


def test_the_twins_crop_is_a_part_of_the_camera_module_3s_field():
    for seed in range(100, 112):
        table = TwinTable.random(seed, size=(640, 480))
        plan = table.plan()
        assert plan.frame[0] >= 640 and plan.frame[0] / plan.frame[1] == pytest.approx(4 / 3, rel=0.01)
        assert plan.hfov_deg > table.camera["fov"]  # the twin sees a part of what the whole sensor sees
        assert plan.box_in_view  # the crop holds the tray, so the whole field does too


def test_laid_dice_project_to_the_plans_size():
    pytest.importorskip("pybullet")
    from rig.bench.plan import twin_top_px

    table = TwinTable.random(105, size=(640, 480))
    plan = table.plan()
    for die in table.shots(0)[0].dice:
        assert twin_top_px(table, die) == pytest.approx(plan.die_px, rel=0.05)

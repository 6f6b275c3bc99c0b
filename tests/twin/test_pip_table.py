"""Pip dice on the twin (issue 25's other tables and cameras): faces, tables, shots, and the bench's tally."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from rig.twin.pip_table import PIP_AT, SIZES, VALUES, PipPose, PipTable, _pip_texture


def test_opposite_faces_add_up_to_seven_and_the_face_up_is_read_from_the_rotation():
    assert [VALUES[i] + VALUES[i + 1] for i in (0, 2, 4)] == [7, 7, 7]
    assert all(len(PIP_AT[v]) == v for v in range(1, 7))
    upright = SimpleNamespace(centre=(0, 0, 0.008), rotation=tuple(map(tuple, np.eye(3))), cocked=False)
    assert PipPose.of(upright).value == 1
    flipped = SimpleNamespace(centre=(0, 0, 0.008), rotation=((1, 0, 0), (0, -1, 0), (0, 0, -1)), cocked=False)
    assert PipPose.of(flipped).value == 6
    on_side = SimpleNamespace(centre=(0, 0, 0.008), rotation=((1, 0, 0), (0, 0, -1), (0, 1, 0)), cocked=False)
    assert PipPose.of(on_side).value == 3  # local +y turned up


def test_a_face_texture_shows_its_pips():
    dark = _pip_texture(5, (232.0, 234.0, 236.0), (28.0, 28.0, 30.0)).mean(axis=2) < 0.1
    import cv2

    n, _ = cv2.connectedComponents(dark.astype(np.uint8))
    assert n - 1 == 5


def test_tables_span_the_sizes_and_die_sizes_the_issue_asks_for():
    tables = [PipTable.random_pips(seed) for seed in range(9000, 9024)]
    assert {t.size for t in tables} == set(SIZES)
    sizes = [t.notes["die_px"] for t in tables]
    assert 30 <= min(sizes) < 60 and 120 < max(sizes) <= 200
    assert PipTable.random_pips(9003).camera == PipTable.random_pips(9003).camera  # seeded


def test_thrown_dice_show_inside_the_frame_at_their_size_and_renders_are_keyed_by_what_they_show():
    pytest.importorskip("pybullet")
    table = PipTable.random_pips(9004)
    shots = table.pip_shots(2)
    assert shots[0].props == [] and shots[1].props  # every other throw has things that are no die
    for die in table.pip_truth(shots[0]):
        assert 0 <= die.x < table.size[0] and 0 <= die.y < table.size[1]
        assert abs(die.side_px - table.notes["die_px"]) < 0.2 * table.notes["die_px"]
    other = replace(table, style="black, white pips" if table.style != "black, white pips" else "red, white pips")
    assert other.pip_shots(1)[0].name != shots[0].name  # another recipe is another render


def test_a_tiny_render_has_dice_and_props(tmp_path, monkeypatch):
    pytest.importorskip("mitsuba")
    monkeypatch.setenv("RIG_TWIN_CACHE", str(tmp_path))
    table = replace(PipTable.random_pips(9001), size=(80, 60))
    shot = table.pip_shots(2)[1]
    rgb = table.render(shot, spp=1)
    assert rgb.shape == (60, 80, 3) and np.isfinite(rgb).all() and rgb.mean() > 0


def test_the_training_truth_is_each_dice_top_face_projected_and_the_rest_no_die():
    import math
    from functools import partial

    from rig.twin.physics import DIE
    from rig.twin.pip_table import _add_prop
    from rig.twin.table import Shot

    table = PipTable.random_pips(9004)
    turn = math.radians(45)
    flat = PipPose((0.01, -0.005, DIE / 2), tuple(map(tuple, np.eye(3))), 1, False)
    turned = PipPose((-0.02, 0.0, DIE / 2), ((math.cos(turn), -math.sin(turn), 0), (math.sin(turn), math.cos(turn), 0),
                                              (0, 0, 1)), 1, False)
    upside = PipPose((0.0, 0.02, DIE / 2), ((1, 0, 0), (0, -1, 0), (0, 0, -1)), 6, False)
    cocked = PipPose((0.02, 0.02, DIE / 2), tuple(map(tuple, np.eye(3))), 1, True)
    shot = Shot("t", [flat, turned, upside, cocked], props=[partial(_add_prop, "coin", 0.0, -0.02, 0.0, 1.0)])
    dice, others = table.frame_boxes(shot)
    truth = table.pip_truth(shot)  # the top's centre and a die's side along x, projected another way
    assert dice[:, 3].tolist() == [1, 1, 6] and len(others) == 2 and (others[:, 3] == 0).all()
    for row, true in zip(dice, truth):
        assert abs(row[0] - true.x) < 0.5 and abs(row[1] - true.y) < 0.5
    assert abs(dice[0, 2] - truth[0].side_px) < 0.03 * truth[0].side_px  # upright: the box is the face
    assert abs(dice[2, 2] - truth[2].side_px) < 0.03 * truth[2].side_px
    assert abs(dice[1, 2] - math.sqrt(2) * truth[1].side_px) < 0.03 * truth[1].side_px  # turned 45°: its diagonal
    assert abs(others[0, 0] - truth[3].x) < 0.5  # the cocked die is no die to learn
    coin = table.frame_boxes(Shot("c", [], props=shot.props))[1][0]
    assert abs(coin[2] - 2 * 0.0105 / DIE * truth[0].side_px) < 0.1 * coin[2]  # a coin is 21 mm across

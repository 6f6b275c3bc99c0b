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

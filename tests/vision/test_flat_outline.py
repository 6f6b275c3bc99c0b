"""scripts/flat_outline.py (issue 24, round 15): a die's outline measured against a flat die's at its place — its
top swept towards the view's nadir by the side faces that face the lens."""

import numpy as np
import pytest
from tests.vision.conftest import script

from rig.vision.dice import DieObservation
from rig.vision.dice_frames import Work
from rig.vision.pixel_classes import BG, BODY, EDGE


@pytest.fixture
def fo():
    return script("flat_outline")


def _work(side_face: tuple[int, int, int, int] | None):
    """A 200 x 200 floor with a 20 px die top at (150, 100) (right of the centre: its nadir side is its left) and,
    when given, a strip of die body in shade ``(x0, y0, x1, y1)``."""
    lab = np.full((200, 200), BG, np.uint8)
    small = np.full((200, 200, 3), (40, 140, 60), np.uint8)  # green floor
    lab[90:110, 140:160], small[90:110, 140:160] = BODY, (150, 60, 110)  # violet top
    if side_face is not None:
        x0, y0, x1, y1 = side_face
        lab[y0:y1, x0:x1], small[y0:y1, x0:x1] = EDGE, (75, 30, 55)  # the violet in shade
    obs = DieObservation("blank", 149.5, 99.5, (140, 90, 20, 20), 1.0)
    return obs, Work(lab, small, 1, 20.0, 400.0)


def test_a_flat_die_shows_its_side_face_on_the_nadir_side_and_none_beyond(fo):
    obs, work = _work((136, 90, 140, 110))  # 4 px (0.2 die sides) on its left
    m = fo.outline(obs, work)
    v = [-0.2, 0.0]  # the sweep: 0.2 die sides towards the centre
    got = fo.measures(m, v)
    assert abs(got["over"]) < 0.1 and abs(got["under"]) < 0.1 and got["ex"] < 0.05 and got["miss"] < 0.05


def test_a_die_showing_its_side_face_on_the_far_side_is_measured_so(fo):
    obs, work = _work((160, 90, 164, 110))  # the strip on its right, away from the nadir
    got = fo.measures(fo.outline(obs, work), [-0.2, 0.0])
    assert got["ex"] > 0.15 and got["miss"] > 0.15


def test_no_top_no_outline(fo):
    obs, work = _work(None)
    work.labels[:] = BG
    assert fo.outline(obs, work) is None

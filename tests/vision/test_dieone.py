"""Issue 25, round 33: a found 1 with no die's face around its pip is flagged (rig.vision.dieone): a round thing whose
pip is a glint (pip twin 12108 throw 1, a metal bead at the tray's far corner read as a 1, the frame ``ok`` on main) or a
1 cut by the frame's edge; a die showing 1 is not."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from rig.vision.anydie import AnyDieParams, _face_ends, read_pip_dice
from rig.vision.dieone import DISK, glints, one_reason, one_shape
from rig.vision.pips import PipCount, PipDie

TWIN = Path(__file__).parent / "pip_twin"
#: pip twin 12108 throw 1 (seen; 640x480, JPEG q92): one red die of 147 px showing 3 (not found), and the bead
BEAD = (246, 5, 68, 68)
#: pip twin 9152 throw 1 (seen; 640x480, JPEG 4:4:4 q98: q92 reads it otherwise): two blue dice of 92 px (not found) and a small bead, its highlight read 1
SMALL_BEAD = (398, 207, 15, 15)
ROUND, CIRCLE = AnyDieParams().one_round, AnyDieParams().one_circle


def _floor() -> np.ndarray:
    return np.full((200, 200, 3), (60, 70, 60), np.uint8)


def _bead(frame: np.ndarray, x: int = 100, y: int = 100, glint: int = 255) -> np.ndarray:
    """A bead, its lower left in its own shadow (round, no disk: as 12108's, which fills 0.83 of its circle)."""
    cv2.circle(frame, (x, y), 25, (170, 170, 170), -1)
    cv2.circle(frame, (x - 24, y + 24), 16, tuple(int(v) for v in frame[0, 0]), -1)
    cv2.circle(frame, (x + 8, y + 8), 7, (glint, glint, glint), -1)
    return frame


def _die_showing_1(frame: np.ndarray, angle: float = 0.0, pip: int = 255) -> np.ndarray:
    corners = cv2.boxPoints(((100.0, 100.0), (50.0, 50.0), angle)).astype(np.int32)
    cv2.fillPoly(frame, [corners], (40, 40, 200))
    cv2.circle(frame, (100, 100), 7, (pip, pip, pip), -1)
    return frame


def test_the_bead_read_as_1_on_the_twin_is_flagged_and_was_ok_without_the_rule(nets):
    frame = cv2.imread(str(TWIN / "t12108-throw1.jpg"))
    for expected in ((1,), None):
        before = read_pip_dice(frame, replace(AnyDieParams(), one_circle=0.0), expected=expected)
        assert before.status == "ok" and [(d.pips, d.count.status, d.box) for d in before.dice] == [(1, "ok", BEAD)]
        after = read_pip_dice(frame, AnyDieParams(), expected=expected)
        assert after.status == "uncertain"
        (die,) = after.dice
        assert die.box == BEAD and die.pips == 1 and "whose outline is round" in die.count.reasons[0]


def test_the_bead_is_round_though_its_window_leaves_the_frame():
    frame = cv2.imread(str(TWIN / "t12108-throw1.jpg"))
    fill, cut = one_shape(frame, BEAD)
    assert fill > CIRCLE and not cut and glints(frame, BEAD)


@pytest.mark.parametrize("angle", [0, 20, 45])
def test_a_die_showing_1_is_no_bead_even_with_a_glint_for_its_pip(angle):
    frame = _die_showing_1(_floor(), angle)
    fill, cut = one_shape(frame, (70, 70, 60, 60))
    assert fill < CIRCLE and not cut
    assert one_reason(frame, (70, 70, 60, 60), ROUND, CIRCLE) is None


def test_a_round_thing_is_flagged_only_with_a_glint_for_its_pip():
    fill, _ = one_shape(_bead(_floor()), (70, 70, 60, 60))
    assert CIRCLE < fill < DISK
    assert "round" in one_reason(_bead(_floor()), (70, 70, 60, 60), ROUND, CIRCLE)
    assert one_reason(_bead(_floor(), glint=235), (70, 70, 60, 60), ROUND, CIRCLE) is None   # a painted pip: not told
    assert one_reason(_bead(_floor()), (70, 70, 60, 60), ROUND, 0.0) is None                 # off


def test_a_1_cut_by_the_frames_edge_is_flagged_a_whole_one_near_it_is_not():
    cut = _die_showing_1(_floor())[:, 85:]                  # the die's left side beyond the frame's edge
    assert "cut by the frame's edge" in one_reason(cut, (0, 70, 45, 60), ROUND, CIRCLE)
    near = _die_showing_1(_floor())[:, 65:]                 # whole, 10 px from the edge: its window leaves the frame
    assert one_reason(near, (5, 70, 60, 60), ROUND, CIRCLE) is None


def test_a_1_whose_face_is_the_floors_colour_or_touching_something_is_not_told():
    pale = _floor()
    cv2.circle(pale, (100, 100), 7, (255, 255, 255), -1)   # only the pip stands out
    assert one_shape(pale, (75, 75, 50, 50)) is None
    touching = _bead(_floor())
    touching[60:140, 124:200] = (170, 170, 170)             # the bead against a wall
    assert one_shape(touching, (70, 70, 60, 60)) is None


def test_the_check_flags_an_ok_1_never_drops_it_nor_looks_at_other_numbers():
    frame = _bead(_floor())
    one = PipDie((70, 70, 60, 60), PipCount(1, (), 0.95, "ok", ()))
    flagged = _face_ends(frame, one, AnyDieParams())
    assert flagged.pips == 1 and flagged.count.status == "uncertain"
    two = PipDie((70, 70, 60, 60), PipCount(2, (), 0.95, "ok", ()))
    assert _face_ends(frame, two, AnyDieParams()) is two


def test_a_disk_is_flagged_without_a_glint():
    frame = _floor()
    cv2.circle(frame, (100, 100), 6, (200, 200, 200), -1)    # a small bead's highlight, not at the clip (9152 throw 1)
    assert one_shape(frame, (92, 92, 16, 16))[0] >= DISK and not glints(frame, (92, 92, 16, 16))
    assert "round" in one_reason(frame, (92, 92, 16, 16), ROUND, CIRCLE)


def test_the_small_bead_read_as_1_on_the_twin_is_flagged_and_was_ok_without_the_rule(nets):
    frame = cv2.imread(str(TWIN / "t9152-throw1.jpg"))
    before = read_pip_dice(frame, replace(AnyDieParams(), one_circle=0.0))
    assert before.status == "ok" and [(d.pips, d.count.status, d.box) for d in before.dice] == [(1, "ok", SMALL_BEAD)]
    after = read_pip_dice(frame, AnyDieParams())
    assert after.status == "uncertain" and "whose outline is round" in after.dice[0].count.reasons[0]

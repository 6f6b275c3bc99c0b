"""Round 34 (issue 24): the box's walls found in the empty box's picture calibration keeps (``box_walls``), checked
against the twin's true floor outline (the tray's floor corners through the twin's camera, ``TwinTable.floor_mask``'s
polygon): never more than :data:`OUTWARD` die sides outside it (a wall found too far out would leave a die leaning on
it unsupported), and no more than :data:`INWARD` inside."""

import cv2
import numpy as np
import pytest

from rig.vision.box_walls import floor_outline, inside_by
from rig.vision.card_empty import EmptyBox

from .dice_twin import HERE

#: the twin's floor corners (bottom left, bottom right, top right, top left; frame px, 640 x 480) and die side (px)
TRUE_FLOORS = {
    "t11501": ([(29.4, 412.8), (534.4, 407.3), (537.2, 44.3), (25.5, 39.2)], 35.4),
    "t11607": ([(39.7, 416.2), (529.8, 412.8), (531.2, 45.0), (37.7, 41.7)], 39.7),
    "t11608": ([(98.6, 426.9), (607.8, 429.4), (605.7, 79.9), (100.2, 82.5)], 35.5),
    "t11702": ([(61.5, 467.7), (553.7, 466.5), (550.0, 117.2), (65.6, 116.1)], 40.6),
    "t11710": ([(149.1, 453.2), (647.4, 457.7), (643.9, 71.6), (150.9, 76.3)], 39.2),
}
OUTWARD = 0.6
INWARD = 2.5


def _found(table: str) -> np.ndarray:
    frame = cv2.imread(str(HERE / f"{table}-empty.webp"))
    lab = EmptyBox.of(frame).lab
    return floor_outline(lab) * np.float32(frame.shape[1] / lab.shape[1])


@pytest.mark.parametrize("table", sorted(TRUE_FLOORS))
def test_each_side_found_lies_near_the_true_wall_and_never_far_outside_it(table):
    corners, side = TRUE_FLOORS[table]
    found = _found(table)  # top left, top right, bottom right, bottom left
    true = np.float32(corners)[[3, 2, 1, 0]]
    for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
        middle = (found[a] + found[b]) / 2
        inside = inside_by(true, *middle) / side  # the found side's middle, in the true floor
        assert -OUTWARD <= inside <= INWARD, (table, a, b, inside)


def test_a_die_in_the_middle_lies_far_inside_and_one_off_the_floor_outside():
    found = _found("t11501")
    assert inside_by(found, 280, 225) > 4 * 35.4
    assert inside_by(found, 5, 225) < 0


def test_the_outline_is_a_pure_function_of_the_picture():
    lab = EmptyBox.of(cv2.imread(str(HERE / "t11702-empty.webp"))).lab
    before = lab.copy()
    assert np.array_equal(floor_outline(lab), floor_outline(lab))
    assert np.array_equal(lab, before)

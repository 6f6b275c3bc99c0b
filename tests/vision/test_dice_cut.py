"""A flat die's top cut by the frame's edge is read flat, not cocked (rig.vision.dice_cut; issue 24, round 24)."""

import cv2
import numpy as np

from rig.vision.dice_cut import BEYOND, completing_strips, cut_by_frame_edge, share_beyond

SIDE = 20.0
FRAME = (120, 160)  # h, w


def _hull(x: int, y: int, w: int, h: int, angle: float = 0.0) -> np.ndarray:
    """The hull of a filled w x h rectangle with its top-left corner at (x, y), turned ``angle`` degrees."""
    box = cv2.boxPoints(((x + w / 2, y + h / 2), (w, h), angle))
    return cv2.convexHull(np.round(box).astype(np.int32))


def test_a_top_cut_by_the_bottom_edge_is_flat():
    # what is left of a flat die's top: a whole side along the bottom edge, 11 px of 20 across (10309 turn 1)
    hull = _hull(0, 0, 20, 11)
    assert cut_by_frame_edge(hull, 70, 109, SIDE, FRAME, "yellow+pink")


def test_a_top_cut_by_the_left_edge_at_a_slant_is_flat():
    hull = _hull(0, 0, 12, 20, 8.0)
    assert cut_by_frame_edge(hull, 1, 50, SIDE, FRAME, "blue")  # (its pixels from x = 0 on)


def test_the_same_part_inside_the_frame_stays_cocked():
    # a leaning die's foreshortened top looks the same: nothing explains the missing part there
    assert not cut_by_frame_edge(_hull(0, 0, 20, 11), 70, 50, SIDE, FRAME, "yellow+pink")


def test_a_blank_read_at_the_edge_stays_cocked():
    # its frog may lie beyond the edge: a blank read is not known right
    assert not cut_by_frame_edge(_hull(0, 0, 20, 11), 70, 109, SIDE, FRAME, "blank")


def test_too_little_left_or_not_a_whole_side_stays_cocked():
    assert not cut_by_frame_edge(_hull(0, 0, 20, 8), 70, 112, SIDE, FRAME, "pink")  # under half a top across
    assert not cut_by_frame_edge(_hull(0, 0, 14, 11), 70, 109, SIDE, FRAME, "pink")  # not a whole side along it
    assert not cut_by_frame_edge(_hull(0, 0, 30, 12), 70, 108, SIDE, FRAME, "pink")  # longer than a die


def test_a_part_running_across_the_edge_stays_cocked():
    # the narrow side at the edge: the strip that would square it lies along the edge, inside the frame
    assert not cut_by_frame_edge(_hull(0, 0, 11, 20), 70, 100, SIDE, FRAME, "pink")


def test_a_ragged_part_stays_cocked():
    tri = cv2.convexHull(np.array([[0, 0], [20, 0], [10, 11]], np.int32))
    assert not cut_by_frame_edge(tri, 70, 109, SIDE, FRAME, "pink")


def test_completing_strips_square_the_part():
    long_, short, strips = completing_strips(_hull(10, 10, 20, 12).reshape(-1, 2).astype(np.float32))
    assert round(long_) == 20 and round(short) == 12
    assert all(abs(cv2.contourArea(s) - 20 * 8) < 25 for s in strips)
    ys = sorted(float(s[:, 1].mean()) for s in strips)
    assert ys[0] < 10 < 22 < ys[1]  # one above the part, one below it


def test_completing_strips_to_a_die_s_side_at_least_a_pixel_deep():
    """Round 26: ``to_side`` and ``least`` (``dice_shade_cut.strip_ratio``'s strips: a square of the die's side when
    the part is shorter, 1 px at least); each strip's first two corners are the rectangle's long side."""
    hull = _hull(10, 10, 20, 12, 30.0).reshape(-1, 2).astype(np.float32)
    long_, short, strips = completing_strips(hull, to_side=26.0)
    assert all(abs(cv2.contourArea(s) - long_ * (26.0 - short)) < 1e-3 for s in strips)
    lit = np.array([*strips[0][:2], *strips[1][1::-1]])  # the strips' inner edges: the part's rectangle
    assert abs(cv2.contourArea(lit) - long_ * short) < 1e-3
    long_, short, strips = completing_strips(_hull(10, 10, 20, 20).reshape(-1, 2).astype(np.float32), least=1.0)
    assert long_ == short and all(abs(cv2.contourArea(s) - long_) < 1e-3 for s in strips)  # a square: 1 px deep
    assert all(cv2.contourArea(s) == 0 for s in completing_strips(_hull(10, 10, 20, 20).reshape(-1, 2))[2])


def test_share_beyond():
    strip = np.array([[0, 110], [20, 110], [20, 130], [0, 130]], np.float32)
    assert abs(share_beyond(strip, FRAME) - 0.5) < 1e-6
    assert share_beyond(strip, (200, 200)) == 0.0 < BEYOND

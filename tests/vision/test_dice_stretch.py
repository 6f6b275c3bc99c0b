"""A flat die far out whose part perspective stretches towards the centre is not called cocked (issue 24, round 23)."""

import math

import cv2
import numpy as np

from rig.vision.dice_stretch import perspective_stretch

SHAPE = (240, 320)  # working frame (h, w)
SIDE = 20.0
CUT = 0.84


def _hull(cx, cy, w_across, l_along, turn_deg, radial=True):
    """The convex hull of a rectangle ``l_along`` x ``w_across`` (die sides) centred at (cx, cy), its long side along
    the radial direction (or turned ``turn_deg`` from it)."""
    h, w = SHAPE
    base = math.atan2(cy + 0.5 - h / 2, cx + 0.5 - w / 2) + math.radians(turn_deg if not radial else 0.0)
    rect = ((cx, cy), (l_along * SIDE, w_across * SIDE), math.degrees(base))
    return cv2.convexHull(cv2.boxPoints(rect).astype(np.float32))


def _die_with_side_face(cx, cy, stretch, spin_deg):
    """A flat die's top (a square spun ``spin_deg``) with a side face ``stretch`` die sides deep swept towards the
    centre: the Minkowski sum of the square and a radial segment, as perspective shows it."""
    h, w = SHAPE
    u = np.array([w / 2 - cx, h / 2 - cy])
    u /= np.linalg.norm(u)
    square = cv2.boxPoints(((cx, cy), (SIDE, SIDE), spin_deg))
    pts = np.vstack([square, square + u * stretch * SIDE]).astype(np.float32)
    return cv2.convexHull(pts)


def test_a_flat_die_far_out_with_its_side_face_counted_in_is_flat():
    cx, cy = 60.0, 200.0  # about 0.4 frame widths out (twin 10006 turn 0's die at 0.32: 1.2 x 1.0 die sides)
    called = 0
    for spin in range(0, 90, 10):
        hull = _die_with_side_face(cx, cy, 0.25, spin)
        (_, _), (bw, bh), _ = cv2.minAreaRect(hull)
        called += min(bw, bh) / max(bw, bh) < CUT  # the aspect test alone calls it cocked (square to the radius)
        assert perspective_stretch(hull, cx, cy, SIDE, SHAPE, 1.25, CUT), spin
    assert called


def test_a_foreshortened_top_stays_cocked():
    cx, cy = 60.0, 200.0
    narrow = _hull(cx, cy, 0.78, 1.0, 0)  # a leaning die's top: narrower across, no longer along
    assert not perspective_stretch(narrow, cx, cy, SIDE, SHAPE, 0.78, CUT)
    turned = _hull(cx, cy, 1.0, 1.25, 45, radial=False)  # long at 45 degrees to the radial direction
    assert not perspective_stretch(turned, cx, cy, SIDE, SHAPE, 1.25, CUT)


def test_a_part_that_did_not_grow_stays_cocked():
    cx, cy = 60.0, 200.0
    hull = _die_with_side_face(cx, cy, 0.25, 0)
    assert not perspective_stretch(hull, cx, cy, SIDE, SHAPE, 1.0, CUT)  # the area of one top: not a side face


def test_more_stretch_than_perspective_shows_there_stays_cocked():
    cx, cy = 150.0, 140.0  # near the centre: 0.07 frame widths out, at most 0.07 die sides of side face
    hull = _die_with_side_face(cx, cy, 0.25, 0)
    assert not perspective_stretch(hull, cx, cy, SIDE, SHAPE, 1.25, CUT)
    assert not perspective_stretch(hull, 159.5, 119.5, SIDE, SHAPE, 1.25, CUT)  # at the centre: no direction

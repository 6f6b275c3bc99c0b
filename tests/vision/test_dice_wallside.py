"""A die leaning on a wall with its top to the lens: its die-body side face beyond the top's outer edge (issue 24,
round 22): twin 10504 turn 3's geometry, a die by the near wall, its face in the wall's shade band."""

import cv2
import numpy as np

from rig.vision.dice import DieObservation
from rig.vision.dice_wallside import (
    FACE,
    FAINT_FACE,
    LIGHTER,
    ENDS,
    band_ends,
    band_lift,
    body_share,
    empty_chroma,
    empty_light,
    light_change,
    outward_sides,
    wall_side_faces,
)
from rig.vision.light import Light

SIDE = 37
FLOOR = (90, 118, 120)  # olive-gray floor, B, G, R
WALL_SHADE = (34, 38, 40)  # the near wall's shade band, grey: as dark in the empty box as in the frame
BODY = (160, 60, 120)  # violet die body, lit
SHADED_BODY = (62, 22, 48)  # the die body turned from the lamp: a leaning die's side face
BAND_TOP = 420  # the wall's shade band from here to the frame's bottom


def _lab(bgr):
    return cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2Lab)[0, 0].astype(np.float32)


BODY_AB = np.array([_lab(BODY)[1:], _lab(SHADED_BODY)[1:]], np.float32)


def _box():
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[:] = FLOOR
    frame[BAND_TOP:] = WALL_SHADE
    return frame


def _die(frame, x, y, face_below=False, face_above=False, shadow_below=False):
    """A die top at (x, y) (top-left) with, beyond its lower (outer) edge, its side face or its own shadow, and
    above (the edge towards the centre) the side face perspective shows of a flat die."""
    if face_below:
        frame[y + SIDE + 1 : y + SIDE + 14, x : x + SIDE] = SHADED_BODY
    if shadow_below:
        frame[y + SIDE + 1 : y + SIDE + 14, x : x + SIDE] = (12, 14, 15)
    if face_above:
        frame[y - 12 : y, x : x + SIDE] = SHADED_BODY
    frame[y : y + SIDE, x : x + SIDE] = BODY
    return DieObservation("blank", x + SIDE / 2, y + SIDE / 2, (x, y, SIDE, SIDE), 1.0)


def _empty_lab():
    return cv2.cvtColor(_box(), cv2.COLOR_BGR2Lab)


def test_a_die_leaning_on_the_near_wall_shows_die_body_beyond_its_outer_edge():
    frame = _box()
    dice = [_die(frame, 200, 150), _die(frame, 420, 200), _die(frame, 358, 382, face_below=True)]
    assert outward_sides(dice[2].x, dice[2].y, frame.shape[:2]) == ["B"]
    empty_ab = empty_chroma(_empty_lab(), frame.shape[:2])
    assert body_share(frame, empty_ab, dice[2].box, "B", SIDE, BODY_AB) > 0.9
    assert wall_side_faces(frame, _empty_lab(), dice, SIDE, BODY_AB) == [dice[2]]


def test_a_flat_die_there_shows_its_shadow_outward_and_its_side_face_inward():
    frame = _box()
    dice = [_die(frame, 200, 150), _die(frame, 358, 382, face_above=True, shadow_below=True)]
    empty_ab = empty_chroma(_empty_lab(), frame.shape[:2])
    assert body_share(frame, empty_ab, dice[1].box, "B", SIDE, BODY_AB) < 0.1  # its shadow: grey, not violet
    assert wall_side_faces(frame, _empty_lab(), dice, SIDE, BODY_AB) == []


def test_a_die_just_beyond_the_outer_edge_is_no_side_face():
    frame = _box()
    dice = [_die(frame, 358, 330), _die(frame, 358, 372)]  # the lower die touches the upper one's outer edge
    assert wall_side_faces(frame, _empty_lab(), dice, SIDE, BODY_AB) == []


def test_a_die_read_cocked_already_is_not_judged_again():
    frame = _box()
    die = _die(frame, 358, 382, face_below=True)
    cocked = DieObservation(die.face, die.x, die.y, die.box, die.confidence, cocked=True)
    assert wall_side_faces(frame, _empty_lab(), [cocked], SIDE, BODY_AB) == []


def test_the_empty_boxs_colour_is_made_once_a_picture_and_size():
    lab = np.full((96, 128, 3), 128, np.uint8)
    first = empty_chroma(lab, (480, 640))
    assert empty_chroma(lab, (480, 640)) is first and first.shape == (480, 640, 2)


def test_a_box_round_part_of_a_top_or_a_flat_dies_walls_is_not_judged():
    """A wall's shade cutting a flat die's top in two (twin 10106 turn 1: a box 0.45 die sides tall) shows the rest of
    its top beyond the box; a flat die's box holds its walls too (1.14 die sides)."""
    frame = _box()
    die = _die(frame, 358, 382, face_below=True)
    for box in ((358, 382, SIDE, 17), (358, 382, 42, 42)):
        part = DieObservation(die.face, die.x, die.y, box, die.confidence)
        assert wall_side_faces(frame, _empty_lab(), [part], SIDE, BODY_AB) == []


def _faint_band(colour):
    """Twin 10707 turn 3's geometry (issue 24, round 24): a die by the wall whose side face beyond the outer edge
    fills only 4 px of the 11 px strip (a die-body share between FAINT_FACE and FACE), in the wall's dark shade."""
    frame = _box()
    dice = [_die(frame, 200, 150), _die(frame, 358, 382)]
    frame[382 + SIDE + 1 : 382 + SIDE + 5, 358 : 358 + SIDE] = colour
    return frame, dice


def test_a_faint_lit_band_in_the_walls_shade_is_a_leaning_dies_side_face():
    frame, dice = _faint_band(BODY)  # the face turned up by the lean, lit, where the empty box shows the shade band
    share = body_share(frame, empty_chroma(_empty_lab(), frame.shape[:2]), dice[1].box, "B", SIDE, BODY_AB)
    assert FAINT_FACE <= share < FACE
    assert band_lift(frame, empty_light(_empty_lab(), frame.shape[:2]), dice[1].box, "B", SIDE) >= LIGHTER
    assert band_ends(frame, empty_chroma(_empty_lab(), frame.shape[:2]), dice[1].box, "B", SIDE, BODY_AB) >= ENDS
    assert wall_side_faces(frame, _empty_lab(), dice, SIDE, BODY_AB) == [dice[1]]


def test_a_faint_band_no_lighter_than_the_empty_box_is_not():
    """What a flat die shows there (colour bled onto the floor, its shadow, a rim of its top the box left out) is as
    dark as the empty box or darker: twin 10001, 10301, 10602 turn 0/2."""
    frame, dice = _faint_band(SHADED_BODY)
    share = body_share(frame, empty_chroma(_empty_lab(), frame.shape[:2]), dice[1].box, "B", SIDE, BODY_AB)
    assert FAINT_FACE <= share < FACE
    assert band_lift(frame, empty_light(_empty_lab(), frame.shape[:2]), dice[1].box, "B", SIDE) < LIGHTER
    assert wall_side_faces(frame, _empty_lab(), dice, SIDE, BODY_AB) == []


def test_a_lit_corner_of_a_die_turned_in_the_frame_is_not():
    """A flat die turned 45 degrees in the frame (2D 45002): its axis-aligned box, round its print, cuts the top's
    corners off, and a corner pokes out lit beyond the box's side in the middle of it, not along it."""
    frame, dice = _faint_band(FLOOR)
    frame[382 + SIDE + 1 : 382 + SIDE + 12, 358 : 358 + SIDE] = WALL_SHADE
    for r in range(11):
        half = 8.5 - 0.4 * r
        frame[382 + SIDE + 1 + r, round(358 + 18 - half) : round(358 + 18 + half) + 1] = BODY
    empty_ab = empty_chroma(_empty_lab(), frame.shape[:2])
    assert FAINT_FACE <= body_share(frame, empty_ab, dice[1].box, "B", SIDE, BODY_AB) < FACE
    assert band_lift(frame, empty_light(_empty_lab(), frame.shape[:2]), dice[1].box, "B", SIDE) >= LIGHTER
    assert band_ends(frame, empty_ab, dice[1].box, "B", SIDE, BODY_AB) < ENDS
    assert wall_side_faces(frame, _empty_lab(), dice, SIDE, BODY_AB) == []


WARMER = (0.85, 1.0, 1.1)  # the floor's B, G, R change in 700 K warmer light (twin 10804: 0.85, 1.0, 1.1)


def _dim_face_on_the_floor():
    """Twin 10804 turn 3's kind (round 25): a die leaning towards the lens on the open floor, its side face beyond the
    outer edge in its own shade, a dim greyish violet on the lit floor; the frame in 700 K warmer light."""
    frame = _box()
    dice = [_die(frame, 200, 150), _die(frame, 300, 330)]
    frame[330 + SIDE + 1 : 330 + SIDE + 14, 300 : 300 + SIDE] = (66, 48, 60)
    return cv2.multiply(frame, WARMER + (0.0,), dtype=cv2.CV_8U), dice


def test_a_side_face_in_changed_light_is_judged_with_the_change_taken_out():
    frame, dice = _dim_face_on_the_floor()
    assert outward_sides(dice[1].x, dice[1].y, frame.shape[:2]) == ["B"]
    empty_ab = empty_chroma(_empty_lab(), frame.shape[:2])
    assert body_share(frame, empty_ab, dice[1].box, "B", SIDE, BODY_AB) < FAINT_FACE  # warmed, nearer the floor's
    assert body_share(frame, empty_ab, dice[1].box, "B", SIDE, BODY_AB, WARMER) >= FACE
    assert wall_side_faces(frame, _empty_lab(), dice, SIDE, BODY_AB) == []
    assert wall_side_faces(frame, _empty_lab(), dice, SIDE, BODY_AB, WARMER) == [dice[1]]


def test_the_light_change_is_taken_out_only_where_measured_trusted_and_beyond_the_cameras_wobble():
    assert light_change(Light(0.98, 1.3, channels=WARMER)) == WARMER
    assert light_change(None) is None
    assert light_change(Light(1.0, 1.0, channels=(1.02, 1.0, 0.97))) is None  # within the wobble: read as calibrated
    assert light_change(Light(0.98, 1.3, floor_seen=0.1, channels=WARMER)) is None  # the floor under a hand


def test_a_side_face_the_frame_shows_is_kept_when_the_change_taken_out_turns_it_fainter():
    """Propped 5109 turn 0 at lamp x1.2 (round 25): the change taken out leaves the strip under the thresholds; the
    frame as it is shows the face, and a flag is only ever added."""
    warm, dice = _dim_face_on_the_floor()
    frame = cv2.multiply(warm, tuple(1.0 / c for c in WARMER) + (0.0,), dtype=cv2.CV_8U)  # the face as calibrated
    cooler = tuple(1.0 / c for c in WARMER)  # a light change measured the other way: taken out, it warms the strip
    empty_ab = empty_chroma(_empty_lab(), frame.shape[:2])
    assert body_share(frame, empty_ab, dice[1].box, "B", SIDE, BODY_AB) >= FACE
    assert body_share(frame, empty_ab, dice[1].box, "B", SIDE, BODY_AB, cooler) < FAINT_FACE
    assert wall_side_faces(frame, _empty_lab(), dice, SIDE, BODY_AB, cooler) == [dice[1]]

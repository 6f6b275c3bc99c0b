"""Issue 25, round 37: a black die's body told from its shadow (:func:`rig.vision.diebody.near_colours` holds a dark
grey's lightness closer)."""

from pathlib import Path

import cv2
import numpy as np

from rig.vision import diebody
from rig.vision.anydie import AnyDieParams
from rig.vision.dicecandidate import Candidate
from rig.vision.dicenet import crop_die

from .pip_stubs import SureReader, crop_box, probs

TWIN = Path(__file__).parent / "pip_twin"
FELT, SHADOW, TOP, PIP = (95, 90, 100), (6, 6, 6), (26, 26, 26), (225, 225, 225)


def _black_die(pip: int = 8, side: int = 90) -> np.ndarray:
    """A 400 x 300 felt with a black die's top (``side`` px, turned 20 degrees) at (200, 150), showing 3 (pips of
    radius ``pip``), its near-black shadow cast beside it to the lower left (as the twin's lamps cast them)."""
    frame = np.full((300, 400, 3), FELT, np.uint8)
    cv2.fillConvexPoly(frame, cv2.boxPoints(((165, 185), (side + 10, side + 10), 20)).astype(np.int32), SHADOW)
    cv2.fillConvexPoly(frame, cv2.boxPoints(((200, 150), (side, side), 20)).astype(np.int32), TOP)
    for t in (-1, 0, 1):
        cv2.circle(frame, (200 + round(0.28 * side) * t, 150 + round(0.28 * side) * t), pip, PIP, -1)
    return frame


def _is_the_top(body, side: int = 90) -> bool:
    turned = side * (np.cos(np.radians(20)) + np.sin(np.radians(20)))  # its upright box
    return body is not None and abs(body[0] - 200) < 6 and abs(body[1] - 150) < 6 and abs(body[2] - turned) < 0.1 * turned


def test_a_black_dies_top_is_its_body_not_its_shadow():
    assert _is_the_top(diebody.body_box(_black_die(), 175, 125, 40))


def test_a_grey_or_coloured_body_keeps_the_shipped_distance():
    lab = np.array([[[26 + 15, 128, 128], [26 + 15, 128 + 20, 128]]], np.float32)
    assert diebody.near_colours(lab, [np.array([26.0, 128, 128])]).tolist() == [[0, 0]]  # dark grey: L held to 10.4
    assert diebody.near_colours(lab + [100, 0, 0], [np.array([126.0, 128, 128])]).tolist() == [[1, 1]]  # light: 22


def test_an_unsure_box_on_part_of_a_black_die_takes_its_bodys_count():
    p = AnyDieParams()
    corner = Candidate(175, 125, 40, 0.5, probs(1, 0.8))
    reader = SureReader(3, 0.95)
    [c] = diebody.bodies_grown([corner], _black_die(), reader, crop_box, p)
    assert c.grown and c.pips == 3 and (c.x, c.y, c.side) == (175, 125, 40)
    assert _is_the_top(reader.crops[0])


def test_the_black_two_boxed_on_its_pip_reads_two_in_its_body(nets):
    """Pip twin 12502 throw 0 (seen; 1920x1080, 130 px black dice on dark felt, their shadows near black), cut to
    420 x 480 px as JPEG q90: the 2 at (181, 276) was found as a 44 px box on its pip at (222, 306), read 1
    (0.49 in that box); main saw no body there (its shadow within the body's Lab distance)."""
    frame = cv2.imread(str(TWIN / "t12502-throw0-die.jpg"))
    body = diebody.body_box(frame, 222, 306, 44, diebody.BODY_REREAD_ELONGATION)
    assert body is not None and abs(body[0] - 181) < 15 and abs(body[1] - 276) < 15 and 130 <= body[2] <= 160
    read = nets.read([crop_die(frame, *body, size=nets.crop)])[0]
    assert int(np.argmax(read)) == 2 and read[2] >= diebody.BODY_SURE

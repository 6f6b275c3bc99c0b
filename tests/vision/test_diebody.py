"""Issue 25, round 35: a box on part of a big die (a pip or two of it) is read again in the box of the die's body, the
patch of its colour around it (:mod:`rig.vision.diebody`)."""

from pathlib import Path

from dataclasses import replace

import cv2
import numpy as np

from rig.vision import diebody
from rig.vision.anydie import AnyDieParams, read_pip_dice
from rig.vision.dicecandidate import Candidate

from .pip_stubs import SureReader, crop_box, probs

TWIN = Path(__file__).parent / "pip_twin"
FLOOR, BODY, PIP = (40, 70, 120), (235, 235, 235), (20, 20, 20)


def _table(shape: str = "square") -> np.ndarray:
    """A 400 x 300 floor with a white thing at (200, 150): a 90 px square die turned 20 degrees showing 3, a disk or a
    bar of about its area."""
    frame = np.full((300, 400, 3), FLOOR, np.uint8)
    if shape == "square":
        corners = cv2.boxPoints(((200, 150), (90, 90), 20)).astype(np.int32)
        cv2.fillConvexPoly(frame, corners, BODY)
        for t in (-1, 0, 1):
            cv2.circle(frame, (200 + 25 * t, 150 + 25 * t), 8, PIP, -1)
    elif shape == "disk":
        cv2.circle(frame, (200, 150), 51, BODY, -1)
    else:
        cv2.rectangle(frame, (110, 125), (290, 175), BODY, -1)
    return frame


def test_the_body_of_a_die_seen_from_a_box_on_its_corner_pip():
    x, y, side = diebody.body_box(_table(), 175, 125, 40)
    turned = 90 * (np.cos(np.radians(20)) + np.sin(np.radians(20)))  # its upright box: 115 px
    assert abs(x - 200) < 6 and abs(y - 150) < 6 and abs(side - turned) < 0.1 * turned


def test_no_body_for_a_disk_a_bar_or_a_patch_the_size_of_the_floor():
    assert diebody.body_box(_table("disk"), 200, 150, 40) is None
    assert diebody.body_box(_table("bar"), 200, 150, 40) is None
    assert diebody.body_box(np.full((300, 400, 3), FLOOR, np.uint8), 200, 150, 40) is None


def test_an_unsure_box_on_part_of_a_die_takes_its_bodys_sure_other_count():
    p = AnyDieParams()
    corner = Candidate(175, 125, 40, 0.5, probs(1, 0.8))
    reader = SureReader(3, 0.95)
    [c] = diebody.bodies_grown([corner], _table(), reader, crop_box, p)
    assert c.grown and c.pips == 3 and (c.x, c.y, c.side) == (175, 125, 40)
    assert abs(reader.crops[0][0] - 200) < 6 and reader.crops[0][2] > 100


def test_a_sure_die_a_small_box_a_box_on_the_whole_die_or_an_unsure_body_change_nothing():
    p, frame = AnyDieParams(), _table()
    cases = [(Candidate(175, 125, 40, 0.8, probs(1, 0.95)), SureReader(3, 0.95)),  # sure already
             (Candidate(175, 125, 30, 0.5, probs(1, 0.8)), SureReader(3, 0.95)),  # under BODY_FROM px
             (Candidate(200, 150, 100, 0.5, probs(2, 0.8)), SureReader(3, 0.95)),  # its box is its body's
             (Candidate(175, 125, 40, 0.5, probs(1, 0.8)), SureReader(3, 0.85)),  # the body's reading unsure
             (Candidate(175, 125, 40, 0.5, probs(1, 0.8)), SureReader(0, 0.95))]  # the body read as no die
    for cand, reader in cases:
        [c] = diebody.bodies_grown([cand], frame, reader, crop_box, p)
        assert not c.grown and c.pips == cand.pips


def _aslant() -> np.ndarray:
    """A 90 px white top showing 3 above its front face, 25 px of a shaded white: one patch 1.28 times taller than
    wide (the tuning photo ``two_29``'s 2: 1.26)."""
    frame = np.full((300, 400, 3), FLOOR, np.uint8)
    cv2.rectangle(frame, (155, 90), (244, 179), BODY, -1)
    cv2.rectangle(frame, (155, 180), (244, 204), (215, 215, 215), -1)
    for t in (-1, 0, 1):
        cv2.circle(frame, (200 + 25 * t, 135 + 25 * t), 8, PIP, -1)
    return frame


def test_a_box_on_a_die_whose_patch_takes_its_front_face_is_not_read_again():
    corner = Candidate(175, 110, 40, 0.5, probs(1, 0.8))
    reader = SureReader(4, 0.99)
    [c] = diebody.bodies_grown([corner], _aslant(), reader, crop_box, AnyDieParams())
    assert not c.grown and c.pips == 1 and not reader.crops
    assert diebody.body_box(_aslant(), 175, 110, 40) is not None  # square enough to be a die found by its colour


def test_the_white_die_boxed_on_its_pip_reads_two(nets, monkeypatch):
    """Pip twin 12307 throw 1 (seen; 1280x960 as JPEG q75, six 92 px white dice on knotted wood): the 2 at (597, 497)
    was found as a 52 px box on one of its pips, read 1."""
    frame = cv2.imread(str(TWIN / "t12307-throw1.jpg"))

    def near(reading):
        return [d for d in reading.dice if abs(d.centre[0] - 597) < 46 and abs(d.centre[1] - 497) < 46]

    [die] = near(read_pip_dice(frame, AnyDieParams(), expected=(6,)))
    assert die.pips == 2 and die.count.status == "uncertain"
    assert [d.pips for d in near(read_pip_dice(frame, replace(AnyDieParams(), body_grow=0.0), expected=(6,)))] == [1]

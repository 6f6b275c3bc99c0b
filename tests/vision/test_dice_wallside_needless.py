"""Flat dice on the 2D unseen tables called cocked by the wall-side check (issue 24, round 28): a strip the frame's
edge cuts to a few rows (its top's blurred rim beyond the read box) and a band lifted by a brighter light alone are no
leaning die's side face. A leaning die's face, whole in the frame, is still found in either light."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rig.bench.tables import DRIFTS
from rig.vision import dice, dice_wallside
from rig.vision.card_empty import EmptyBox, remember
from rig.vision.dice import DieObservation
from rig.vision.dice_wallside import REASON, cut_by_frame, wall_side_faces

from tests.vision.conftest import calibrated_unseen


def _main_side_face(monkeypatch):
    """The check as ``main`` (5c4cadc) made it: strips judged however little of them the frame shows, the band's
    lift in each look's own light."""
    side_face = dice_wallside._side_face
    monkeypatch.setattr(dice_wallside, "WHOLE_STRIP", 0.0)
    monkeypatch.setattr(
        dice_wallside, "_side_face", lambda looks, el, box, n, ch, change=None: side_face(looks, el, box, n, ch, ch)
    )


def _read(seed, k, light):
    table, profile = calibrated_unseen(seed)
    remember(profile, EmptyBox.of(table.ritual()[1]))  # kept beside the profile, as the bench does
    frame, truth = table.turn(k, DRIFTS[light])
    return dice.read_dice(frame, profile), truth


# 2D 46010 turn 17 (same light): the pink+blue die at (398, 434), 61 px, lies by the frame's bottom edge; 3 of its
# outward strip's 20 rows are in the frame, its own top's violet rim. 2D 44006 turn 15 at exposure x1.2: the pink+blue
# die at (712, 588), its outward band 1.35 times the empty box's lightness as the brighter frame shows it.
CASES = [(46010, 17, "same", (403, 442)), (44006, 15, "exp x1.2", (710, 588))]


@pytest.mark.parametrize(("seed", "turn", "light", "at"), CASES)
def test_a_flat_die_is_read_ok(seed, turn, light, at):
    reading, truth = _read(seed, turn, light)
    assert reading.status == "ok" and not reading.reasons
    assert reading.faces == sorted(d.face for d in truth)


@pytest.mark.parametrize(("seed", "turn", "light", "at"), CASES)
def test_as_main_checked_it_the_flat_die_is_called_cocked(seed, turn, light, at, monkeypatch):
    _main_side_face(monkeypatch)
    reading, _ = _read(seed, turn, light)
    assert [str(r) for r in reading.reasons] == [f"{REASON} at {at}"]


SIDE = 40
FLOOR = (90, 118, 120)
BODY = (160, 60, 120)
SHADED_BODY = (62, 22, 48)


def _frame(face_rows: int, bottom: int) -> tuple[np.ndarray, DieObservation]:
    """A 480 x 640 frame, a die top whose box ends at row ``bottom``, ``face_rows`` rows of shaded die body below it."""
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[:] = FLOOR
    x, y = 300, bottom - SIDE
    frame[y + SIDE : y + SIDE + face_rows, x : x + SIDE] = SHADED_BODY
    frame[y : y + SIDE, x : x + SIDE] = BODY
    return frame, DieObservation("blank", x + SIDE / 2, y + SIDE / 2, (x, y, SIDE, SIDE), 1.0)


def _body_ab():
    lab = cv2.cvtColor(np.uint8([[BODY, SHADED_BODY]]), cv2.COLOR_BGR2Lab)[0].astype(np.float32)
    return lab[:, 1:]


def _empty_lab():
    empty = np.zeros((480, 640, 3), np.uint8)
    empty[:] = FLOOR
    return cv2.cvtColor(empty, cv2.COLOR_BGR2Lab)


def test_a_strip_the_frame_cuts_to_a_few_rows_is_not_judged():
    frame, die = _frame(face_rows=3, bottom=477)  # the strip below: rows 478-479 of its 12
    assert cut_by_frame(die.box, "B", SIDE, frame.shape[:2])
    assert wall_side_faces(frame, _empty_lab(), [die], SIDE, _body_ab()) == []


def test_a_side_face_whole_in_the_frame_is_still_found():
    frame, die = _frame(face_rows=12, bottom=440)
    assert not cut_by_frame(die.box, "B", SIDE, frame.shape[:2])
    assert wall_side_faces(frame, _empty_lab(), [die], SIDE, _body_ab()) == [die]


def test_a_faint_band_lifted_only_by_a_brighter_light_is_no_side_face():
    """A flat die's faint violet rim below it (a third of the strip die body, a little lighter than the floor): in a
    frame 1.3 times brighter its band reads lifted 1.33 as shown, 1.04 with the light's change taken out."""
    frame, die = _frame(face_rows=0, bottom=440)
    rim = (130, 110, 150)  # nearer the die body's hue than the floor's
    frame[441:445, 300:340] = rim
    bright = (1.3, 1.3, 1.3)
    lit = cv2.multiply(frame, bright + (0.0,), dtype=cv2.CV_8U)
    empty_ab = dice_wallside.empty_chroma(_empty_lab(), frame.shape[:2])
    share = dice_wallside.body_share(lit, empty_ab, die.box, "B", SIDE, _body_ab())
    assert dice_wallside.FAINT_FACE <= share < dice_wallside.FACE
    assert wall_side_faces(lit, _empty_lab(), [die], SIDE, _body_ab(), bright) == []


def test_as_main_judged_the_band_the_brighter_light_lifts_it_to_a_side_face(monkeypatch):
    frame, die = _frame(face_rows=0, bottom=440)
    frame[441:445, 300:340] = (130, 110, 150)
    bright = (1.3, 1.3, 1.3)
    lit = cv2.multiply(frame, bright + (0.0,), dtype=cv2.CV_8U)
    _main_side_face(monkeypatch)
    assert wall_side_faces(lit, _empty_lab(), [die], SIDE, _body_ab(), bright) == [die]

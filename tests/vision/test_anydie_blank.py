"""A faint die the reader cannot count and on which the classical counter finds no pip is no die
(rig.vision.anydie.blank_faint, issue 25 round 31): the binder's punched holes of the coloured photos were found as
"faint die, pips unclear" in most frames and made them ask; dice beside them, and real faint dice, are kept."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from rig.vision import dicenet
from rig.vision.anydie import AnyDieParams, blank_faint, read_pip_dice
from rig.vision.dicecandidate import Candidate

#: the top right 400 x 400 px of the tuning photo IMG_20191209_095414.jpg (real-colour-dice): a punched hole at
#: (338, 44) and four labelled dice (a 1, a 5 and two 2s; their labels' centres below)
CROP = Path(__file__).parent / "pip_photos" / "IMG_20191209_095414-top-right.png"
LABELS = [(1, (187, 293)), (5, (116, 334)), (2, (237, 376)), (2, (75, 379))]
HOLE = (338, 44)


def _at(dice, x, y):
    return [(d.pips, d.count.status) for d in dice
            if d.box[0] <= x <= d.box[0] + d.box[2] and d.box[1] <= y <= d.box[1] + d.box[3]]


@pytest.mark.skipif(not dicenet.FIND_WEIGHTS.exists(), reason="no shipped nets")
def test_the_punched_hole_is_no_die_and_the_dice_beside_it_read_ok():
    frame = cv2.imread(str(CROP))
    before = read_pip_dice(frame, replace(AnyDieParams(), blank_read=0.0))
    assert [p for p, _ in _at(before.dice, *HOLE)] and _at(before.dice, *HOLE)[0][1] == "uncertain"  # before: asked
    assert before.status == "uncertain"
    reading = read_pip_dice(frame)
    assert _at(reading.dice, *HOLE) == []
    assert len(reading.dice) == len(LABELS)
    for pips, (x, y) in LABELS:
        assert _at(reading.dice, x, y) == [(pips, "ok")]
    assert reading.status == "ok"


def _candidate(score: float, probs: list[float]) -> Candidate:
    return Candidate(50.0, 50.0, 40.0, score, np.array(probs, np.float32))


def test_only_a_faint_unread_candidate_without_pips_is_blank():
    blank_floor = np.full((100, 100, 3), 200, np.uint8)
    cv2.circle(blank_floor, (50, 50), 15, (110, 110, 110), -1)  # a grey disk: no pip on it
    die = blank_floor.copy()
    cv2.rectangle(die, (30, 30), (70, 70), (40, 40, 200), -1)
    for x, y in [(38, 38), (50, 50), (62, 62)]:
        cv2.circle(die, (x, y), 4, (240, 240, 240), -1)      # a red 3
    p = AnyDieParams()
    unsure = [0.1, 0.2, 0.3, 0.2, 0.1, 0.05, 0.05]           # the reader's best 0.3 (a 2)
    assert blank_faint(blank_floor, p)(_candidate(0.5, unsure))
    assert not blank_faint(die, p)(_candidate(0.5, unsure))                         # pips there: kept
    assert not blank_faint(blank_floor, p)(_candidate(p.blank_find, unsure))        # the finder sure enough: kept
    assert not blank_faint(blank_floor, p)(_candidate(0.5, [0.1, 0, 0.5, 0.2, 0.1, 0.05, 0.05]))  # read: kept
    assert not blank_faint(blank_floor, replace(p, blank_read=0.0))(_candidate(0.5, unsure))

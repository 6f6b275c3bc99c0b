"""Issue 25, round 34: a candidate far smaller than the frame's sure dice (a box on part of a big die) is read again in
boxes of their side laid on it; the count they agree on, read surer than its own, replaces its reading, flagged."""

from pathlib import Path

import cv2

from rig.vision import diegrow
from rig.vision.anydie import AnyDieParams, read_pip_dice
from rig.vision.dicecandidate import Candidate

from .pip_stubs import SureReader, crop_box, probs

TWIN = Path(__file__).parent / "pip_twin"


def _frame_dice():
    return [Candidate(100, 100, 160, 0.6, probs(5, 0.95)), Candidate(400, 100, 170, 0.5, probs(3, 0.9)),
            Candidate(700, 100, 90, 0.3, probs(1, 0.9))]


def test_a_small_box_among_big_dice_takes_the_grown_boxes_surer_count():
    cands = diegrow.grown(_frame_dice(), 0.45, None, SureReader(4, 0.97), crop_box)
    assert [c.grown for c in cands] == [False, False, True]
    assert cands[2].pips == 4 and (cands[2].x, cands[2].side, cands[2].score) == (700, 90, 0.3)
    assert [(c.x, c.side, c.pips) for c in cands[:2]] == [(c.x, c.side, c.pips) for c in _frame_dice()[:2]]


def test_the_grown_boxes_less_sure_a_single_sure_die_or_small_dice_change_nothing():
    for reader, dice in ((SureReader(4, 0.85), _frame_dice()), (SureReader(4, 0.97), _frame_dice()[1:])):
        cands = diegrow.grown(dice, 0.45, None, reader, crop_box)
        assert not any(c.grown for c in cands) and [c.pips for c in cands] == [c.pips for c in dice]
    small = [Candidate(c.x, c.y, c.side / 3, c.score, c.probs) for c in _frame_dice()]  # sure dice under GROW_FROM
    assert not any(c.grown for c in diegrow.grown(small, 0.45, None, SureReader(4, 0.97), crop_box))
    cands = diegrow.grown(_frame_dice(), 0.45, None, SureReader(0, 0.97), crop_box)  # "no die": kept as read
    assert not cands[2].grown and cands[2].pips == 1


def test_the_green_die_boxed_on_its_corner_reads_four(nets, monkeypatch):
    """Pip twin 12208 throw 0 (seen; 1920x1080 as JPEG q75, six 160 px green dice on knotted wood): the 4 at
    (677, 877) was found as a 150 px box on part of its top, read 2 at 0.75."""
    frame = cv2.imread(str(TWIN / "t12208-throw0.jpg"))
    reading = read_pip_dice(frame, AnyDieParams(), expected=(6,))
    near = [d for d in reading.dice if abs(d.centre[0] - 677) < 80 and abs(d.centre[1] - 877) < 80]
    assert len(near) == 1 and near[0].pips == 4 and diegrow.GROWN in near[0].count.reasons
    monkeypatch.setattr(diegrow, "GROW_BELOW", 0.0)
    before = read_pip_dice(frame, AnyDieParams(), expected=(6,))
    assert [d.pips for d in before.dice if abs(d.centre[0] - 677) < 80 and abs(d.centre[1] - 877) < 80] == [2]

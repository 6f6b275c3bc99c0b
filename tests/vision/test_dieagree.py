"""Issue 25, round 32: a die flagged only "pips unclear" is ok when the reader on its crop turned and mirrored, the
classical counter and the pip net agree on its number (rig.vision.dieagree); a punched hole the finder scores 0.6-0.75,
the reader unsure of its number and of "no die", no pip on it and the pip net calling it no die, is no die
(rig.vision.anydie.blank_faint's ``blank_find``). Fixtures: two tuning photos of real-colour-dice, as the tuning
split's x1 frames (``rig bench vision --game pips --scales --split tuning``)."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from rig.vision.anydie import AnyDieParams, blank_faint, read_pip_dice
from rig.vision.dicecandidate import Candidate
from rig.vision.dieagree import agreed, unclear_only
from rig.vision.pips import PipCount, PipDie

PHOTOS = Path(__file__).parent / "pip_photos"
#: IMG_20191209_095958.jpg: five dice (their labels' centres, frame px); the 3 at (293, 250) read 3 at 0.86, "pips unclear"
THREES = PHOTOS / "IMG_20191209_095958.jpg"
THREES_LABELS = [(3, (221, 155)), (3, (293, 250)), (3, (385, 273)), (5, (269, 307)), (2, (229, 319))]
#: IMG_20191209_095604.jpg: five dice, and the binder's punched hole at the top left, found at finder 0.61
HOLE_PHOTO = PHOTOS / "IMG_20191209_095604.jpg"
HOLE_LABELS = [(1, (298, 338)), (2, (288, 253)), (3, (335, 339)), (4, (508, 230)), (6, (111, 307))]
HOLE = (49, 44)


def _at(dice, x, y):
    return [(d.pips, d.count.status, d.count.reasons) for d in dice
            if d.box[0] <= x <= d.box[0] + d.box[2] and d.box[1] <= y <= d.box[1] + d.box[3]]


def _read_right(reading, labels):
    assert len(reading.dice) == len(labels)
    for pips, (x, y) in labels:
        assert [(p, s) for p, s, _ in _at(reading.dice, x, y)] == [(pips, "ok")]


def test_a_die_read_unclear_that_three_readers_agree_on_is_ok(nets):
    frame = cv2.imread(str(THREES))
    before = read_pip_dice(frame, replace(AnyDieParams(), agree_turned=0.0))
    (pips, status, reasons), = _at(before.dice, 293, 250)
    assert (pips, status) == (3, "uncertain") and reasons[0].startswith("pips unclear")
    reading = read_pip_dice(frame)
    _read_right(reading, THREES_LABELS)
    assert reading.status == "ok"


def test_a_punched_hole_the_finder_scores_above_find_ok_is_no_die(nets):
    frame = cv2.imread(str(HOLE_PHOTO))
    p = AnyDieParams()
    before = read_pip_dice(frame, replace(p, blank_find=p.find_ok))
    assert [s for _, s, _ in _at(before.dice, *HOLE)] == ["uncertain"] and before.status == "uncertain"
    reading = read_pip_dice(frame)
    assert _at(reading.dice, *HOLE) == []
    _read_right(reading, HOLE_LABELS)
    assert reading.status == "ok"


class _Reader:
    """A reader giving every crop ``probs``; ``crop`` its input side (as DiceNet)."""

    crop = 48

    def __init__(self, probs):
        self.probs = np.array(probs, np.float32)

    def read(self, crops):
        return np.stack([self.probs for _ in crops])


class _PipNet:
    def __init__(self, k, q):
        self.k, self.q = k, q

    def classify(self, frame, box):
        return self.k, self.q


def _counter(pips):
    return lambda frame, box, p: (box, pips)


UNCLEAR = PipDie((30, 30, 40, 40), PipCount(3, (), 0.6, "uncertain", ("pips unclear: 3 (0.60) or 2 (0.30)",)))
THREE = [0.0, 0.0, 0.05, 0.9, 0.05, 0.0, 0.0]


@pytest.mark.parametrize("change, freed", [
    ({}, True),
    ({"reader": [0.0, 0.0, 0.3, 0.6, 0.1, 0.0, 0.0]}, False),        # the turned crops read it less surely
    ({"counter": 2}, False),                                         # the classical counter counts otherwise
    ({"pipnet": (3, 0.7)}, False),                                   # the pip net not sure enough
    ({"pipnet": (2, 0.95)}, False),                                  # ... or reading otherwise
    ({"pipnet": None}, False),                                       # no pip net
    ({"alone": True}, False),                                        # found by the second pass alone
    ({"die": UNCLEAR.flagged("faint die (finder 0.55)")}, False),    # flagged for more than its pips
    ({"params": {"agree_turned": 0.0}}, False),                      # the rule off
])
def test_only_a_die_flagged_for_unclear_pips_alone_that_all_three_read_alike_is_freed(change, freed):
    frame = np.full((100, 100, 3), 200, np.uint8)
    p = replace(AnyDieParams(), **change.get("params", {}))
    pipnet = _PipNet(*change["pipnet"]) if change.get("pipnet") else None if "pipnet" in change else _PipNet(3, 0.95)
    agree = agreed(frame, p, _Reader(change.get("reader", THREE)), _counter(change.get("counter", 3)), pipnet)
    c = Candidate(50.0, 50.0, 40.0, 0.9, np.array(THREE, np.float32), alone=change.get("alone", False))
    die = change.get("die", UNCLEAR)
    out = agree(c, die)
    assert (out.count.status == "ok") == freed
    assert out.pips == die.pips
    if not freed:
        assert out == die


def test_unclear_only():
    assert unclear_only(UNCLEAR)
    assert not unclear_only(UNCLEAR.flagged("overlaps another die (pips seen as dice?)"))
    assert not unclear_only(PipDie((0, 0, 9, 9), PipCount(3, (), 0.95, "ok", ())))


def test_a_hole_the_finder_scores_from_find_ok_is_blank_only_when_the_pip_net_sees_no_die():
    blank_floor = np.full((100, 100, 3), 200, np.uint8)
    cv2.circle(blank_floor, (50, 50), 15, (110, 110, 110), -1)  # a grey disk: no pip on it
    p = AnyDieParams()
    unsure = np.array([0.1, 0.2, 0.3, 0.2, 0.1, 0.05, 0.05], np.float32)  # the reader's best 0.3 (a 2), "no die" 0.1
    between = Candidate(50.0, 50.0, 40.0, (p.find_ok + p.blank_find) / 2, unsure)
    assert blank_faint(blank_floor, p, _PipNet(0, 0.9))(between)
    assert not blank_faint(blank_floor, p, _PipNet(4, 0.4))(between)      # the pip net reads pips: kept, flagged
    assert not blank_faint(blank_floor, p)(between)                       # no pip net: kept
    assert not blank_faint(blank_floor, replace(p, blank_find=p.find_ok), _PipNet(0, 0.9))(between)  # as round 31
    said_no_die = np.array([0.5, 0.2, 0.3, 0.0, 0.0, 0.0, 0.0], np.float32)  # the reader: "no die" 0.5
    assert not blank_faint(blank_floor, p, _PipNet(0, 0.9))(replace(between, probs=said_no_die))
    faint = replace(between, score=p.find_ok - 0.05)
    assert blank_faint(blank_floor, p, _PipNet(4, 0.4))(faint)           # below find_ok: the pip net not asked

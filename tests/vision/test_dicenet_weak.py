"""Issue 25, round 30: a pyramid level chosen weakly is chosen again on the finder's fainter peaks, a coarser level
then taken (rig.vision.dicelevels.chosen_again): green dice on the pip twin's felt, scored 0.5-0.65 by the finder, left a
finer level one pip above find_keep, and that lone pip (read 1 at 0.98) outscored three faint dice."""

from pathlib import Path

import cv2
import pytest

from rig.vision import dicelevels, dicenet, diesplit
from rig.vision.anydie import AnyDieParams, read_pip_dice

TWIN = Path(__file__).parent / "pip_twin"
#: pip twin 9973 throw 0 (seen; 640x480, four green dice with white pips on felt, 73 px): value, centre
TRUTH_9973 = [(5, 344, 299), (4, 509, 320), (5, 488, 407), (6, 397, 228)]


def _by_truth(dice, truth, tol=0.5 * 73):
    found = {}
    for d in dice:
        x, y = d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2
        found.update({(v, tx, ty): d for v, tx, ty in truth if abs(x - tx) < tol and abs(y - ty) < tol})
    return found


def test_green_dice_on_felt_are_read_as_dice_not_their_pips(nets):
    frame = cv2.imread(str(TWIN / "t9973-throw0.jpg"))
    reading = read_pip_dice(frame, AnyDieParams(), expected=(4,))
    found = _by_truth(reading.dice, TRUTH_9973)
    assert len(found) == 4 and len(reading.dice) == 4
    assert all(d.pips == v for (v, _, _), d in found.items())
    assert all(d.box[2] > 0.8 * 73 for d in reading.dice)  # a die's box, not a pip's (24-35 px before)


def test_without_the_second_choice_the_pips_were_read_as_dice(nets, monkeypatch):
    """(Since round 32 the lone pip, read 1 inside a coarser level's die read surely, is that die's pip already:
    rig.vision.diesplit.pip_of_sure's LONE_PIP, left out here.)"""
    monkeypatch.setattr(dicelevels, "WEAK_LEVEL", 0.0)
    monkeypatch.setattr(diesplit, "LONE_PIP", False)
    frame = cv2.imread(str(TWIN / "t9973-throw0.jpg"))
    reading = read_pip_dice(frame, AnyDieParams(), expected=(4,))
    assert sum(d.pips == 1 for d in reading.dice) >= 3 and reading.status == "uncertain"  # main: never ok


def test_a_weak_level_is_chosen_again_only_for_a_coarser_one(nets, monkeypatch):
    """The second choice, on the peaks above WEAK_FLOOR, is kept only when it is coarser (bigger dice): the finer
    level's lone peak was a pip; a finer second choice (the tuning photos' white dice at x1.5 lost 4 dice to it)
    is not taken. (Since round 31 the first choice is already the dice's level: the pips' level, scoring one lone
    pip, is thinned by the finest level's dice apart outside it, rig.vision.dicelevels.thin_coarser; since round 32 that
    pip, read 1 inside a coarser level's die read surely, is its pip, rig.vision.diesplit.LONE_PIP: both left out here.)"""
    monkeypatch.setattr(dicelevels, "THIN_VOUCH", False)
    monkeypatch.setattr(diesplit, "LONE_PIP", False)
    frame = cv2.imread(str(TWIN / "t9973-throw0.jpg"))
    assert nets.level(frame, AnyDieParams().find_keep)[0] == pytest.approx(37.5)  # the pips' level, strength 0.44
    assert nets.level(frame, dicelevels.WEAK_FLOOR)[0] > 37.5
    calls = []
    real = dicenet.DiceNet.level

    def spy(self, f, floor=0.2, **kw):
        calls.append(floor)
        return real(self, f, floor, **kw)

    monkeypatch.setattr(dicenet.DiceNet, "level", spy)
    out = nets.normalised(frame, 0.2, {}, AnyDieParams().find_keep)
    assert calls == [AnyDieParams().find_keep, dicelevels.WEAK_FLOOR]
    assert out[-1][2] == pytest.approx(dicenet.FIND_DIE / 56.25)  # the dice's level (56 px), not the pips' (37.5)

    monkeypatch.setattr(dicenet.DiceNet, "level", lambda self, f, floor=0.2, **kw: (
        (20.0, 0.9, real(self, f, floor, **kw)[2]) if floor == dicelevels.WEAK_FLOOR else real(self, f, floor, **kw)))
    kept = nets.normalised(frame, 0.2, {}, AnyDieParams().find_keep)
    assert kept[-1][2] == pytest.approx(15 / 37.5)  # a finer second choice: the first kept


def test_a_strong_level_is_not_chosen_again(nets, monkeypatch):
    frame = cv2.imread(str(TWIN / "t9973-throw0.jpg"))
    calls = []
    real = dicenet.DiceNet.level
    def strong(self, f, floor=0.2, **kw):
        calls.append(floor)
        die_px, _, out = real(self, f, floor, **kw)
        return die_px, 0.8, out

    monkeypatch.setattr(dicenet.DiceNet, "level", strong)
    read_pip_dice(frame, AnyDieParams(), expected=(4,))
    assert calls == [AnyDieParams().find_keep]


def test_chosen_again_takes_only_a_coarser_second_choice_of_a_weak_first():
    answers = {0.45: (37.5, 0.45, "pips"), 0.2: (56.25, 0.43, "dice")}
    asked = []
    level = lambda floor: asked.append(floor) or answers[floor]  # noqa: E731
    assert dicelevels.chosen_again(level, 0.45)[2] == "dice" and asked == [0.45, 0.2]
    answers[0.2] = (25.0, 0.5, "finer")
    assert dicelevels.chosen_again(level, 0.45)[2] == "pips"
    answers[0.45] = (37.5, 0.65, "strong")
    asked.clear()
    assert dicelevels.chosen_again(level, 0.45)[2] == "strong" and asked == [0.45]
    assert dicelevels.chosen_again(level, 0.2) == answers[0.2]  # already on the fainter peaks: once


def test_a_pass_run_whole_is_run_once_a_tiled_one_again():
    runs = []
    whole = lambda keep: runs.append("whole") or ("out", False)  # noqa: E731
    tiled = lambda keep: runs.append("tiled") or ("part", True)  # noqa: E731
    passes = dicelevels.Passes()
    assert dicelevels.once(passes, 50.0, whole) == ("out", False) == dicelevels.once(passes, 50.0, whole)
    assert dicelevels.once(passes, 30.0, tiled) == ("part", True) == dicelevels.once(passes, 30.0, tiled)
    assert runs == ["whole", "tiled", "tiled"] and passes == {50.0: "out"}
    assert dicelevels.once(None, 50.0, whole) == ("out", False) and runs[-1] == "whole"

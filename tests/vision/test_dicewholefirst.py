"""Issue 25, round 34: a weak pyramid level's finer passes run whole once, not on tiles first and whole again when the
level is chosen again on the fainter peaks (rig.vision.dicelevels.Passes.whole_first): the tiles are cut from the
whole output, the same numbers to the bit, so the reading is the same."""

from pathlib import Path

import cv2
import numpy as np

from rig.vision import dicenet
from rig.vision.anydie import AnyDieParams, read_pip_dice

#: pip twin 9973 throw 0 (640x480, four green dice on felt; read with no dice count): its weak level is chosen again
FRAME = Path(__file__).parent / "pip_twin" / "t9973-throw0.jpg"


def _passes(monkeypatch) -> list:
    calls = []
    real = dicenet.DiceNet.finder_pass

    def spy(self, f, die_px=0.0, guides=None, keep=None):
        out = real(self, f, die_px, guides, keep)
        calls.append((round(die_px, 2), out[1]))
        return out

    monkeypatch.setattr(dicenet.DiceNet, "finder_pass", spy)
    return calls


def test_tiles_cut_from_a_pass_run_whole_are_the_tiles_run(nets):
    frame = cv2.imread(str(FRAME))
    guides = [nets.heat(frame, 37.5)]
    (heat, sides, _), tiled = nets.finder_pass(frame, 25.0, guides)
    keep: dict = {}
    (cut_heat, cut_sides, _), cut = nets.finder_pass(frame, 25.0, guides, keep)
    (whole_heat, whole_sides, _), whole = nets.finder_pass(frame, 25.0)
    assert tiled and cut and not whole and not heat.all()
    assert np.array_equal(cut_heat, heat) and np.array_equal(cut_sides, sides)
    assert list(keep) == [25.0] and np.array_equal(keep[25.0][0], whole_heat) and np.array_equal(keep[25.0][1], whole_sides)


def test_a_weak_levels_finer_passes_run_once_and_read_the_same(nets, monkeypatch):
    frame = cv2.imread(str(FRAME))
    calls = _passes(monkeypatch)
    reading = read_pip_dice(frame, AnyDieParams())
    sizes = [size for size, _ in calls]
    assert any(tiled for _, tiled in calls) and len(sizes) == len(set(sizes))  # none run twice
    monkeypatch.setattr(dicenet, "expect_again", lambda passes, best: None)  # tiles first, as before round 34
    calls.clear()
    before = read_pip_dice(frame, AnyDieParams())
    again = [size for size, tiled in calls if not tiled and (size, True) in calls]
    assert sorted(again) == [16.67, 25.0]  # run on tiles, then whole when the level was chosen again
    assert before == reading

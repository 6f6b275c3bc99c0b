"""A flat die's top cut short along a whole side by shade, its flag "die partly hidden or on edge" taken off when the
second look reads its face surely (issue 24, round 25: dice_shade_cut.cut_by_shade in dice_second_look)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from rig.vision import dice, dice_second_look
from rig.vision.dice_shade_cut import cut_by_shade, strip_ratio
from rig.vision.pixel_classes import BG, BODY

from .dice_twin import frame_and_profile

HIDDEN = "die partly hidden or on edge"
#: twin 10210 (seen) turn 2, same light: six flat dice read right; two blank dice under the far wall at (238, 90) and
#: (391, 91), the wall side of each top in shade: lit 0.40 and 0.45 tops, flagged partly hidden before round 25
CASE = ("t10210-turn2.jpg", "t10210-r25")
TRUTH = ["blank", "blank", "blue", "pink", "pink+blue", "yellow"]


def _read():
    frame, profile = frame_and_profile(*CASE)
    return dice.read_dice(frame, profile, thrown=6)


def test_the_blank_dice_cut_by_the_wall_s_shade_are_freed():
    reading = _read()
    assert reading.status == "ok" and not reading.reasons
    assert sorted(d.face for d in reading.dice) == TRUTH


def test_without_the_shade_cut_they_stay_partly_hidden(monkeypatch):
    monkeypatch.setattr(dice_second_look, "cut_by_shade", lambda d, work: False)  # as before round 25
    reading = _read()
    assert [str(r) for r in reading.reasons] == [f"{HIDDEN} at (238, 90)", f"{HIDDEN} at (391, 91)"]
    assert sorted(d.face for d in reading.dice) == TRUTH


def _work(top_w: int, top_h: int, strip: int) -> tuple[SimpleNamespace, SimpleNamespace]:
    """A 10 px die's lit top of ``top_w`` x ``top_h`` px (lightness 600) at full resolution (factor 1), the strip
    below it that would make it a square at lightness ``strip``, the floor at 300."""
    labels = np.full((60, 80), BG, np.uint8)
    frame = np.full((60, 80, 3), 100, np.uint8)
    labels[20 : 20 + top_h, 30 : 30 + top_w] = BODY
    frame[20 : 20 + top_h, 30 : 30 + top_w] = 200
    frame[20 + top_h : 30, 30 : 30 + top_w] = strip // 3
    work = SimpleNamespace(labels=labels, frame=frame, factor=1, side=10.0)
    return work, SimpleNamespace(box=(30, 20, top_w, top_h))


def test_a_whole_side_long_top_beside_a_dark_strip_is_cut_by_shade():
    work, die = _work(10, 5, 30)
    along, ratio = strip_ratio(die, work)
    assert along >= 0.85 and ratio <= 0.12
    assert cut_by_shade(die, work)


def test_a_lit_strip_a_short_top_or_no_frame_is_not():
    work, die = _work(10, 5, 240)
    assert not cut_by_shade(die, work)  # lit beside it: a leaning die's side face
    work, die = _work(6, 5, 30)
    assert not cut_by_shade(die, work)  # short both ways: no whole side cut straight
    work, die = _work(10, 5, 30)
    work.frame = None
    assert not cut_by_shade(die, work)

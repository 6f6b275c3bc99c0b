"""scripts/pip_misses.py (issue 25, round 20): a die's cause is the first that fits, in the order the docs give, and
the floor contrast is measured against the floor around the die, not the other dice."""

from types import SimpleNamespace

import cv2
import numpy as np

from rig.vision.anydie_params import AnyDieParams

from .scripts import load_script

P = AnyDieParams()


def _miss(**kw) -> dict:
    base = dict(found=False, px=40.0, box=0, touch=20.0, shade=1.0, glare=0.0, floor=100.0, peak=None, known=None)
    return {**base, **kw}


def _peak(score: float) -> SimpleNamespace:
    return SimpleNamespace(score=score)


def test_a_dies_cause_is_the_first_that_fits():
    cause = load_script("pip_misses").cause
    assert cause(_miss(found=True, box=80), P) == "box around several dice"
    assert cause(_miss(found=True, box=20), P) == "box too small (a part of the die)"
    assert cause(_miss(found=True, box=44), P) == "read wrong in a box of its size"
    assert cause(_miss(touch=1.0, floor=5.0), P) == "touching another die"  # touching before the floor's colour
    assert cause(_miss(floor=12.0, shade=0.3), P) == "floor colour"
    assert cause(_miss(shade=0.3), P) == "in shade"
    assert cause(_miss(glare=0.5), P) == "glare"
    assert cause(_miss(known=_peak(0.6)), P).startswith("pyramid")
    assert cause(_miss(), P) == "finder: no peak even at the true size"
    assert cause(_miss(peak=_peak(0.3), known=_peak(0.5)), P) == "finder: peak below find_keep (found at the true size)"
    assert cause(_miss(peak=_peak(0.7)), P) == "reader: no die there"


def test_the_floor_contrast_is_against_the_floor_around_the_die():
    script = load_script("pip_misses")
    frame = np.full((200, 200, 3), (60, 90, 140), np.uint8)  # brown wood
    cv2.rectangle(frame, (40, 40), (79, 79), (40, 40, 190), -1)  # a red die, 40 px
    cv2.rectangle(frame, (120, 40), (159, 79), (62, 92, 142), -1)  # a die of the floor's colour
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
    truth = [SimpleNamespace(x=60.0, y=60.0, side_px=40.0), SimpleNamespace(x=140.0, y=60.0, side_px=40.0)]
    assert script.floor_contrast(lab, truth, 0) > script.FLOOR
    assert script.floor_contrast(lab, truth, 1) < script.FLOOR

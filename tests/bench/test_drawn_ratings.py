"""scripts/drawn_ratings.py (issue 25, round 18): a die it counts ``ok`` at a pair of the check's thresholds is one the
reader reports ``ok`` with them, so the thresholds it chooses are the benchmark's."""

from dataclasses import replace

import numpy as np

from rig.bench.distractors import add_distractors
from rig.vision import dicenet
from rig.vision.anydie import read_pip_dice
from rig.vision.anydie_params import AnyDieParams
from rig.vision.render_pips import render_pip_dice

from .scripts import load_script


def test_the_ok_dice_at_a_threshold_are_the_readers_and_the_check_is_put_back():
    script = load_script("drawn_ratings")
    frame, truth = render_pip_dice(4, n=3)
    add_distractors(frame, [t.box for t in truth], 50.0, np.random.default_rng(1))
    base = AnyDieParams()
    rated = script.rated(frame, replace(base, check_ok=1e-6, one_check_ok=1e-6))
    assert dicenet.second_opinion.__name__ == "second_opinion"  # the shipped one, put back
    seen = set()
    for t in (0.3, 0.52, 0.9, 0.999):
        q = replace(base, check_ok=t, one_check_ok=t)
        mine = sorted(tuple(d.box) for d, r, pips, alone in rated
                      if d.count.status == "ok" and r >= script.needed(q, pips, alone))
        reader = sorted(tuple(d.box) for d in read_pip_dice(frame, q).dice if d.count.status == "ok")
        assert mine == reader, t
        seen.add(len(mine))
    assert len(seen) > 1  # the thresholds flag some dice: the ratings were looked at

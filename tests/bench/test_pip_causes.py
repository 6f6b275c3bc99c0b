"""scripts/pip_causes.py (issue 25, round 29): a missed die is put beyond the pyramid's reach by its labelled side
(a level covers half a step of 1.5 either side), and found with the size given or not tells the pyramid from the
finder."""

import math

from .scripts import load_script


def test_the_pyramids_reach_is_half_a_step_beyond_its_levels():
    reach = load_script("pip_causes").reach
    low, high = reach([50.0, 75.0, 112.5])
    assert math.isclose(low, 50 / math.sqrt(1.5)) and math.isclose(high, 112.5 * math.sqrt(1.5))


def test_a_dies_cause():
    cause = load_script("pip_causes").cause
    span = (40.8, 465.0)  # 1920x1080, the shipped levels
    assert cause(True, True, 39.0, span, False) == "right"  # found: read, whatever its size
    assert cause(True, False, 60.0, span, True) == "misread"
    assert cause(False, False, 38.0, span, True) == "outside, size given finds"  # 9799's dice
    assert cause(False, False, 500.0, span, False) == "outside, faint"
    assert cause(False, False, 45.0, span, True) == "pyramid"
    assert cause(False, False, 45.0, span, False) == "faint"

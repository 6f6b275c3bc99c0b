"""The die-fairness χ² test: p-values against printed tables, seeded fair and loaded dice."""

import random

import pytest

from rig.games.frogs.rules.fairness import DiceFairness, simulate_rolls
from rig.rules.fairness import ChiSquare, FairnessError, chi2_sf


@pytest.mark.parametrize("x, dof, p", [
    (3.841, 1, 0.05), (6.635, 1, 0.01), (5.991, 2, 0.05), (9.488, 4, 0.05), (13.277, 4, 0.01),
    (11.070, 5, 0.05), (18.307, 10, 0.05), (0.711, 4, 0.95), (67.505, 50, 0.05), (1.0, 3, 0.8013),
])
def test_the_p_value_matches_the_chi_square_table(x, dof, p):
    assert chi2_sf(x, dof) == pytest.approx(p, abs=5e-4)


def test_a_seeded_fair_set_shows_no_sign_of_bias():
    test = DiceFairness.of(simulate_rolls(random.Random(1), 100))
    assert test.rolls == 600
    assert test.faces.statistic == pytest.approx(3.24, abs=0.005) and test.faces.p_value > 0.5
    assert test.verdict == "no sign of bias"


def test_a_seeded_loaded_set_looks_loaded():
    test = DiceFairness.of(simulate_rolls(random.Random(1), 100, loaded={"pink": 1.5}))
    assert test.counts["pink"] == 143
    assert test.faces.statistic == pytest.approx(23.48, abs=0.005) and test.faces.p_value < 0.001
    assert test.verdict == "looks loaded"


def test_a_die_kind_loaded_on_its_combo_face_is_caught_by_the_combo_test():
    test = DiceFairness.of(simulate_rolls(random.Random(2), 150, loaded={"blue+yellow": 3.0}))
    assert test.combos.p_value < 0.01 and test.verdict == "looks loaded"


def test_too_few_rolls_say_so_instead_of_a_verdict():
    assert DiceFairness.of(["pink"] * 12).verdict == "too few rolls to tell"


def test_combo_faces_may_be_written_either_way_round():
    assert DiceFairness.of(["blue+pink", "pink+blue"]).counts["pink+blue"] == 2


def test_bad_counts_are_refused():
    with pytest.raises(FairnessError, match="whole numbers >= 0"):
        ChiSquare.test(["a", "b"], [3, -1], [0.5, 0.5])
    with pytest.raises(FairnessError, match="add up to 1"):
        ChiSquare.test(["a", "b"], [3, 1], [0.5, 0.6])

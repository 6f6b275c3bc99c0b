"""An arm reaching in from the view's edge over a pile, the pile read only in part beside it: a hand over the pile,
not an arm waiting beside it (issue 24 part 3, round 23: twin 4209 reveal 1, the lead's fresh card set — blank, blank,
gray x 4, blue laid; the sixth card, a gray laid on the gray pile at another angle, left the pile's box the same, the
pile was never counted as touched nor settled again, and the blue card was booked into the sixth card's slot in
silence)."""

from tests.vision.test_cards_twin import _replay


def test_twin_4209_reveal_1_a_gray_laid_on_the_gray_pile_under_the_arm_from_the_edge_is_booked():
    cards, booked, questions = _replay("t4209-reveal1")
    assert cards == ["blank", "blank", "gray", "gray", "gray", "gray", "blue"]
    assert booked == cards  # before: blank, blank, gray, gray, gray, blue (the blue in the sixth card's slot), nothing asked
    assert questions == []

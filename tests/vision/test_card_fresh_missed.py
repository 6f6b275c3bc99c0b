"""Two cards the reveal lost in silence on the lead's fresh card set 5400-5419 (issue 24 part 3, round 33): a gray card
beside a gray one, its lower border in the wall's deep shade, not found at all (twin 5413 reveal 1); a blue card laid on
the blue pile beside the waiting arm, read in part beside it and taken for the pile's top (5419 reveal 1). Each time the
next card was booked in its slot and nothing was asked. The frame and its table's profile and empty box (JPEG 4:4:4
q95), and the reveals' views as this reader reads them."""

from tests.vision.test_cards_arm import _read
from tests.vision.test_cards_twin import _replay


def test_a_gray_card_whose_lower_border_lies_in_a_walls_shade_is_found_by_its_three_sides():
    # twin 5413 reveal 1: the second gray laid beside the first in a row, its lower part in the wall's shade on a gray
    # floor. What changed from the empty box is its border on three sides and its icon: a rectangle 85 x 102 px (a
    # card's 86 x 122 cut short), no card's shape, so nothing was read there for as long as it lay
    view = _read("t5413-reveal1-1-laid")
    assert [(c.card, c.status) for c in view.cards] == [("gray", "ok"), ("gray", "ok")]
    beside = max(view.cards, key=lambda c: c.box[0])
    assert beside.box[0] > 320 and 240 <= beside.box[3] <= 290  # the card beside, its whole height


def test_twin_5413_reveal_1_books_both_gray_cards():
    cards, booked, questions = _replay("t5413-reveal1")
    assert cards == ["gray"] * 2 + ["pink"] * 4
    assert booked == cards and questions == []


def test_a_card_laid_on_the_pile_beside_the_arm_its_print_moved_is_not_the_pile_top_read_in_part():
    # twin 5419 reveal 1 (blue x 4, blank on one pile): the third blue, read beside the arm waiting at the view's lower
    # left, 18 px below the pile's box and its print 10.6 px (4.6 %) from where the top's lay, stood for the pile's top
    # read in part; the fourth blue was then booked as the third, the reveal one blue short, nothing asked
    cards, booked, questions = _replay("t5419-reveal1")
    assert cards == ["blue"] * 4 + ["blank"]
    assert booked == cards and questions == []


def test_a_part_inside_the_card_beside_the_arm_its_print_read_apart_is_still_that_card():
    # twin 5419 reveal 0: the first pink beside the arm read in part (its box inside the card's), its print 30 px off
    # where it lay (the shade cuts the field): that card, as before — not a card laid on it ("was a pink card laid?")
    cards, booked, questions = _replay("t5419-reveal0")
    assert booked == cards and questions == []

"""A lying card a hand was over that goes out of sight once the hand has left, nothing in view over it: a card the
camera cannot read was laid on it, asked about (issue 24 part 3, round 18: twin 3702 reveal 1, the lead's fresh card
set — blue, blue, gray, gray, blue laid; the second gray card went onto the gray pile and neither was read again, and
the last blue card, laid there, was booked as the fourth card in silence)."""

from tests.vision.test_cards_twin import _replay


def test_twin_3702_reveal_1_asks_about_the_card_it_lost_the_pile_under():
    cards, booked, questions = _replay("t3702-reveal1")
    assert cards == ["blue", "blue", "gray", "gray", "blue"]
    assert booked == cards  # before: blue, blue, gray, blue (the last card in the gray one's slot), nothing asked
    assert [q.unread for q in questions] == [True]


def test_twin_3702_reveal_0_a_pile_covered_by_the_card_laid_on_it_is_no_lost_card():
    # pink, pink, gray x 3, blue, blue: the gray pile out of sight under the blue card laid on it — a card over it
    cards, booked, questions = _replay("t3702-reveal0")
    assert booked == cards and questions == []

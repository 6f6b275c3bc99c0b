"""A card laid on one of its colour whose top moved little, the pile's outline grown as a card laid askew sticks out
(issue 24 part 3, round 32): booked. Twin 5202 reveal 1 (seen set 5200-5218; its views as the reader reads them)."""

import pytest

from tests.vision.test_card_reveal import _top_moved_after_a_hand
from tests.vision.test_cards_twin import _replay


def test_twin_5202_reveal_1_a_yellow_laid_on_the_yellow_pile_its_top_1_75_percent_apart_is_booked():
    # the third yellow laid on the yellow pile (its faint print known in no settle): the top's corners 1.75 % of its long
    # side from where the second's lay, under LAID_SHIFT (2 %), the pile's outline 6 px taller at its top and the same to
    # the pixel on its other sides. Before: "was that a second yellow card?"
    cards, booked, questions = _replay("t5202-reveal1")
    assert cards == ["pink"] * 3 + ["yellow"] * 4
    assert booked == cards
    assert questions == []


def test_a_pile_top_moved_little_its_outline_grown_4_px_is_a_card_laid_on_it():
    reveal, booked = _top_moved_after_a_hand((100, 96, 200, 284), dx=5)  # 1.8 %, the outline 4 px taller at the top
    assert booked == ["pink", "pink"] and reveal.question is None


@pytest.mark.parametrize("now", [
    (100, 100, 200, 283),  # grown 3 px: a card re-read apart grows it 2 px at most (twin 3009 reveal 0)
    (104, 96, 196, 284),  # grown 4 px at the top, 4 px in on the left: the card nudged
])
def test_a_pile_top_moved_little_is_still_asked_about_unless_its_outline_grew_as_a_card_laid_on_it(now):
    reveal, booked = _top_moved_after_a_hand(now, dx=5)
    assert booked == ["pink"] and reveal.question is not None and "second pink" in reveal.question.text

"""An arm that waits at the view's edge over the cards after laying one the camera saw settle is no pile of cards askew
(issue 24 part 3, round 17): before, "the camera cannot make out the cards just laid" (twin 2615, 3015, 3305: each a
truthful no)."""

import pytest

from rig.vision.cards import CardReading, CardReveal, CardView
from tests.vision.test_cards_twin import _replay

SIZE = (640, 480)


def _card(colour, x):
    corners = ((x, 100.0), (x + 200, 100.0), (x + 200, 380.0), (x, 380.0))
    return CardReading(colour, 1.0, "ok", (), (int(x), 100, 200, 280), corners)


BLUE, PINK = _card("blue", 100.0), _card("pink", 400.0)
ARM = (0, 150, 220, 330)  # reaching in from the view's bottom-left corner, over the blue card (which it hides)


def _reveal(after):
    """The blue card laid, a hand bringing the next beside it, then ``after`` (views)."""
    reveal = CardReveal(settle=3)
    stream = [CardView((BLUE,), (), SIZE)] * 3 + [CardView((BLUE,), ((380, 80, 240, 320),), SIZE)] * 2 + after
    return reveal, [c for view in stream for c in reveal.feed(view)]


def test_an_arm_waiting_at_the_edge_after_the_card_it_brought_settled_is_not_asked_about():
    reveal, booked = _reveal([CardView((PINK,), (ARM,), SIZE)] * 6)
    assert booked == ["blue", "pink"] and reveal.question is None


@pytest.mark.parametrize("after", [
    [CardView((), (ARM,), SIZE)] * 6,  # no card it brought seen settling: cards askew under it?
    [CardView((PINK,), (ARM,), SIZE)] * 3 + [CardView((PINK,), ((0, 100, 270, 380),), SIZE)] * 5,  # it moved since
    # it left, and an arm came back to the very place (the twin's arm waits at one place): a card under it?
    [CardView((PINK,), (ARM,), SIZE)] * 3 + [CardView((PINK,), (), SIZE)] + [CardView((PINK,), (ARM,), SIZE)] * 5,
])
def test_an_arm_lying_still_over_the_cards_is_still_asked_about_otherwise(after):
    reveal, booked = _reveal(after)
    assert reveal.question is not None and "make it out" in reveal.question.text


def test_the_arm_waiting_after_laying_a_blank_card_is_not_asked_about_on_the_twin():
    # twin 3305 reveal 1 (gray x 3, blank x 2): the arm that laid the first blank card waits at the view's left edge,
    # its blob over the first gray card, as still as a pile. Before: "the camera cannot make out the cards just laid" (no)
    cards, booked, questions = _replay("t3305-reveal1")
    assert booked == cards and questions == []

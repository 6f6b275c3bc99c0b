"""A card reveal is never wrong in silence (issue 24): the sequences that were booked wrong without a word."""

import pytest

from rig.vision.cards import CardReading, CardReveal, CardView, read_cards
from rig.vision.render import LIGHTINGS, Scene, render_scene
from rig.vision.table_scene import PlacedCard


def _card(colour, dx=0.0, dy=0.0):
    x, y = 100.0 + dx, 100.0 + dy
    corners = ((x, y), (x + 200, y), (x + 200, y + 280), (x, y + 280))
    return CardReading(colour, 1.0, "ok", (), (int(x), int(y), 200, 280), corners)


HAND = CardView((), ((150, 200, 200, 200),))  # a hand over the card at (100, 100)


def _second_blue_on_the_pile(dx):
    """A blue card laid; the next blue card seen on its way in (away from the first), a hand over the
    pile, then the pile's top lies still with its edges ``dx`` px from where the first card's lay."""
    reveal = CardReveal(settle=3)
    stream = [CardView((_card("blue"),))] * 3
    stream += [CardView((_card("blue"), _card("blue", 330, 40)))]  # the next card coming in
    stream += [HAND] + [CardView((_card("blue", dx),))] * 3
    return reveal, [c for view in stream for c in reveal.feed(view)]


def test_a_card_laid_exactly_on_one_of_its_colour_is_asked_about():
    # its edges within the jitter of the one below (before: the same card, booked once, nothing said)
    reveal, booked = _second_blue_on_the_pile(2)
    assert booked == ["blue"]
    assert reveal.question is not None and reveal.question.text == "was that a second blue card?"
    assert reveal.answer(True) == ["blue"] and reveal.cards == ["blue", "blue"]


def test_a_card_seen_coming_in_whose_edges_moved_a_little_is_booked_without_asking():
    reveal, booked = _second_blue_on_the_pile(7)  # 2.5 % of its long side
    assert booked == ["blue", "blue"] and reveal.question is None


def test_a_hand_passing_over_a_card_without_one_coming_in_lays_none():
    reveal = CardReveal(settle=3)
    stream = [CardView((_card("blue"),))] * 3 + [HAND] + [CardView((_card("blue", 2),))] * 3
    assert [c for view in stream for c in reveal.feed(view)] == ["blue"]
    assert reveal.question is None


@pytest.mark.parametrize("below, top", [(("pink", "blue"), "blue"), (("gray", "gray"), "gray"), (("yellow", "blank"), "gray")])
def test_the_top_of_an_askew_pile_is_read(virtual_profile, below, top):
    # the pile's outline is no card's shape (before: "hand or object in view", the top card never settled)
    laid = (PlacedCard(below[0], 300, 240, -18), PlacedCard(below[1], 318, 250, 4))
    frame = render_scene(Scene(lighting=LIGHTINGS["neutral"], laid=laid, card=PlacedCard(top, 305, 236, 19)), seed=3)
    view = read_cards(frame, virtual_profile)
    assert [c.card for c in view.cards] == [top] and view.cards[0].status == "ok"
    assert view.hands == ()  # the cards below are no hand

"""The players' answer "no — it was a gray card" to the reveal's question (rig.vision.card_answer)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rig.vision.card_answer import NoCardQuestion, answer_was, offers_cards
from rig.vision.card_reveal import _UNSEEN_BEFORE
from rig.vision.card_view import _UNREAD
from rig.vision.cards import CardReading, CardReveal, CardView


def card(colour, x=100.0):
    corners = ((x, 100), (x + 200, 100), (x + 200, 380), (x, 380))
    return CardReading(colour, 1.0, "ok", (), (int(x), 100, 200, 280), corners)


HAND = CardView((), ((150, 200, 200, 200),))


def glimpsed() -> CardReveal:
    """A yellow lies; a card is glimpsed as blue as it is laid, then a pink covers it and settles."""
    reveal = CardReveal(settle=3)
    views = [CardView((card("yellow"),))] * 3 + [CardView((card("yellow"), card("blue", 430)))] * 2 + [HAND]
    for view in views + [CardView((card("yellow"), card("pink", 435)))] * 3:
        reveal.feed(view)
    return reveal


def test_the_card_it_was_is_booked_in_the_place_of_the_one_asked_about_then_those_that_waited():
    reveal = glimpsed()
    assert reveal.question.text == "were the next 2 cards laid blue, then pink?" and reveal.held_cards == ["pink"]
    assert offers_cards(reveal.question)
    assert answer_was(reveal, "gray") == ["gray", "pink"]
    assert reveal.cards == ["yellow", "gray", "pink"] and reveal.question is None


def test_no_question_open_or_one_about_an_order_takes_no_card_and_changes_nothing():
    reveal = CardReveal(settle=2)
    with pytest.raises(NoCardQuestion):
        answer_was(reveal, "gray")
    for view in [HAND] + [CardView((card("yellow"), card("pink", 435)))] * 2:
        reveal.feed(view)
    asked = reveal.question
    assert asked.text.startswith("2 cards laid together") and not offers_cards(asked)
    with pytest.raises(NoCardQuestion):
        answer_was(reveal, "gray")
    assert reveal.question is asked and reveal.cards == []


def test_a_card_it_cannot_read_named_is_booked_and_lies_where_the_hand_was():
    reveal = CardReveal(settle=2)
    reveal.question = _UNSEEN_BEFORE
    assert offers_cards(reveal.question)
    assert answer_was(reveal, "blank") == ["blank"]
    reveal.question = replace(_UNREAD, where=((300, 100, 200, 200),))  # a card laid where only a hand was seen
    assert answer_was(reveal, "gray") == ["gray"]
    assert [t[0] for t in reveal._blind] == [((300, 100, 200, 200),)]  # as a card entered by hand, then yes

"""Issue 24 part 3, round 36: every kind of card question the reveal asks, against every truthful answer, through the
display's API and the engine: what each answer books, and whether a player at the display can book the cards truly
laid without a correction afterwards.

Census (Ann's turn, Bob's yellow booked; the card asked about is the second, Cid's; a pink of Bob's waits where a
question has a later card):

- a question about one card ("was the next card laid blue?", "were the next 2 cards laid blue, then pink?", "was that
  a second blue card?", "was a blue card laid just now?", "was that blue card one more?"): yes books it, a truthful
  "no" books nothing. Where the card truly laid was another colour (a glimpse misread, the arm's shadow), that "no"
  lost it (the pink that waited took its slot). On main a player could book it only by knowing to tap the face-down
  card on the scoreboard and enter it there before answering no (the question never says so); now the question offers
  "no — it was: blue, pink, yellow, blank, gray" (and "no card"), one request.
- a card the camera cannot read or make out ("enter it by hand, then answer yes"): on main the face-down card's tap,
  then yes — two steps; now the same card colours, one tap.
- "2 cards laid together: blue, pink in that order? (no: enter them by hand)": yes books both; the other order is
  entered card by card on the face-down cards, then no (it offers no single card: its no is about an order).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rig.games.frogs import flow
from rig.vision.card_reveal import _UNSEEN, _UNSEEN_BEFORE, CardReveal
from rig.vision.card_view import _UNREAD, Question, laid_next
from tests.games.frogs.card_table import CardTable, booked, in_reveal, question, web

#: each kind of question, as the reveal builds it (about a blue card, Cid's, the second laid), and the cards that
#: wait for its answer
KINDS = {
    "next": (laid_next("blue", ()), []),
    "next-two": (laid_next("blue", ("pink",)), [("book", "pink")]),
    "second": (Question("was that a second blue card?", ("blue",)), []),
    "just-now": (Question("was a blue card laid just now?", ("blue",)), []),
    "one-more": (Question("was that blue card one more (no: counted already)?", ("blue",), under=((0, 0, 80, 80),)),
                 []),
    "unread": (_UNREAD, []),
    "unread-blind": (replace(_UNREAD, where=((300, 100, 200, 200),)), []),
    "unseen": (_UNSEEN, []),
    "unseen-before": (_UNSEEN_BEFORE, []),
    "together": (Question("2 cards laid together: blue, pink in that order? (no: enter them by hand)",
                          ("blue", "pink")), []),
}
ONE_CARD = [k for k in KINDS if k != "together"]
NAMED = [k for k in ONE_CARD if KINDS[k][0].yes]  # (of them, those that name the card: the others cannot read it)


@pytest.fixture
def table():
    service = in_reveal()
    table = CardTable(service)
    client = web(service, table)
    table.submit_event({"type": "card_revealed", "card": "yellow"})  # Bob's, booked before the question
    yield table, client
    client.close()
    service.close()


def ask(table: CardTable, kind: str) -> None:
    """The reveal asks the question of ``kind`` (the later cards waiting), as the flow shows it."""
    asked, held = KINDS[kind]
    reveal = CardReveal(settle=3)
    reveal.question, reveal.asked, reveal._held = asked, 1, list(held)
    table.cards = reveal
    flow._book(table, None, [], None)


def later(kind: str) -> list[str]:
    return [str(w) for _, w in KINDS[kind][1]]


@pytest.mark.parametrize("kind", NAMED)
def test_the_card_asked_about_laid_yes_books_it(table, kind):
    table, client = table
    ask(table, kind)
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "yes"}).status_code == 200
    assert booked(client) == ["yellow", "blue", *later(kind)]


@pytest.mark.parametrize("kind", ONE_CARD)
def test_no_card_laid_no_books_none(table, kind):
    table, client = table
    ask(table, kind)
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no"}).status_code == 200
    assert booked(client) == ["yellow", *later(kind)]
    assert question(client) is None


@pytest.mark.parametrize("kind", ONE_CARD)
def test_another_card_laid_a_bare_no_loses_it(table, kind):
    """The loss the round is about: the question's own yes/no cannot say the card was gray."""
    table, client = table
    ask(table, kind)
    client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no"})
    assert "gray" not in booked(client)


@pytest.mark.parametrize("kind", ONE_CARD)
def test_another_card_laid_the_face_down_card_entered_first_then_the_answer(table, kind):
    """The way main left: the player taps the face-down card (card 2) and enters it, then answers — no for a question
    naming another card, yes for one that cannot read it."""
    table, client = table
    ask(table, kind)
    assert client.post("/api/events", json={"type": "card_revealed", "card": "gray"}).status_code == 200
    yes = not KINDS[kind][0].yes
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "yes" if yes else "no"}).status_code == 200
    assert booked(client) == ["yellow", "gray", *later(kind)]


@pytest.mark.parametrize("kind", ONE_CARD)
def test_another_card_laid_the_question_offers_it_and_books_it_in_its_place(table, kind):
    table, client = table
    ask(table, kind)
    shown = question(client)
    asked = KINDS[kind][0].yes  # (all but the card it asks about: "no, it was blue" to "blue?" is a yes)
    assert shown["cards"] == [c for c in ["blue", "pink", "yellow", "blank", "gray"] if c not in asked]
    assert shown["answers"] == ["yes", "no"]
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "gray"}).status_code == 200
    assert booked(client) == ["yellow", "gray", *later(kind)]
    assert question(client) is None and table.cards.question is None


def test_together_in_that_order_yes_books_both(table):
    table, client = table
    ask(table, "together")
    assert "cards" not in question(client)  # its no is about their order: entered card by card
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "yes"}).status_code == 200
    assert booked(client) == ["yellow", "blue", "pink"]


def test_together_in_the_other_order_entered_card_by_card_then_no(table):
    table, client = table
    ask(table, "together")
    for colour in ("pink", "blue"):
        assert client.post("/api/events", json={"type": "card_revealed", "card": colour}).status_code == 200
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no"}).status_code == 200
    assert booked(client) == ["yellow", "pink", "blue"]
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "pink"}).status_code == 409

"""Issue 24 part 3, round 36: "no — it was a gray card", the players' answer to a card question through the display's
API: the card truly laid is booked in its place, in one request; a request the question does not take is refused
where it enters (4xx), and leaves the question and the engine as they were."""

from __future__ import annotations

import pytest

from rig.games.frogs import flow
from tests.games.frogs.card_table import HAND, CardTable, CardView, booked, card, in_reveal, question, web


@pytest.fixture
def glimpsed(monkeypatch):
    """Bob's yellow lies; Cid's gray is glimpsed as it is laid and misread blue (the arm's shadow over it), then Bob's
    pink covers it and settles: the rig asks "were the next 2 cards laid blue, then pink?", the pink waiting."""
    service = in_reveal()
    table = CardTable(service)
    client = web(service, table)
    views = [CardView((card("yellow"),))] * 3 + [CardView((card("yellow"), card("blue", 430)))] * 2 + [HAND]
    views += [CardView((card("yellow"), card("pink", 435)))] * 3
    table.feed(monkeypatch, views)
    yield table, client
    client.close()
    service.close()


def test_a_glimpse_misread_the_players_name_the_card_and_it_is_booked_before_the_one_that_waited(glimpsed):
    table, client = glimpsed
    shown = question(client)
    assert shown["text"].startswith("Were the next 2 cards laid blue, then pink?")
    assert "gray" in shown["cards"]  # offered: no — it was gray
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "gray"}).status_code == 200
    assert booked(client) == ["yellow", "gray", "pink"]
    assert question(client) is None


def test_a_truthful_bare_no_still_books_what_it_did(glimpsed):
    table, client = glimpsed
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no"}).status_code == 200
    assert booked(client) == ["yellow", "pink"]  # (the card it was is the players' to name)


@pytest.mark.parametrize("body, status", [
    ({"answer": "no", "was": "purple"}, 422),  # no card of the game
    ({"answer": "no", "was": "Gray "}, 422),  # not as offered
    ({"answer": "yes", "was": "gray"}, 422),  # "yes — it was gray" says two things
    ({"answer": "no", "was": 3}, 422),
    ({"answer": "no", "was": ["gray"]}, 422),
    ({"answer": "no", "was": "x" * 5000}, 400),  # (the boundary: too long a string)
], ids=["unknown", "unlisted", "yes", "number", "list", "long"])
def test_a_card_the_question_does_not_offer_is_refused_and_changes_nothing(glimpsed, body, status):
    table, client = glimpsed
    before, asked = question(client), table.cards.question
    answered = client.post("/api/answer", json={"key": flow.QUESTION, **body})
    assert answered.status_code == status and "error" in answered.json()
    assert question(client) == before and table.cards.question is asked and booked(client) == ["yellow"]
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "gray"}).status_code == 200
    assert booked(client) == ["yellow", "gray", "pink"]  # the state unpoisoned: the right answer still works


def test_a_question_no_longer_open_is_refused(glimpsed):
    table, client = glimpsed
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "yes"}).status_code == 200
    cards = booked(client)
    again = client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "gray"})
    assert again.status_code == 409 and booked(client) == cards
    other = client.post("/api/answer", json={"key": flow.LATE_DICE, "answer": "no", "was": "gray"})
    assert other.status_code == 409 and booked(client) == cards


def test_the_reveal_gone_under_the_open_notice_is_a_question_no_longer_open(glimpsed):
    """The notice still on screen, the reveal gone (the turn moved on) between the tap and the request: 409."""
    table, client = glimpsed
    table.cards = None
    answered = client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "gray"})
    assert answered.status_code == 409 and booked(client) == ["yellow"]


def test_a_question_about_an_order_takes_no_card(monkeypatch):
    """"2 cards laid together: ... in that order?" offers no card: a card named for it is refused, nothing booked."""
    service = in_reveal()
    table = CardTable(service)
    client = web(service, table)
    try:
        table.feed(monkeypatch, [HAND] + [CardView((card("yellow"), card("pink", 435)))] * 3)
        shown = question(client)
        assert shown["text"].startswith("2 cards laid together") and "cards" not in shown, shown
        answered = client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "gray"})
        assert answered.status_code == 422 and booked(client) == [] and question(client) == shown
    finally:
        client.close()
        service.close()


def test_the_card_asked_about_is_not_offered_as_the_card_it_was_and_refused_if_named(glimpsed):
    """Round 37: "no, it was…" to "were the next 2 cards laid blue, then pink?" offers the other colours, not blue —
    "no, it was blue" says yes. Named anyway (an old page, a script): 422, nothing changes; the others still book."""
    table, client = glimpsed
    shown = question(client)
    assert shown["cards"] == ["pink", "yellow", "blank", "gray"]
    answered = client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "blue"})
    assert answered.status_code == 422 and "blue" in answered.json()["error"]
    assert question(client) == shown and booked(client) == ["yellow"]
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "pink"}).status_code == 200
    assert booked(client) == ["yellow", "pink", "pink"]  # (Cid's pink named for the glimpse, then Bob's that waited)


@pytest.mark.parametrize("kind", ["unread", "one"])
def test_a_question_naming_no_colour_offers_all_of_them(monkeypatch, kind):
    """A card the camera cannot read names no colour: all five are offered; "was that blue card one more?" all but blue."""
    from rig.vision.card_view import _UNREAD, Question

    service = in_reveal()
    table = CardTable(service)
    client = web(service, table)
    try:
        table.feed(monkeypatch, [CardView((card("yellow"),))] * 3)
        table.cards.question = _UNREAD if kind == "unread" else Question("was that blue card one more?", ("blue",))
        flow._book(table, None, [], None)
        offered = ["blue", "pink", "yellow", "blank", "gray"] if kind == "unread" else ["pink", "yellow", "blank", "gray"]
        shown = question(client)
        assert shown["cards"] == offered and shown.get("unread", False) is (kind == "unread")  # ("entered", "it was…")
    finally:
        client.close()
        service.close()

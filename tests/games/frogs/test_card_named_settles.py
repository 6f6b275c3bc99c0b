"""Issue 24 part 3, round 36: a card the players name in answer to a question about a glimpsed card ("was the next card
laid blue?" — "no, it was pink") is booked once: when the camera sees that card settle later where it was glimpsed, no
hand over that place since the question, it is the card named, lying there (as a card entered by hand that shows later:
:meth:`rig.vision.card_lying._LyingCards._adopt`) — a card of its colour laid there after (a hand over the place) is a
new card, booked (the same-colour pair, issue 24's headline)."""

from __future__ import annotations

import pytest

from rig.games.frogs import flow
from tests.games.frogs.card_table import CardTable, CardView, booked, card, in_reveal, question, web

YELLOW = card("yellow")
#: a hand over the place right of the yellow card (where the next card goes)
OVER_RIGHT = CardView((YELLOW,), ((420, 150, 200, 200),))


@pytest.fixture
def asked(monkeypatch):
    """Bob's yellow settles; Cid's pink is glimpsed right of it, misread blue (2 frames), a hand passes over it and the
    camera loses it (the yellow alone in view, which settles as it lay): "was the next card laid blue?"."""
    service = in_reveal()
    table = CardTable(service)
    client = web(service, table)
    views = [CardView((YELLOW,))] * 3 + [CardView((YELLOW, card("blue", 430)))] * 2 + [OVER_RIGHT]
    views += [CardView((YELLOW,))] * 3
    table.feed(monkeypatch, views)
    assert question(client)["text"].startswith("Was the next card laid blue?")
    yield table, client, monkeypatch
    client.close()
    service.close()


def test_the_card_named_then_seen_settle_where_it_was_glimpsed_is_booked_once(asked):
    table, client, monkeypatch = asked
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "pink"}).status_code == 200
    assert booked(client) == ["yellow", "pink"]
    table.feed(monkeypatch, [CardView((YELLOW, card("pink", 430)))] * 4)  # the camera sees it again, no hand since
    assert booked(client) == ["yellow", "pink"]
    assert question(client) is None


def test_a_pink_laid_there_after_the_answer_is_a_new_card(asked):
    table, client, monkeypatch = asked
    client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "pink"})
    # the pink seen again, then Bob lays a second pink on it, a little askew (a hand over the place between)
    table.feed(monkeypatch, [CardView((YELLOW, card("pink", 430)))] * 4 + [OVER_RIGHT] * 2)
    table.feed(monkeypatch, [CardView((YELLOW, card("pink", 445)))] * 4)
    assert booked(client) == ["yellow", "pink", "pink"]
    assert question(client) is None


def test_a_pink_laid_there_by_a_hand_after_the_answer_first_seen_then_is_booked(asked):
    """The pink named never shows again (under the one laid after, or off the camera's sight): the second pink, a hand
    bringing it over that place after the answer, is a card laid — booked, not taken for the one named."""
    table, client, monkeypatch = asked
    client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "pink"})
    table.feed(monkeypatch, [OVER_RIGHT] * 2 + [CardView((YELLOW, card("pink", 430)))] * 4)
    assert booked(client) == ["yellow", "pink", "pink"]
    assert question(client) is None


def test_a_yes_the_glimpse_then_seen_settle_where_it_was_glimpsed_is_booked_once(asked):
    """The same on a yes: the blue glimpsed was laid, and the camera sees it again later where it lay."""
    table, client, monkeypatch = asked
    assert client.post("/api/answer", json={"key": flow.QUESTION, "answer": "yes"}).status_code == 200
    table.feed(monkeypatch, [CardView((YELLOW, card("blue", 430)))] * 4)
    assert booked(client) == ["yellow", "blue"]
    table.feed(monkeypatch, [OVER_RIGHT] * 2 + [CardView((YELLOW, card("blue", 445)))] * 4)  # then one more blue on it
    assert booked(client) == ["yellow", "blue", "blue"]
    assert question(client) is None


@pytest.fixture
def laying(monkeypatch):
    """Round 37: as :func:`asked`, but Cid's hand is still over the pink as the yellow settles and the rig asks (the
    card being laid): the players answer before the camera has seen it settle."""
    service = in_reveal()
    table = CardTable(service)
    client = web(service, table)
    views = [CardView((YELLOW,))] * 3 + [CardView((YELLOW, card("blue", 430)))] * 2 + [OVER_RIGHT] * 3
    table.feed(monkeypatch, views)
    assert question(client)["text"].startswith("Was the next card laid blue?")
    yield table, client, monkeypatch
    client.close()
    service.close()


@pytest.mark.parametrize("answer, card_laid", [({"answer": "no", "was": "pink"}, "pink"), ({"answer": "yes"}, "blue")],
                         ids=["it-was", "yes"])
def test_a_card_named_while_the_hand_still_lays_it_then_seen_settle_is_booked_once(laying, answer, card_laid):
    table, client, monkeypatch = laying
    assert client.post("/api/answer", json={"key": flow.QUESTION, **answer}).status_code == 200
    assert booked(client) == ["yellow", card_laid]
    # the hand stays a moment, then leaves: the card it laid settles where it was glimpsed
    table.feed(monkeypatch, [OVER_RIGHT] * 2 + [CardView((YELLOW, card(card_laid, 430)))] * 4)
    assert booked(client) == ["yellow", card_laid]
    assert question(client) is None


@pytest.mark.parametrize("after", [
    [OVER_RIGHT] + [CardView((YELLOW, card("pink", 430)))] * 4 + [OVER_RIGHT] * 2,  # it shows, then a hand again
    [OVER_RIGHT, CardView((YELLOW,)), OVER_RIGHT, OVER_RIGHT],  # the hand leaves (the pink unseen), comes back
    [OVER_RIGHT],  # the hand that laid the named pink lays another on it, askew, and only then leaves
], ids=["seen-then-laid-on", "unseen-then-laid-on", "same-hand-lays-another"])
def test_a_pink_laid_after_the_one_named_while_being_laid_is_booked(laying, after):
    table, client, monkeypatch = laying
    client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "pink"})
    table.feed(monkeypatch, after + [CardView((YELLOW, card("pink", 445)))] * 4)
    assert booked(client) == ["yellow", "pink", "pink"]
    assert question(client) is None


# Round 37 (cardtwice): the card asked about settles where it was glimpsed *before* the players answer. It waits for the
# answer as a later card would; the answer (yes, or "no, it was pink") names that very card — booked once, not twice.
PINK_THERE = CardView((YELLOW, card("pink", 430)))
BLUE_THERE = CardView((YELLOW, card("blue", 430)))


@pytest.mark.parametrize("start", ["laying", "asked"])
@pytest.mark.parametrize("answer, settles, card_laid", [
    ({"answer": "no", "was": "pink"}, PINK_THERE, "pink"),
    ({"answer": "yes"}, BLUE_THERE, "blue"),
    ({"answer": "no", "was": "pink"}, BLUE_THERE, "pink"),  # read blue again where it settles: the players name it pink
], ids=["it-was", "yes", "it-was-read-blue"])
def test_the_card_asked_about_settling_before_the_answer_is_booked_once(request, start, answer, settles, card_laid):
    table, client, monkeypatch = request.getfixturevalue(start)
    table.feed(monkeypatch, [settles] * 4)  # (the hand laying it, if any, leaves; nothing else over that place)
    assert booked(client) == ["yellow"]  # it waits for the answer
    assert client.post("/api/answer", json={"key": flow.QUESTION, **answer}).status_code == 200
    assert booked(client) == ["yellow", card_laid]
    table.feed(monkeypatch, [settles] * 3)
    assert booked(client) == ["yellow", card_laid]
    assert question(client) is None


def test_a_no_to_the_card_asked_about_still_books_the_card_that_settled_there(laying):
    """A plain no (nothing was laid blue, no card named): the card that settled where it was glimpsed is booked."""
    table, client, monkeypatch = laying
    table.feed(monkeypatch, [PINK_THERE] * 4)
    client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no"})
    assert booked(client) == ["yellow", "pink"]
    assert question(client) is None


@pytest.mark.parametrize("before_answer", [
    [PINK_THERE] * 4 + [OVER_RIGHT] * 2 + [CardView((YELLOW, card("pink", 445)))] * 4,  # the named pink, then one on it
    [OVER_RIGHT] * 2 + [CardView((YELLOW, card("pink", 445)))] * 4,  # the hand lays another on it, askew, then leaves
    [OVER_RIGHT, CardView((YELLOW,)), OVER_RIGHT, OVER_RIGHT] + [PINK_THERE] * 4,  # it leaves, comes back, lays one
], ids=["settled-then-laid-on", "same-hand-lays-another", "hand-back-over-the-place"])
def test_a_pink_laid_after_the_one_asked_about_before_the_answer_is_booked(laying, before_answer):
    """A card of the named colour that settled on other edges, or after a hand came over the place again since the
    question (the hand laying the card asked about gone), is a new card: booked once the answer comes."""
    table, client, monkeypatch = laying
    table.feed(monkeypatch, before_answer)
    client.post("/api/answer", json={"key": flow.QUESTION, "answer": "no", "was": "pink"})
    table.feed(monkeypatch, [before_answer[-1]] * 3)
    assert booked(client) == ["yellow", "pink", "pink"]
    assert question(client) is None

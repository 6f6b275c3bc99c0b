"""The reveal on the camera side: cards booked in the order laid, questions asked and answered."""

from __future__ import annotations

import threading

from rig.games.frogs import flow
from rig.vision.cards import CardReading, CardView


class Table:
    """What the flow uses of the runner: the reveal's state, events submitted, notices shown."""

    def __init__(self):
        self.cards = None
        self.cards_lock = threading.RLock()
        self.card_frames = 2
        self.profile = None
        self.events, self.notices = [], {}

    def submit_event(self, event):
        self.events.append(event)

    def notice(self, key, text, kind="warn", *, ask=False, **_):
        if text is None:
            self.notices.pop(key, None)
        else:
            self.notices[key] = (text, ask)


def card(colour, x=100.0, dx=0.0, angle_dx=0.0):
    """A card's reading with its field's corners (a 200 x 280 px card at x, shifted by dx)."""
    corners = ((x + dx, 100 + angle_dx), (x + 200 + dx, 100), (x + 200 + dx, 380), (x + dx, 380))
    return CardReading(colour, 1.0, "ok", (), (int(x + dx), 100, 200, 280), corners)


def feed(table, monkeypatch, views):
    for view in views:
        monkeypatch.setattr("rig.vision.cards.read_cards", lambda frame, profile, v=view: v)
        flow.read_card(table, 1000, None)


HAND = CardView((), ((150, 200, 200, 200),))


def test_same_colour_cards_laid_on_a_pile_are_two_cards(monkeypatch):
    table = Table()
    views = [CardView((card("pink"),))] * 2 + [HAND] + [CardView((card("pink", dx=25, angle_dx=10),))] * 2
    views += [HAND] + [CardView((card("blue", dx=5),))] * 2 + [HAND] + [CardView((card("blue", dx=-20),))] * 2
    feed(table, monkeypatch, views)
    assert [e["card"] for e in table.events] == ["pink", "pink", "blue", "blue"]
    assert not table.notices


def test_cannot_tell_asks_and_holds_the_later_cards_until_answered(monkeypatch):
    table = Table()
    # a second pink, its edges only a little off the first after a hand passed: was one laid?
    views = [CardView((card("pink"),))] * 2 + [HAND] + [CardView((card("pink", dx=8),))] * 2
    views += [HAND] + [CardView((card("blue", dx=60, angle_dx=20),))] * 2  # then a blue on top
    feed(table, monkeypatch, views)
    assert [e["card"] for e in table.events] == ["pink"]  # the blue waits: it may be the third card
    text, ask = table.notices[flow.QUESTION]
    assert ask and "second pink card" in text and "1 later card" in text
    assert flow.on_answer(table, flow.QUESTION, True)
    assert [e["card"] for e in table.events] == ["pink", "pink", "blue"]
    assert flow.QUESTION not in table.notices
    assert not flow.on_answer(table, flow.QUESTION, True)  # nothing open any more


def test_answered_no_the_later_card_takes_the_next_slot(monkeypatch):
    table = Table()
    views = [CardView((card("pink"),))] * 2 + [HAND] + [CardView((card("pink", dx=8),))] * 2
    views += [HAND] + [CardView((card("blue", dx=60, angle_dx=20),))] * 2
    feed(table, monkeypatch, views)
    assert flow.on_answer(table, flow.QUESTION, False)
    assert [e["card"] for e in table.events] == ["pink", "blue"]

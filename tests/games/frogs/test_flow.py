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
    assert ask and "second pink card" in text and text.endswith("(1 later card waits for the answer)")  # (said "wait")
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


class Service:
    def __init__(self, turn):
        self.turn = turn

    def state(self):
        return {"turn": self.turn}


def late_dice_table(number=3, roller="Ada"):
    table = Table()
    table.asked = {}
    table.service = Service({"number": number, "roller": roller, "started": True, "phase": "copy"})
    from rig.vision.roll_events import DiceAppeared

    appeared = DiceAppeared(5000, 5, 6, (("not_all_dice_after_three", "5 of 6 dice cast after roll 3"),
                                         ("fourth_roll", "roll 4: only 3 rolls are allowed")))
    assert flow.on_camera_event(table, appeared) is True
    return table


def test_a_die_seen_after_the_last_roll_is_asked_about_and_yes_books_the_roll_too_many():
    table = late_dice_table()
    text, ask = table.notices[flow.LATE_DICE]
    assert ask and text.startswith("one more die seen after the last roll: did Ada throw it after that roll?")
    assert table.events == []  # nothing booked until the players say
    assert flow.on_answer(table, flow.LATE_DICE, True) is True
    assert [(e["kind"], e["player"]) for e in table.events] == [("not_all_dice_after_three", "Ada"), ("fourth_roll", "Ada")]
    assert "t_us" not in table.events[0]  # the engine's clock stamps an answer
    assert flow.LATE_DICE not in table.notices and table.asked == {}
    assert flow.on_answer(table, flow.LATE_DICE, True) is False  # answered once


def test_no_means_the_die_lay_hidden_and_nothing_is_booked():
    table = late_dice_table()
    assert flow.on_answer(table, flow.LATE_DICE, False) is True
    assert table.events == [] and flow.LATE_DICE not in table.notices


def test_the_question_goes_with_its_turn():
    table = late_dice_table(number=3)
    flow.on_frame(table, 6000, None, {"turn": {"number": 3, "phase": "copy"}})
    assert flow.LATE_DICE in table.notices  # still this turn
    table.service.turn = {"number": 4, "roller": "Ben", "started": False, "phase": "waiting"}
    flow.on_frame(table, 7000, None, {"turn": table.service.turn})
    assert flow.LATE_DICE not in table.notices and table.asked == {}


def test_a_no_to_two_cards_both_glimpsed_asks_again_about_the_first_with_the_card_after_them(monkeypatch):
    # issue 24 part 3, round 35: a blue card glimpsed as it was laid, then the arm's shadow read a moment as a gray card
    # where a pink card then settles. Asked "were the next 2 cards laid blue, then gray?", the players truthfully say
    # no (no gray card was laid); before, the no booked neither and the real blue card was lost
    table = Table()
    table.card_frames = 3
    views = [CardView((card("yellow"),))] * 3 + [CardView((card("yellow"), card("blue", 430)))] * 2 + [HAND]
    views += [CardView((card("yellow"), card("gray", 440)))] * 2 + [HAND]  # the shadow, read as a gray card
    views += [CardView((card("yellow"), card("pink", 435)))] * 3
    feed(table, monkeypatch, views)
    assert [e["card"] for e in table.events] == ["yellow"]
    assert table.notices[flow.QUESTION][0].startswith("Were the next 2 cards laid blue, then gray?")
    assert flow.on_answer(table, flow.QUESTION, False)  # no gray card was laid
    # asked again: the blue with the card after the gray (not alone: a player counting the cards would say yes for
    # a blue held for the answer)
    text, ask = table.notices[flow.QUESTION]
    assert ask and text.startswith("Were the next 2 cards laid blue, then pink?")  # on screen with yes and no
    assert flow.on_answer(table, flow.QUESTION, True)
    assert [e["card"] for e in table.events] == ["yellow", "blue"]
    assert table.notices[flow.QUESTION][0].startswith("Were the next 2 cards laid gray, then pink?")
    assert flow.on_answer(table, flow.QUESTION, False)  # the pink settled in view: a no is the gray's, not asked again
    assert [e["card"] for e in table.events] == ["yellow", "blue", "pink"]
    assert flow.QUESTION not in table.notices


def test_a_no_to_two_cards_both_glimpsed_then_no_again_books_neither(monkeypatch):
    # the same glimpses, but the blue was a misread too: no, and no again — only the pink that settled is booked
    table = Table()
    table.card_frames = 3
    views = [CardView((card("yellow"),))] * 3 + [CardView((card("yellow"), card("blue", 430)))] * 2 + [HAND]
    views += [CardView((card("yellow"), card("gray", 440)))] * 2 + [HAND]
    views += [CardView((card("yellow"), card("pink", 435)))] * 3
    feed(table, monkeypatch, views)
    for _ in range(3):
        assert flow.on_answer(table, flow.QUESTION, False)
    assert [e["card"] for e in table.events] == ["yellow", "pink"]
    assert flow.QUESTION not in table.notices

"""No card read that reaches the view's edge is an arm, not "the camera cannot read the card just laid" (issue 24
part 3, round 30). Twin 4911 reveal 1 (the fresh set 4900-4918 of round 30, seen once its figures were read; JPEG
4:4:4 q95 with its table's calibrated profile and empty box): the arm waiting at the view's bottom-left edge read now
as an arm, now as "yellow or gray card? its field is as neutral as its border". Asked to enter the card just laid,
the players entered the blue; the camera then booked that blue too: five blues for four, in silence."""

from rig.vision.cards import CardReading, _unread_at_edge
from tests.vision.test_cards_arm import _read


def test_the_waiting_arms_skin_at_the_views_edge_is_no_card():
    view = _read("t4911-reveal1-0-laid")
    assert [(c.card, c.status) for c in view.cards] == [("blue", "ok")]
    assert (0, 246, 136, 234) in view.hands


def test_only_a_reading_of_no_colour_reaching_the_edge_is_taken_for_the_arm():
    size = (640, 480)
    unread = CardReading(None, 0.0, "uncertain", ("yellow or gray card?",), (0, 246, 136, 234))
    assert _unread_at_edge(unread, size)
    assert not _unread_at_edge(CardReading(None, 0.0, "uncertain", (), (120, 200, 160, 220)), size)  # in view: asked
    assert not _unread_at_edge(CardReading("blue", 1.0, "ok", (), (0, 246, 136, 234)), size)  # a card read: kept


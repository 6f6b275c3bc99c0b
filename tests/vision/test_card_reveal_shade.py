"""A lying card the waiting arm's shade cuts, read "of unknown colour" inside its own box, is that card (issue 24 part
3, round 18): before, the unread reading held every later card back until the arm left (twin 3616 reveal 1: the last
two pink cards never booked, the rig waiting)."""

from rig.vision.cards import CardReading, CardReveal, CardView
from tests.vision.test_cards_twin import _replay

SIZE = (640, 480)
BLANK = CardReading("blank", 1.0, "ok", (), (58, 76, 148, 216), ((60.0, 78.0), (204.0, 78.0), (204.0, 290.0), (60.0, 290.0)))
ARM = (0, 236, 178, 244)  # waiting at the view's bottom-left edge, its shade on the blank card's lower border


def _pink(x):
    return CardReading("pink", 1.0, "ok", (), (int(x), 94, 188, 238),
                       ((x, 94.0), (x + 188, 94.0), (x + 188, 332.0), (x, 332.0)))


def _cut(box=(58, 76, 150, 208)):
    """The blank card read without its lower border (the shade cuts it): a card of unknown colour."""
    x, y, w, h = box
    return CardReading(None, 0.0, "uncertain", ("card of unknown colour (off gray by 23)",), box,
                       ((x + 2.0, y + 2.0), (x + w - 2.0, y + 2.0), (x + w - 2.0, y + h - 2.0), (x + 2.0, y + h - 2.0)))


def _reveal(cut):
    """The blank card laid, then a pink card brought beside it by a hand from the right, then the arm waiting at the
    bottom-left while the blank card reads ``cut``."""
    reveal = CardReveal(settle=3)
    stream = [CardView((BLANK,), (), SIZE)] * 4 + [CardView((BLANK,), ((548, 140, 92, 216),), SIZE)] * 2
    stream += [CardView((_pink(300.0), cut), (ARM,), SIZE)] * 4
    return reveal, [c for view in stream for c in reveal.feed(view)]


def test_a_lying_card_cut_by_the_arms_shade_inside_its_box_does_not_hold_the_next_card():
    reveal, booked = _reveal(_cut())
    assert booked == ["blank", "pink"] and reveal.question is None


def test_an_unread_card_reaching_beyond_the_lying_cards_box_still_holds_the_next():
    # (a guard: read wider than the card lying there — another card across it? — it is no part of that card)
    reveal, booked = _reveal(_cut((58, 76, 190, 216)))
    assert booked == ["blank"] and reveal.question is None


def test_twin_3616_reveal_1_books_every_card():
    # blank, blank, pink x 4 on a pile: the first blank card, its lower border in the shade of the arm waiting at the
    # bottom-left, read "of unknown colour" as the second blank and the last two pinks were laid. Before: the second
    # blank asked about twice ("were the next 2 cards laid blank, then blank?", no; "2 cards laid together"), the last
    # two pinks never booked (missing 2)
    cards, booked, questions = _replay("t3616-reveal1")
    assert booked == cards and questions == []

"""A card that lay still, read again as several cards settle at once, is not laid again with the next one (issue 24
part 3, round 17): on a frame of its settle it is read on its own very edges (or on edges it was read with before,
nothing over it) or on its very blob, no hand ever over a third of it, so it is that card — not "n cards laid
together" (twin 2401, 2816, 2905, 3118, 3311: each a truthful no)."""

import dataclasses

from rig.vision.cards import CardReading, CardReveal, CardView
from tests.vision.test_cards_twin import _replay

PILE = (100, 100, 200, 280)


def _blue(dx=0.0, turn=0.0):
    """The blue card on its blob ``PILE``, its corners read ``dx`` px apart (and its right side ``turn`` px lower)."""
    x, y = 100.0 + dx, 100.0
    corners = ((x, y), (x + 200, y + turn), (x + 200, y + 280 + turn), (x, y + 280))
    return CardReading("blue", 1.0, "ok", (), PILE, corners, pile=PILE)


PINK = CardReading("pink", 1.0, "ok", (), (400, 100, 200, 280), ((400, 100), (600, 100), (600, 380), (400, 380)),
                   pile=(400, 100, 200, 280))
HAND = CardView((), ((150, 200, 200, 200),))  # a hand over the blue card


def _reveal(settling, hand=HAND):
    """The blue card laid, a hand over it, then the frames in which the pink card laid beside it settles."""
    reveal = CardReveal(settle=3)
    stream = [CardView((_blue(),))] * 3 + [hand] * 2 + [CardView(cards) for cards in settling]
    return reveal, [c for view in stream for c in reveal.feed(view)]


def test_a_lying_card_read_on_its_own_edges_as_the_next_settles_is_not_laid_again():
    # the blue card's corners read 40 px askew in the last frame of the pink card's settle (its blob the same): before,
    # a new blue card with the pink one — "2 cards laid together: blue, pink in that order?"
    reveal, booked = _reveal([(_blue(), PINK), (_blue(), PINK), (_blue(0, 40), PINK)])
    assert booked == ["blue", "pink"] and reveal.question is None


def test_a_lying_card_read_apart_in_every_frame_of_the_settle_is_still_asked_about():
    # never on its own edges while the pink card settled: a card may have been laid on it (as before)
    reveal, booked = _reveal([(_blue(0, 40), PINK)] * 3)
    assert booked == ["blue"] and reveal.question is not None and "together" in reveal.question.text


def test_a_card_read_again_in_one_frame_of_its_settle_is_not_laid_again_on_the_twin():
    # twin 2401 reveal 0 (blue x 4, blank x 3): the first blue card, alone in the row's first place, read on its own
    # edges in the frames of the second blank's settle but one, in which its corners read askew (62 % apart). Before:
    # "2 cards laid together: blue, blank in that order?" (a truthful no)
    cards, booked, questions = _replay("t2401-reveal0")
    assert booked == cards and questions == []


def test_a_lying_card_no_hand_covered_on_its_very_blob_is_not_laid_again_with_the_next():
    # a hand reached a corner of the blue card (never over a third of it, the card seen all along); as the pink card
    # settles, the blue is read on its very blob (the same to a few px), its corners 40 px askew in every frame: that
    # card (twin 3118: a blank card's field read 15 % apart beside the yellow laid next). Before: "2 cards laid together"
    reveal, booked = _reveal([(_blue(0, 40), PINK)] * 3, CardView((_blue(),), ((280, 340, 100, 100),)))
    assert booked == ["blue", "pink"] and reveal.question is None


def test_a_card_read_on_its_very_blob_beside_the_next_is_not_laid_again_on_the_twin():
    # twin 3118 reveal 0 (blank x 4, yellow x 2, gray): the first blank card, its blob the same to the pixel while the
    # second yellow is laid on the yellow pile beside it, its field's corners read 15 % apart. Before: "2 cards laid
    # together: yellow, blank in that order?" (a truthful no). (Read by round 16's reader: t3118-reveal0 is round 12's)
    cards, booked, questions = _replay("t3118-reveal0-r16c")
    assert booked == cards and not any("together" in q.text for q in questions)


def test_a_lying_card_a_hand_was_over_on_its_very_blob_is_still_asked_about():
    # a hand's blob over a third of the blue card or more (the card read through it): a card may have been laid on it
    reveal, booked = _reveal([(_blue(0, 40), PINK)] * 3, CardView((_blue(),), ((100, 100, 150, 200),)))
    assert booked == ["blue"] and reveal.question is not None and "together" in reveal.question.text


JOINED = (100, 100, 500, 280)  # the blue card's blob and the pink card's beside it, touching: one blob


def test_a_blob_grown_by_a_new_card_of_another_colour_beside_is_no_card_laid_on_the_one_there():
    # the blue card on its very edges after a hand was over it, its blob grown — by the pink card laid beside it,
    # touching it. Before: "a second blue card?" (its pile grew) with the pink one, "2 cards laid together" (twin 2712)
    joined = [(dataclasses.replace(_blue(), pile=JOINED), dataclasses.replace(PINK, pile=JOINED))] * 3
    reveal, booked = _reveal(joined)
    assert booked == ["blue", "pink"] and reveal.question is None


def test_a_blob_grown_beside_a_card_that_lay_there_before_is_still_asked_about():
    # the pink card lay there before (its edges as they were): the blob's growth is the blue pile's, "a second blue?"
    reveal = CardReveal(settle=3)
    stream = [CardView((_blue(),))] * 3 + [CardView((_blue(), PINK))] * 3 + [CardView((PINK,), HAND.hands)] * 2
    stream += [CardView((dataclasses.replace(_blue(), pile=JOINED), dataclasses.replace(PINK, pile=JOINED)))] * 3
    assert [c for view in stream for c in reveal.feed(view)] == ["blue", "pink"]
    assert reveal.question is not None and reveal.question.text == "was that a second blue card?"


def test_a_card_its_blob_joined_by_the_next_laid_beside_it_is_not_laid_again_on_the_twin():
    # twin 2712 reveal 0 (blue x 2, blank x 2, blue x 2, yellow): the yellow card laid on the blue pile touches the
    # first blue card, alone on its very edges: one blob. Before: "2 cards laid together: yellow, blue?" (a truthful no)
    cards, booked, questions = _replay("t2712-reveal0")
    assert booked == cards and questions == []

"""Cards laid on a pile the camera saw only a moment (issue 24 part 3, round 24; round 23's fresh card set, seen now).

Twin 4205 reveal 1 (gray x 4, blue, blue, yellow laid): a blob of no card's shape lay still over the gray pile a card's
settle (not asked: that takes a frame more), then a hand came over it and the blob lay still again — the third and the
fourth grays laid askew; one question entered one card, and blue, blue, yellow were booked a slot early in silence.
Twin 4210 reveal 1: a blank laid squarely on the blank pile, the gray beside it hidden a while under the arm that laid
the one before; the gray was asked about, not the blank whose print moved."""

from rig.vision.card_reveal import _UNSEEN, _UNSEEN_BEFORE
from tests.vision.test_cards_twin import _replay


def test_twin_4205_reveal_1_two_grays_under_a_blob_are_asked_about_one_by_one():
    cards, booked, questions = _replay("t4205-reveal1")
    assert cards == ["gray", "gray", "gray", "gray", "blue", "blue", "yellow"]
    assert booked == cards  # before: gray, gray, gray, blue, blue, yellow (2 booked wrong in silence, one missing)
    assert questions == [_UNSEEN_BEFORE, _UNSEEN]  # before: the last one alone


def test_twin_4210_reveal_1_a_blank_laid_squarely_on_the_blank_pile_is_booked_by_its_print_not_the_gray_asked():
    # gray x 3, blank x 3 laid; the fifth, a blank laid squarely on the blank pile while the gray card beside it had lain
    # under the arm that laid the fourth: both hidden since the last settle, the blank's print moved, the gray's not.
    # Before: "was that a second gray card?" (a truthful no) and the fifth card missing.
    cards, booked, questions = _replay("t4210-reveal1")
    assert cards == ["gray", "gray", "gray", "blank", "blank", "blank"]
    assert booked == cards
    assert questions == []


def test_twin_4216_reveal_1_a_lying_gray_read_wider_with_its_print_in_place_is_no_card_coming_in():
    # gray, gray, blank x 3, yellow laid; the left gray, read wider towards the hand laying on the right pile (its box 10
    # px wider, no pile outline), its print within 0.1 px of where it lay: that card, not one of its colour coming in.
    # Before: "2 cards laid together: gray, blank in that order?" at the third card's settle, and again at the sixth's.
    cards, booked, questions = _replay("t4216-reveal1")
    assert cards == ["gray", "gray", "blank", "blank", "blank", "yellow"]
    assert booked == cards
    assert len(questions) == 1  # before: 3 (the fifth card's: the gray read wider with no print found, still asked)

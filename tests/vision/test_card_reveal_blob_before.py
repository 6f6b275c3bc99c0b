"""Cards laid on a pile the camera saw only a moment (issue 24 part 3, round 24; round 23's fresh card set, seen now).

Twin 4205 reveal 1 (gray x 4, blue, blue, yellow laid): a blob of no card's shape lay still over the gray pile a card's
settle (not asked: that takes a frame more), then a hand came over it and the blob lay still again — the third and the
fourth grays laid askew; one question entered one card, and blue, blue, yellow were booked a slot early in silence.
Twin 4210 reveal 1: a blank laid squarely on the blank pile, the gray beside it hidden a while under the arm that laid
the one before; the gray was asked about, not the blank whose print moved. Twin 4211 reveal 1: a gray laid askew on
the gray pile, seen on the pile's box with its print moved, taken for the pile (and twin 4309 reveal 0, round 25: a blue on
the blue pile). Twin 4310 reveal 0: a card glimpsed lying as the rig asks to enter the last one is that card."""

from rig.vision.card_reveal import _UNSEEN, _UNSEEN_BEFORE, CardReveal
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


def test_twin_4211_reveal_1_a_gray_seen_on_the_gray_piles_box_its_print_moved_is_booked_before_the_next():
    # gray x 4 laid; the third, laid on the right pile a few degrees askew (the pile's box the same within 6 px, its
    # edges 14.5 % apart, its print 11 px) while an arm waited at the bottom-left edge, lay 4 frames but never settled
    # (the left card read now absent, now in part); before, it was taken for the pile on its box and went missing.
    cards, booked, questions = _replay("t4211-reveal1")
    assert cards == ["gray", "gray", "gray", "gray"]
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


def test_twin_4309_reveal_0_a_blue_seen_on_the_blue_piles_box_its_print_moved_is_booked_before_the_next():
    # blank, blank, blue x 3, pink, pink laid (round 24's fresh set, seen now); the fourth card, a blue laid on the blue
    # pile, lay 4 frames on the pile's box (its print 12 px from where the third lay) while an arm waited at the left
    # edge over the blank (read unsure: no settle). Before: taken for the pile, the fifth (a blue) booked in its slot and
    # the first pink in the fifth's — one card booked wrong without a question, one missing.
    cards, booked, questions = _replay("t4309-reveal0")
    assert cards == ["blank", "blank", "blue", "blue", "blue", "pink", "pink"]
    assert booked == cards
    assert questions == []


def test_twin_4310_reveal_0_a_card_glimpsed_as_the_rig_asks_to_enter_the_last_one_is_not_booked_again(monkeypatch):
    # pink x 4, yellow laid (round 24's fresh set); the second and the fourth pinks lay still on the right pile while
    # the arm's blob lay still over the left one: "enter the last one by hand" asked and answered each time, and the
    # card glimpsed lying then is the one entered. Before (with the 4211/4309 rule above): the fourth pink booked again
    # from the glimpse as the yellow settled on it — pink x 5 in silence; and the second booked again at the third's
    # settle (then the fourth's question was answered "none laid" by the bench, that knows what was booked).
    # (round 26: the left pile under the arm is now borne as the pink lying there and the pink on the right settles,
    # booked with no question — the questions come back with that rule off, and the glimpse is still not booked twice)
    monkeypatch.setattr(CardReveal, "_under_arm", staticmethod(lambda *a: False))
    cards, booked, questions = _replay("t4310-reveal0")
    assert cards == ["pink", "pink", "pink", "pink", "yellow"]
    assert booked == cards
    assert questions == [_UNSEEN, _UNSEEN]


def test_twin_4301_reveal_1_the_last_card_read_as_a_blob_on_its_box_one_frame_still_settles():
    # yellow, yellow, blank, blank, gray laid (round 24's fresh set); the gray, laid on the blank pile, read on one box
    # in frames 26, 28 and 29 and as a blob of no card's shape on that very box in frame 27. Before: the count began
    # anew after the blob, and the reveal ended one frame short of the gray's settle (missing, not booked wrong).
    cards, booked, questions = _replay("t4301-reveal1")
    assert cards == ["yellow", "yellow", "blank", "blank", "gray"]
    assert booked == cards
    assert questions == []

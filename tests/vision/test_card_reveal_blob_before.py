"""A blob of no card's shape that lay still over the pile a card's settle (not asked: that takes a frame more), then a
hand came over it and the blob lay still again: a card may lie under each (issue 24 part 3, round 24: twin 4205 reveal
1, round 23's fresh card set, seen now — gray x 4, blue, blue, yellow laid; the third gray laid askew on the gray pile
read as a blob 3 frames, the fourth gray too: one question entered one card, and blue, blue, yellow were booked a slot
early in silence)."""

from rig.vision.card_reveal import _UNSEEN, _UNSEEN_BEFORE
from tests.vision.test_cards_twin import _replay


def test_twin_4205_reveal_1_two_grays_under_a_blob_are_asked_about_one_by_one():
    cards, booked, questions = _replay("t4205-reveal1")
    assert cards == ["gray", "gray", "gray", "gray", "blue", "blue", "yellow"]
    assert booked == cards  # before: gray, gray, gray, blue, blue, yellow (2 booked wrong in silence, one missing)
    assert questions == [_UNSEEN_BEFORE, _UNSEEN]  # before: the last one alone

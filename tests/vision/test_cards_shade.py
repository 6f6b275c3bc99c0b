"""Cards joined by an arm's shade, and a card beside the arm (issue 24 part 3, round 15): frames of seen twin tables
3208, 3201 and 2402 (JPEG 4:4:4 q95, with their tables' calibrated profiles and empty boxes) that the reader read as
a hand — "the camera cannot make out the cards just laid" while the camera saw the cards."""

from tests.vision.test_cards_arm import _read


def test_a_pile_joined_by_the_arms_shade_with_no_arm_told_is_read_without_the_shade():
    # twin 3208 reveal 0, the second gray laid askew on the first: the arm's shade on the floor below the pile joins
    # it into one blob of no card's shape, and the arm (at the view's corner) is too small a blob to be told — no
    # arm, so the shade was kept and the pile read as a hand. Without the shade it is the gray pile
    view = _read("t3208-reveal0-1-laid")
    assert [(c.card, c.status) for c in view.cards] == [("gray", "ok")] and not view.hands
    x, y, w, h = view.cards[0].box
    assert 230 <= x <= 260 and 120 <= y <= 150 and w < 240  # the pile, not the pile and the shade below it
    assert view.cards[0].pile == view.cards[0].box  # a pile's top, not a part beside an arm


def test_a_card_left_beside_a_card_read_in_the_arms_shade_is_read_without_the_shade():
    # twin 3201 reveal 1: the blank card on the left and the blue pile on the right, joined by the arm's shade
    # below them. The blue field was found whole in the blob and the rest — the blank card and the shade — was a
    # hand lying still; without the shade both cards read
    view = _read("t3201-reveal1-2-laid")
    assert sorted((c.card, c.status) for c in view.cards) == [("blank", "ok"), ("blue", "ok")]
    blank = next(c for c in view.cards if c.card == "blank")
    assert 140 <= blank.box[0] <= 180 and blank.box[2] < 200  # the left card alone
    assert all(h[0] == 0 for h in view.hands)  # only the arm at the view's edge is a hand


def test_a_card_beside_the_arm_cut_by_it_is_read_by_its_labels():
    # twin 2402 reveal 1: the first blue card touches the arm waiting at the view's bottom-left; apart from the
    # arm it is a card's shape cut at its corner, and the ring read as its white border holds blue field: "blue or
    # gray card? its field is as neutral as its border" in every frame, asked as cards the camera cannot make out
    view = _read("t2402-reveal1-1-laid")
    assert [(c.card, c.status) for c in view.cards] == [("blue", "ok"), ("blue", "ok")]
    beside = min(view.cards, key=lambda c: c.box[0])
    assert 110 <= beside.box[0] <= 150 and beside.pile is None  # beside the arm: the reveal knows where it lies
    assert len(view.hands) == 1 and view.hands[0][0] == 0


def test_a_hand_beside_the_arm_labelled_a_card_colour_is_no_card():
    # twin 3206 reveal 1: the hand bringing the gray card over the pile, its skin labelled yellow (so not told as the
    # arm by its hue), is a part beside the arm that its border leaves unread ("yellow or gray card?") like 2402's
    # blue card — read by its labels it was a yellow card, and the reveal asked about a card glimpsed and covered.
    # Only blue and blank, colours no arm shows, are read so
    view = _read("t3206-reveal1-4-hand")
    assert "yellow" not in [c.card for c in view.cards]
    assert [c.card for c in view.cards if c.status == "ok"] == ["pink"]

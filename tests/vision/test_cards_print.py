"""A field-shaped shadow told from a gray card by the card's print, a card beside a pile read apart from it, a field
alone measured against its border (issue 24 part 3, round 16): frames of seen twin tables 3200, 3211, 3309, 3414
and 3416 (JPEG 4:4:4 q95, with their tables' calibrated profiles and empty boxes)."""

from tests.vision.test_cards_arm import _read


def test_the_arms_rectangular_shadow_is_no_gray_card():
    # twin 3211 reveal 0, the first gray card laid: the waiting arm's shadow on the box bottom is the floor darkened
    # alike, of a card field's size and shape — kept as a possible gray field (a gray field on a floor as light as
    # its white border changes like shade) and read as a second gray card: "2 cards laid together". It shows no icon
    view = _read("t3211-reveal0-0-laid")
    assert [(c.card, c.status) for c in view.cards] == [("gray", "ok")]
    assert view.cards[0].box[0] < 100  # the card at the left, not the shadow by the arm


def test_the_arms_shadow_with_its_dark_umbra_is_no_gray_card():
    # twin 3200 reveal 0: the shadow's lower half is the arm's dark umbra, reaching the shadow's edges — dark in its
    # middle like an icon, but the field round the middle is as dark: no print
    view = _read("t3200-reveal0-0-laid")
    assert [(c.card, c.status) for c in view.cards] == [("gray", "ok")]
    assert view.cards[0].box[0] < 200


def test_a_gray_card_that_changes_like_shade_is_still_read_by_its_icon():
    # twin 3309 reveal 0, the fourth card: a gray card on a light floor, its field changing like shade; its icon
    # (half its field's middle, 20 darker than the field round it) keeps it
    view = _read("t3309-reveal0-3-laid")
    assert [(c.card, c.status) for c in view.cards] == [("gray", "ok")]


def test_a_card_beside_a_pile_cut_by_the_arms_shade_is_a_card_not_a_hand():
    # twin 3416 reveal 1, the fifth card: the arm waits at the bottom-left, its shade on the pink card's left side;
    # the blue pile's lower card touches the pink card's corner. Apart from the arm, the blue top's whole field was
    # found and the rest — the pink card — was a hand lying still: "the camera cannot make out the cards just laid"
    view = _read("t3416-reveal1-4-laid")
    assert sorted((c.card, c.status) for c in view.cards) == [("blue", "ok"), ("pink", "ok")]
    pink = next(c for c in view.cards if c.card == "pink")
    assert 90 <= pink.box[0] <= 130 and pink.pile is None
    assert all(h[0] == 0 for h in view.hands)  # only the arm at the view's edge


def test_a_cards_field_alone_is_measured_against_the_border_round_it():
    # twin 3414 reveal 1, the second blank card: on a light floor its white border changed too little from the empty
    # box to be in the blob — the blob is the violet field alone, and its own outer ring, measured as its border,
    # made it "as neutral as its border" ("blank or gray card?", asked as a card it cannot read). Against the
    # lighter ring round it (the border) it is violet: blank
    view = _read("t3414-reveal1-1-laid")
    assert [(c.card, c.status) for c in view.cards] == [("blank", "ok"), ("blank", "ok")]

"""The arm's shadow cut off a card by the shade between them is no gray card (issue 24 part 3, round 27): a frame of
seen twin table 4503 (JPEG 4:4:4 q95, with its table's calibrated profile and empty box)."""

from tests.vision.test_cards_arm import _read


def test_the_arms_shadow_cut_off_a_card_on_a_dark_floor_is_no_gray_card():
    # twin 4503 reveal 0, the first blue card laid: the arm waits at the view's bottom-left edge; its shadow on the dark,
    # patterned floor touches the card and is cut off it by the shade between them (`_split_shadow`). The shadow's
    # part (1.1 long over short, 0.44 of a card) read as a gray card: "were the next 2 cards laid blue, then gray?",
    # and one blue card went missing
    view = _read("t4503-reveal0-0-laid")
    assert [(c.card, c.status) for c in view.cards] == [("blue", "ok")]
    assert view.cards[0].box[0] > 200  # the blue card, not the shadow at the left
    assert len(view.hands) == 1 and view.hands[0][0] == 0  # the arm at the edge

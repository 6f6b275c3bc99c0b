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


def test_a_gray_card_joined_by_the_arms_shadow_is_read_on_its_own_outline():
    # twin 4603 reveal 0, the first yellow card laid on the second gray one: the arm waits at the view's bottom-left
    # edge and its shadow on the dark floor joins the first gray card's lower edge. Card and shadow were read as one
    # gray card 278 px tall (a card there is 204): the card "changed", so the reveal asked "2 cards laid together:
    # yellow, gray in that order?" four times in one reveal. Read without the shade, the card is its own size
    view = _read("t4603-reveal0-2-laid")
    assert [(c.card, c.status) for c in view.cards] == [("yellow", "ok"), ("gray", "ok")]
    gray = view.cards[1]
    assert gray.box[1] == 139 and 195 <= gray.box[3] <= 210  # the card alone, not the shadow below it
    assert len(view.hands) == 1 and view.hands[0][0] == 0  # the arm at the edge

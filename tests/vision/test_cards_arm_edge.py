"""What the view's edge cuts off beside an arm is the arm's own, not a card's part (issue 24 part 3, round 30): a card
lies on the box's floor, inside the view. Twin 4815 reveal 0 (seen set 4800-4818; JPEG 4:4:4 q95 with its table's
calibrated profile and empty box, and the reveal's views read with this reader)."""

import cv2
import numpy as np

from tests.vision.test_cards_arm import _read
from tests.vision.test_cards_twin import _replay


def test_the_arms_shaded_side_cut_by_the_views_edge_is_no_gray_card():
    # twin 4815 reveal 0, the fourth blue card laid on the blue pile: the arm waits at the view's bottom-right corner;
    # below its lit part, its shaded side down to the view's edge read as a part of a gray card ("hidden") beside it
    view = _read("t4815-reveal0-3-laid")
    assert [(c.card, c.status) for c in view.cards] == [("blue", "ok")]
    assert all(x + w >= 640 and y >= 300 for x, y, w, h in view.hands)  # the arm and its shaded side, at the corner
    assert any(y + h >= 480 for _, y, _, h in view.hands)


def test_twin_4815_reveal_0_the_fourth_blue_laid_while_the_arm_waits_at_the_corner_is_booked():
    # before: the "gray part" held the pile's settle and was asked about ("was a gray card laid just now?"); a truthful
    # no left the fourth blue missing
    cards, booked, questions = _replay("t4815-reveal0")
    assert cards == ["blue"] * 4
    assert booked == cards
    assert questions == []


def test_the_arms_shade_on_the_box_bottom_smaller_than_a_card_field_is_no_gray_card():
    # twin 4805 reveal 0, the third blue card laid: the arm waits at the view's right edge beyond the box; its shade on
    # the box bottom beside the wall's (0.56 of it shade, not cut off the arm) read as a gray card 0.63 of a field:
    # "was a gray card laid just now?" in both reveals of the table, the arm waiting there
    view = _read("t4805-reveal0-2-laid")
    assert [(c.card, c.status) for c in view.cards] == [("blue", "ok")]
    assert (429, 196, 123, 143) in view.hands  # the shade, with the arm


def test_a_third_gray_card_on_a_gray_pile_is_read_by_its_own_field_and_border():
    # twin 4801 reveal 0 (blank x 3, gray x 3), the third gray laid on the pile askew: its field reads pale yellow in
    # part and as neutral as the pile's ring, only 13 darker there (the gray fields below show in the ring): "yellow
    # or gray card?", and the reveal asked to enter the card by hand. Against its own border round its field: gray
    view = _read("t4801-reveal0-5-laid")
    assert [(c.card, c.status) for c in view.cards] == [("gray", "ok")]
    (_, _), (w, h), _ = cv2.minAreaRect(np.float32(view.cards[0].corners))
    assert 130 <= min(w, h) <= 160 and 190 <= max(w, h) <= 225  # the top card's field, not the pile's rectangle

"""A gray card laid askew on a pile, its field told from its white border by brightness (issue 24 part 3, round 32):
where the usual cut joins the top card's field to the gray field of the card below it through the border's sensor
noise, a darker cut outlines the top card's field alone. Twin 5202 reveal 0 and 5218 reveal 1 (seen set 5200-5218;
JPEG 4:4:4 q95 with their table's calibrated profile and empty box, and the reveals' views read with this reader)."""

import cv2
import numpy as np

from tests.vision.test_cards_arm import _read
from tests.vision.test_cards_twin import _replay


def _field_sides(card):
    (_, _), (w, h), _ = cv2.minAreaRect(np.float32(card.corners))
    return min(w, h), max(w, h)


def test_a_gray_card_on_a_gray_card_askew_is_read_by_its_own_field():
    # twin 5218 reveal 1 (yellow x 4, gray x 3), the second gray laid askew on the first: at the usual cut the field
    # and the lower gray card's field are one shape, 1.6 fields ("yellow or gray card? its field is as neutral as its
    # border"), and the reveal asked to enter the card by hand. Its own field, against its own border: gray
    view = _read("t5218-reveal1-5-laid")
    assert [(c.card, c.status) for c in view.cards] == [("gray", "ok"), ("yellow", "ok")]
    short, long_ = _field_sides(view.cards[0])
    assert 125 <= short <= 155 and 180 <= long_ <= 215  # the top card's field, not the pile's rectangle (208 x 262)


def test_a_gray_card_on_a_pink_pile_in_a_dark_box_is_read_by_its_own_field():
    # twin 5202 reveal 0 (pink x 3, gray), the gray laid on the pink pile on a dark floor: "card of unknown colour
    # (off gray by 1)", asked to enter it by hand
    view = _read("t5202-reveal0-3-laid")
    assert [(c.card, c.status) for c in view.cards] == [("gray", "ok")]
    short, long_ = _field_sides(view.cards[0])
    assert 115 <= short <= 145 and 170 <= long_ <= 200


def test_twin_5202_reveal_0_and_5218_reveal_1_are_booked_without_a_question():
    for name, laid in [("t5202-reveal0", ["pink"] * 3 + ["gray"]), ("t5218-reveal1", ["yellow"] * 4 + ["gray"] * 3)]:
        cards, booked, questions = _replay(name)
        assert cards == laid
        assert booked == cards
        assert questions == []

"""A pile's top card read by its whole coloured field on a table whose die side calibration measured small (issue 24
part 3, round 35): on twin 5511 a card field is half again ``FIELD_AREA`` in die sides — blue, pink and blank fields
1.21-1.25 without their light icon, a yellow one 1.56 with it (its icon labelled yellow too) — so the yellow card laid
on the blue pile was no whole field (the bound was 1.3) and the pile a blob of no card's shape: "the camera cannot
make out the cards just laid" twice and "was that a second blue card?" on 5511 reveal 0 (3 of the 12 questions `main`
asked on round 34's fresh card set 5500-5518). The frame with its table's profile and empty box (JPEG 4:4:4 q95)."""

import numpy as np
import pytest

from rig.vision.dice import BG, YELLOW
from tests.vision.test_cards_arm import _read


def test_a_yellow_top_card_on_the_blue_pile_is_read_by_its_whole_field():
    # twin 5511 reveal 0 (blue x 4, yellow x 2), the first yellow laid on the blue pile, the arm waiting at the view's
    # lower left over the first blue card: on `main` the pile (263, 70, 204, 262) was read as a hand
    view = _read("t5511-reveal0-4-laid")
    assert sorted((c.card, c.status) for c in view.cards) == [("blue", "ok"), ("yellow", "ok")]
    yellow = next(c for c in view.cards if c.card == "yellow")
    assert yellow.pile == (263, 70, 204, 262)  # (the pile's outline: read on the pile's blob, its slivers no hand)
    assert not any(h[0] > 200 for h in view.hands)  # (only the arm at the view's edge)


def _drawn(cls: int, fields: float):
    """A drawn blob of no card's shape (an L: a pile with a card sticking out), a field of label ``cls`` covering
    ``fields`` card fields inside its white border, read at full size (die side 10 px)."""
    from rig.vision.card_fields import FIELD_AREA

    class Work:
        factor, side, top_area = 1, 10.0, 25.0
        small = np.full((240, 320, 3), 90, np.uint8)
        labels = np.full((240, 320), BG, np.uint8)

    w = int(round(np.sqrt(fields * FIELD_AREA * Work.side ** 2 / 1.45)))
    h = int(round(1.45 * w))
    blob = np.zeros((240, 320), np.uint8)
    blob[20:40 + h + 20, 20:20 + w + 20] = 1  # the top card, its border 10 px round its field
    blob[30:30 + h, 20 + w + 20:20 + w + 60] = 1  # a card below sticking out to the right
    Work.small[blob > 0] = 235
    Work.labels[blob > 0] = BG
    Work.small[30:30 + h, 30:30 + w] = (120, 200, 210) if cls == YELLOW else (150, 150, 150)
    Work.labels[30:30 + h, 30:30 + w] = cls
    return Work, blob


@pytest.mark.parametrize("fields, found", [(1.0, True), (1.5, True), (1.8, False)])
def test_a_coloured_whole_field_up_to_half_again_a_fields_area_is_a_card(fields, found):
    from rig.vision.card_fields import _whole_fields

    work, blob = _drawn(YELLOW, fields)
    cards, _, _ = _whole_fields(work, blob)
    assert [c.card for c in cards] == (["yellow"] if found else [])


@pytest.mark.parametrize("fields, found", [(1.0, True), (1.5, False)])
def test_a_gray_whole_field_keeps_the_bound_an_arms_shadow_is_as_dark_and_neutral(fields, found):
    from rig.vision.card_fields import _whole_fields

    work, blob = _drawn(BG, fields)
    cards, _, _ = _whole_fields(work, blob)
    assert [c.card for c in cards] == (["gray"] if found else [])


def test_twin_5511_reveal_0_books_its_yellow_cards_on_the_blue_pile_without_a_question():
    # (its views as this reader reads them, `scripts/reveal_views.py read`; `main`'s views asked three times: "the
    # camera cannot make out the cards just laid" for each yellow, "was that a second blue card?" between them)
    from tests.vision.test_cards_twin import _replay

    cards, booked, questions = _replay("t5511-reveal0")
    assert cards == ["blue"] * 4 + ["yellow"] * 2
    assert booked == cards and questions == []

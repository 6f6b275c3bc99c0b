"""One hand, one card: a lying card its hand passed over, its blob as it lay, is the card that lay there when the card
the hand brought settles elsewhere (issue 24 part 3, round 31).

Twin 4900 (round 30's fresh card set, seen now; felt floor, camera 35 cm): the waiting arm rests at the view's lower
left, its shade beside the first card (on the left), and the reader takes it with the wall's shade for a hand over that
card; the card's corners read 2-3 % apart from one settle to the next, its faint yellow print found in some frames only,
its blob (what changed from the empty box) exactly as it lay. Each card then laid on the right pile settled with the
left one "touched": "2 cards laid together: yellow, blue in that order?" — 4 of the 8 questions on 4900-4918. Readings
as ``main`` read them (``scripts/reveal_views.py read``), replayed through CardReveal as ``rig bench reveal`` answers."""

from tests.vision.test_card_reveal_seen_laid import _replay_changed
from tests.vision.test_cards_twin import _replay


def test_twin_4900_reveal_1_the_first_card_beside_the_waiting_arm_is_not_laid_again():
    # yellow on the left, then yellow, blue, blue, blue, blue on one pile on the right
    cards, booked, questions = _replay("t4900-reveal1-r30")
    assert cards == ["yellow", "yellow", "blue", "blue", "blue", "blue"]
    assert booked == cards and questions == []


def test_twin_4900_reveal_0_a_yellow_laid_on_the_right_pile_is_not_asked_about_with_the_left_one():
    # yellow on the left, then yellow, yellow, yellow, pink, pink on one pile on the right: the colour seen coming in
    # (yellow) is the left card's too; the one laid settled on the right pile, booked there
    cards, booked, questions = _replay("t4900-reveal0-r30")
    assert cards == ["yellow", "yellow", "yellow", "yellow", "pink", "pink"]
    assert booked == cards and questions == []


def test_a_lying_card_whose_blob_grew_is_still_asked_about():
    # 4900 reveal 1 with the left card's blob grown 4 px to the right as the fourth card settles (frames 20-23): a card
    # laid on it a few px askew, or read apart? Asked as before, with the blue booked on the right
    def grown(card):
        if card["card"] == "yellow" and card["box"][0] < 200:
            card["pile"] = [card["pile"][0], card["pile"][1], card["pile"][2] + 4, card["pile"][3]]

    cards, booked, questions = _replay_changed("t4900-reveal1-r30", range(20, 24), grown)
    assert booked == cards
    assert "2 cards laid together: yellow, blue in that order? (no: enter them by hand)" in [q.text for q in questions]


def test_a_lying_card_read_apart_with_no_card_laid_elsewhere_is_still_asked_about():
    # 4900 reveal 1 with the blue pile read as it lay at the third card's settle while the fourth settles (frames
    # 20-23): no card the hand brought settles anywhere new — on the left card? Asked as before
    import json

    from tests.vision.test_cards_twin import DATA

    blue = next(c for c in json.loads((DATA / "t4900-reveal1-r30-views.json").read_text())["views"][16]["cards"]
                if c["card"] == "blue")

    def as_it_lay(card):
        if card["card"] == "blue":
            card.clear()
            card.update(blue)

    cards, booked, questions = _replay_changed("t4900-reveal1-r30", range(20, 24), as_it_lay)
    assert "was that a second yellow card?" in [q.text for q in questions]

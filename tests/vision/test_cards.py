"""The card reader and the reveal order."""

import pytest

from rig.vision.cards import CardReading, CardReveal, read_card
from rig.vision.render import CARD_NAMES, LIGHTINGS, Scene, render_card, render_scene


@pytest.mark.parametrize("card", CARD_NAMES)
def test_each_card_is_read(virtual_profile, card):
    for seed in (1, 2):
        reading = read_card(render_card(card, lighting="neutral", seed=seed), virtual_profile)
        assert reading.card == card and reading.status == "ok"
        assert reading.box is not None


def test_no_card_in_view(virtual_profile):
    reading = read_card(render_scene(Scene(lighting=LIGHTINGS["neutral"]), seed=1), virtual_profile)
    assert reading.card is None and reading.status == "ok"


def test_reveal_reports_cards_in_order():
    def r(card, x=0):
        return CardReading(card, 1.0, "ok", (), (x, 0, 100, 140))

    reveal = CardReveal(settle=2)
    stream = [r(None), r("blue"), r("blue"), r("blue"),   # blue laid down
              CardReading(None, 0, "uncertain", ("hand",)),  # hand brings the next
              r("blue"), r("blue"),                       # still the same blue card: nothing new
              r("gray", 200), r("gray", 200),             # gray beside it
              r(None), r("gray", 200), r("gray", 200)]    # view cleared, a second gray
    out = [reveal.feed(x) for x in stream]
    assert [c for c in out if c] == ["blue", "gray", "gray"]
    assert reveal.cards == ["blue", "gray", "gray"]

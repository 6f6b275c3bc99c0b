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
    out = [c for x in stream for c in reveal.feed(x)]
    assert out == ["blue", "gray", "gray"]
    assert reveal.cards == ["blue", "gray", "gray"]


def _with_ambiguous(monkeypatch, share, *, of, box=None):
    """Turn ``share`` of the pixels labelled ``of`` (inside ``box``, full-res px) into AMBIG: glare
    that leaves part of the card fitting two card colours about equally well."""
    import numpy as np

    from rig.vision import cards, dice

    real = dice.prepare

    def prepare(frame, profile):
        work = real(frame, profile)
        labels = work.labels.copy()
        pick = np.isin(labels, of)
        if box is not None:
            x, y, w, h = (v // work.factor for v in box)
            inside = np.zeros_like(pick)
            inside[y + h // 5: y + h - h // 5, x + w // 5: x + w - w // 5] = True
            pick &= inside
        ys, xs = np.nonzero(pick)
        chosen = np.random.default_rng(0).random(len(ys)) < share
        labels[ys[chosen], xs[chosen]] = dice.AMBIG
        return dice.Work(labels, work.small, work.factor, work.side, work.top_area, work.glare)

    monkeypatch.setattr(cards, "prepare", prepare)


def test_unreadable_glare_pixels_do_not_vote_against_the_cards_colour(virtual_profile, monkeypatch):
    from rig.vision.dice import PINK

    _with_ambiguous(monkeypatch, 0.45, of=PINK)  # pink then is under 45% of the whole field
    reading = read_card(render_card("pink", lighting="neutral", seed=1), virtual_profile)
    assert (reading.card, reading.status) == ("pink", "ok")


def test_a_card_mostly_hidden_by_glare_is_uncertain(virtual_profile, monkeypatch):
    from rig.vision.dice import PINK

    _with_ambiguous(monkeypatch, 0.95, of=PINK)
    reading = read_card(render_card("pink", lighting="neutral", seed=1), virtual_profile)
    assert reading.card is None and reading.status == "uncertain"
    assert reading.reasons[0].startswith("glare hides the card's colour")


def test_unreadable_glare_pixels_are_no_evidence_of_a_gray_card(virtual_profile, monkeypatch):
    from rig.vision.dice import BG, UNKNOWN

    frame = render_card("gray", lighting="neutral", seed=1)
    box = read_card(frame, virtual_profile).box
    # the gray field reads as box bottom or as no known colour; glare leaves it fitting card colours instead
    _with_ambiguous(monkeypatch, 0.6, of=(BG, UNKNOWN), box=box)
    reading = read_card(frame, virtual_profile)
    assert reading.card is None and reading.status == "uncertain"


def _card(colour, dx=0.0, dy=0.0):
    x, y = 100.0 + dx, 100.0 + dy
    corners = ((x, y), (x + 200, y), (x + 200, y + 280), (x, y + 280))
    return CardReading(colour, 1.0, "ok", (), (int(x), int(y), 200, 280), corners)


def test_a_card_covered_before_it_lay_still_long_enough_is_asked_about_not_skipped():
    from rig.vision.cards import CardView

    reveal = CardReveal(settle=3)
    hand = CardView((), ((150, 200, 200, 200),))
    stream = [CardView((_card("pink"),))] * 3          # pink laid and counted
    stream += [hand, CardView((_card("gray", 30, 10),))] * 1 + [CardView((_card("gray", 30, 10),))]  # gray: 2 still frames
    stream += [hand] + [CardView((_card("yellow", -25, 20),))] * 3   # yellow on top before the gray counted
    booked = [c for view in stream for c in reveal.feed(view)]
    assert booked == ["pink"]
    assert reveal.question is not None and "gray" in reveal.question.text and "yellow" in reveal.question.text
    assert reveal.answer(True) == ["gray", "yellow"]
    assert reveal.cards == ["pink", "gray", "yellow"]

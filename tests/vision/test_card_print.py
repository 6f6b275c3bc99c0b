"""A card laid squarely on one of its colour told by its print (issue 24 part 3, round 18): the reader gives each card
the centroid of its print (:func:`rig.vision.card_print.print_mark`), and the reveal books a pile's top whose print
moved after a hand was over it where it asked "was that a second … card?" before (twin 2403, 2607, 3210: each a yes)."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from rig.vision.card_empty import EmptyBox
from rig.vision.card_lying import PRINT_MOVED
from rig.vision.card_places import _long_side
from rig.vision.card_print import print_mark
from rig.vision.cards import CardReading, CardReveal, CardView, read_cards
from rig.vision.profile import Profile

DATA = Path(__file__).parent / "cards_twin"
SIZE = (640, 480)


def _gray(name):
    profile = Profile.load(DATA / "t2403.toml")
    view = read_cards(cv2.imread(str(DATA / f"t2403-reveal0-{name}.jpg")), profile,
                      EmptyBox.of(cv2.imread(str(DATA / "t2403-empty.jpg"))))
    return next(c for c in view.cards if c.card == "gray")


def test_a_card_laid_squarely_on_one_of_its_colour_moves_its_print_a_card_lying_still_not():
    # twin 2403 reveal 0: the first gray card in two still frames (f20, f23), then the second gray laid squarely on it
    # (f29), its corners 3.2 % from the first's — as far as a card re-read with nothing laid on it reads them now and then
    still, before, after = _gray("f20"), _gray("f23"), _gray("f29")
    long_side = _long_side(before.outline())
    assert np.hypot(*np.subtract(still.mark, before.mark)) < PRINT_MOVED * long_side / 4
    assert np.hypot(*np.subtract(after.mark, before.mark)) >= 4 * PRINT_MOVED * long_side


def _drawn(field_bgr, icon_bgr):
    """A card on a dark floor: white border, a coloured field, an icon (two joined discs) off the field's centre."""
    img = np.full((480, 640, 3), 60, np.uint8)
    cv2.rectangle(img, (200, 100), (400, 380), (235, 235, 235), -1)
    cv2.rectangle(img, (215, 115), (385, 365), field_bgr, -1)
    cv2.circle(img, (290, 220), 30, icon_bgr, -1)
    cv2.circle(img, (320, 250), 30, icon_bgr, -1)
    return img


FIELD = ((215.0, 115.0), (385.0, 115.0), (385.0, 365.0), (215.0, 365.0))


@pytest.mark.parametrize("card, field, icon", [("pink", (150, 60, 220), (200, 160, 240)), ("gray", (170, 170, 170), (100, 100, 100))])
def test_the_print_is_the_whole_shape_however_the_outline_cuts_it(card, field, icon):
    img = _drawn(field, icon)
    whole = print_mark(img, FIELD, card)
    assert whole == pytest.approx((305.0, 235.0), abs=1.0)
    # the field's corners read short at the top (twin 3616: 42 px of 200 from one frame to the next): the same print
    cut = ((215.0, 190.0), (385.0, 190.0), (385.0, 365.0), (215.0, 365.0))
    assert np.hypot(*np.subtract(print_mark(img, cut, card), whole)) < 0.5


def test_no_print_found_is_no_mark():
    img = _drawn((150, 60, 220), (150, 60, 220))  # a field with no print in it
    assert print_mark(img, FIELD, "pink") is None
    assert print_mark(img, FIELD, None) is None


def _replay(name):
    """A twin reveal's committed readings with their prints (``*-print-views.json``) through CardReveal, each question
    answered truthfully as ``rig bench reveal`` does: the cards booked and the questions asked."""
    from rig.bench.reveal import replay_views

    cards, booked, questions = replay_views(json.loads((DATA / f"{name}-print-views.json").read_text()))
    return cards, booked, [q.text for q in questions]


@pytest.mark.parametrize("name", ["t2403-reveal0", "t2607-reveal0", "t3210-reveal0"])
def test_twin_cards_laid_squarely_on_one_of_their_colour_are_booked_by_their_print(name):
    # 2403 (the second gray on the first: its print 4.0 % of its long side apart), 2607 (the third blank on the
    # second: 1.0 %), 3210 (two grays laid squarely on the gray pile, the arm waiting at the view's edge away from it:
    # 1.8 %, 2.4 %). Before: "was that a second gray (blank) card?" each time, a truthful yes
    cards, booked, questions = _replay(name)
    assert booked == cards and questions == []


def test_twin_a_card_the_waiting_arm_lies_over_is_still_asked_about():
    # 3214 reveal 0: the arm waiting over the blank pile, no card laid on it (its print 0.02 % apart): "was that a
    # second blank card?", a truthful no — asked still (an arm's shade on a field moves what reads as print)
    cards, booked, questions = _replay("t3214-reveal0")
    assert booked == cards and "was that a second blank card?" in questions


def _pile(dx=0.0, mark=(300.0, 240.0), pile=(200, 100, 200, 280)):
    x = 200.0 + dx
    corners = ((x + 15, 115.0), (x + 185, 115.0), (x + 185, 365.0), (x + 15, 365.0))
    return CardReading("blue", 1.0, "ok", (), (int(x), 100, 200, 280), corners, pile, False, mark)


HAND = ((150, 60, 300, 360),)  # a hand over the pile, bringing (or not) a card


def _laid(after, hands=()):
    """The blue card laid, a hand over it, then the pile read as ``after`` (with ``hands`` in view) in 4 frames."""
    reveal = CardReveal(settle=3)
    stream = [CardView((_pile(),), (), SIZE)] * 4 + [CardView((), HAND, SIZE)] * 2
    stream += [CardView((after,), hands, SIZE)] * 4
    booked = [c for view in stream for c in reveal.feed(view)]
    return booked, reveal.question


def test_a_pile_top_whose_print_moved_after_a_hand_is_booked():
    # its corners 2 px apart (0.7 % — "the same card"), its print 5 px (1.8 % of its long side): a card laid on it
    booked, question = _laid(_pile(dx=2.0, mark=(305.0, 240.0)))
    assert booked == ["blue", "blue"] and question is None


def test_a_pile_side_read_in_while_its_print_moved_less_is_no_nudge():
    # twin 3903 reveal 1: the fourth blue card laid squarely on the pile, its top edge read 12 px lower (in), its print
    # 2.4 px (1 %) moved — a nudged card would carry its print as far as its outline left the floor: a card laid on it
    booked, question = _laid(_pile(dx=2.0, mark=(302.4, 240.0), pile=(200, 112, 200, 270)))
    assert booked == ["blue", "blue"] and question is None


@pytest.mark.parametrize("after, hands", [
    (_pile(dx=2.0, mark=(300.5, 240.0)), ()),  # its print 0.5 px apart: a card re-read, or one laid exactly on it
    (_pile(dx=2.0, mark=(305.0, 240.0)), ((320, 200, 320, 280),)),  # an arm over the pile's box: its shade may move the print
    (_pile(dx=2.0, mark=(305.0, 240.0), pile=(206, 100, 196, 280)), ()),  # the pile's outline left its left side: nudged
    (_pile(dx=2.0, mark=None), ()),  # no print read
])
def test_a_pile_top_is_still_asked_about_without_a_print_moved_clear_of_an_arm(after, hands):
    booked, question = _laid(after, hands)
    assert booked == ["blue"] and question is not None and question.text == "was that a second blue card?"


def test_a_print_found_apart_from_frame_to_frame_is_no_sign():
    # a faint print (light on a light yellow field) found a few px apart in the frames the pile settles in (twin 3311:
    # 3 % with nothing laid on it): no print known, asked as before
    reveal = CardReveal(settle=3)
    stream = [CardView((_pile(),), (), SIZE)] * 4 + [CardView((), HAND, SIZE)] * 2
    stream += [CardView((_pile(dx=2.0, mark=(305.0 + dy, 240.0)),), (), SIZE) for dy in (0.0, 4.0, -3.0, 1.0)]
    booked = [c for view in stream for c in reveal.feed(view)]
    assert booked == ["blue"] and reveal.question.text == "was that a second blue card?"


def test_the_print_of_a_card_at_twice_the_size_is_looked_for_on_its_region_shrunk(monkeypatch):
    # round 19: at 1280x960 the print was found at full resolution over a region half as large again as the card
    # (read_cards twice as slow as at 640x480); now on the region shrunk by a whole factor (this 250 px long field
    # drawn twice as large: by 3), the mark where the drawn one puts it
    import rig.vision.card_print as card_print

    img = _drawn((150, 60, 220), (200, 160, 240))
    big = cv2.resize(img, (1280, 960), interpolation=cv2.INTER_NEAREST)
    blurred = []
    real = cv2.GaussianBlur
    monkeypatch.setattr(card_print.cv2, "GaussianBlur", lambda src, *a, **k: blurred.append(src.shape) or real(src, *a, **k))
    mark = print_mark(big, tuple((2 * x, 2 * y) for x, y in FIELD), "pink")
    small = print_mark(img, FIELD, "pink")
    assert blurred[0][0] * blurred[0][1] <= blurred[1][0] * blurred[1][1]  # (before: 4 times as many px)
    assert np.hypot(mark[0] - (2 * small[0] + 0.5), mark[1] - (2 * small[1] + 0.5)) < 1.0


def test_the_median_of_8_bit_values_from_their_histogram_is_numpys():
    from rig.vision.card_print import _median

    rng = np.random.default_rng(19)
    for n in (1, 2, 7, 64, 1001):
        values = rng.integers(0, 256, n).astype(np.uint8)
        assert _median(values) == float(np.median(values))

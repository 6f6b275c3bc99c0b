"""A card read as a blob on its own box (for the reveal, :mod:`rig.vision.card_reveal`): the top of an askew pile
flickers from frame to frame between a card and a blob of no card's shape — deep wall shade on its field, or a gray card
on a gray floor that leaves only its border ring (twin 5700 reveal 0, the last blue; 5706 reveal 1, the last gray: the
reveal ended with the card unbooked, or asked "cannot make out the cards just laid")."""

from __future__ import annotations

from rig.vision.card_places import _overlap, _same_box
from rig.vision.card_view import CardView

#: an arm waiting at the view's edge that has not moved: every side of its box within this share of its larger side
#: (an arm's outline told by its colour frays by a few px)
ARM_STILL = 0.1


def clean(view: CardView) -> bool:
    """Whether every card in view is read whole and sure, and nothing else in view but arms at the view's edge apart
    from them: a view a blob on a card's box can stand in for."""
    return bool(view.cards) and all(c.status == "ok" and not c.hidden and c.box is not None for c in view.cards) and all(
        h is not None and view.at_edge(h) and not any(_overlap(h, c.box) for c in view.cards) for h in view.hands)


def blob_on_card(view: CardView, before: CardView) -> bool:
    """Whether ``view`` is the clean view ``before`` with one of its cards read as a blob of no card's shape on that
    card's very box (every side within 6 px), and nothing else moved: the other cards read as they were (colour and
    box), the arms at the view's edge as they were and apart from the card. A hand over the card is no such blob: an
    arm reaches in from the view's edge, and a hand's blob takes the card's box with it (larger, elsewhere)."""
    inner = [h for h in view.hands if h is not None and not view.at_edge(h)]
    if len(inner) != 1:
        return False
    blob = inner[0]
    card = next((c for c in before.cards if _same_box(c.box, blob)), None)
    if card is None:
        return False
    others = [c for c in before.cards if c is not card]
    if len(view.cards) != len(others) or not all(
            c.status == "ok" and c.box is not None and any(o.card == c.card and _same_box(o.box, c.box) for o in others) for c in view.cards):
        return False
    arms = [h for h in view.hands if h is not blob]
    return len(arms) == len(before.hands) and all(
        not _overlap(h, card.box) and any(_same_box(h, b, ARM_STILL) for b in before.hands) for h in arms)


class CardFlicker:
    """Stands the last clean view (:func:`clean`) in for a frame where one of its cards is read as a blob on its very
    box, nothing else moved (:func:`blob_on_card`): the card lies as it did, its frames count to its settle. A frame
    that is neither clean nor such a blob (a hand over the cards, a card unsure) forgets the clean view: a blob after a
    hand came is asked about as before (a card laid askew on it, the camera cannot outline)."""

    def __init__(self) -> None:
        self._clean: CardView | None = None

    def steady(self, view: CardView) -> CardView:
        if self._clean is not None and blob_on_card(view, self._clean):
            return self._clean
        self._clean = view if clean(view) else None
        return view

"""A card read as a blob on its own box (for the reveal, :mod:`rig.vision.card_reveal`): the top of an askew pile
flickers from frame to frame between a card and a blob of no card's shape — deep wall shade on its field, or a gray card
on a gray floor that leaves only its border ring (twin 5700 reveal 0, the last blue; 5706 reveal 1, the last gray: the
reveal ended with the card unbooked, or asked "cannot make out the cards just laid"). And a lying card joined by the
wall's shade into a larger blob as a new card is let go beside it (twin 5500 reveal 0)."""

from __future__ import annotations

from rig.vision.card_places import _inside, _overlap, _overlap_area, _same_box
from rig.vision.card_view import CardReading, CardView

Box = tuple[int, int, int, int]

#: an arm waiting at the view's edge that has not moved: every side of its box within this share of its larger side
#: (an arm's outline told by its colour frays by a few px)
ARM_STILL = 0.1
#: an arm at the view's edge off a lying card joined with shade: it covers at most this share of the card's box (twin
#: 5500 reveal 0's waiting arm 0.003-0.016; a hand laying a card onto a pile, 5612 reveal 1, 0.55)
ARM_OFF = 0.05


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


def _covered(box: Box, by: Box) -> float:
    """The share of ``box`` that ``by`` covers."""
    return _overlap_area(box, by) / (box[2] * box[3])


def joined(view: CardView, seen: dict[Box, CardReading], read: list[tuple[Box, str]]) -> CardView | None:
    """A card read whole in an earlier frame with no hand over it since (``seen``, by its box), now inside a blob of no
    card's shape off the view's edge, larger than it, while a card new to the reveal (in no place a card was ever read
    whole, over no card of its colour ever read whole: ``read``, boxes and colours) is read whole beside it: the lying card joined by the wall's shade as the new one was let go (twin
    5500 reveal 0), the arms at the view's edge off that card (:data:`ARM_OFF`). The view with that card back and the
    blob gone, else None. Without a new card read whole, or with an arm over the card, the blob may be a hand bringing
    a card onto that very place (a pile: twin 5311 reveal 0, 5616 reveal 0, 5612 reveal 1); a card whose field reads
    a few px off where its colour lay is no new card (twin 2304, tests/vision/test_cards_arm.py)."""
    inner = [h for h in view.hands if h is not None and not view.at_edge(h)]
    if len(inner) != 1 or not any(
            c.status == "ok" and not c.hidden and c.box is not None and not any(
                _same_box(b, c.box) or card == c.card and _overlap(b, c.box) for b, card in read)
            for c in view.cards):
        return None
    blob = inner[0]
    kept = [c for b, c in seen.items() if _inside(blob, b) and not _same_box(b, blob)
            and not any(o.box is not None and _same_box(o.box, b) for o in view.cards)]
    arms = [h for h in view.hands if h is not None and view.at_edge(h)]
    if len(kept) != 1 or any(_covered(kept[0].box, h) > ARM_OFF for h in arms):
        return None
    return CardView((*view.cards, kept[0]), tuple(h for h in view.hands if h is not blob), view.size)


class CardFlicker:
    """Stands the last clean view (:func:`clean`) in for a frame where one of its cards is read as a blob on its very
    box, nothing else moved (:func:`blob_on_card`): the card lies as it did, its frames count to its settle. A frame
    that is neither clean nor such a blob (a hand over the cards, a card unsure) forgets the clean view: a blob after a
    hand came is asked about as before (a card laid askew on it, the camera cannot outline). A lying card joined with
    shade (:func:`joined`) is put back."""

    def __init__(self) -> None:
        self._clean: CardView | None = None
        self._seen: dict[Box, CardReading] = {}
        self._read: list[tuple[Box, str]] = []

    def steady(self, view: CardView) -> CardView:
        if self._clean is not None and blob_on_card(view, self._clean):
            return self._clean
        self._clean = view if clean(view) else None
        back = joined(view, self._seen, self._read)
        if back is not None:
            return back
        hands = [h for h in view.hands if h is not None]
        self._seen = {b: c for b, c in self._seen.items() if not any(_overlap(b, h) for h in hands)}
        for c in view.cards:
            if c.status != "ok" or c.hidden or c.box is None:
                continue
            if not any(_same_box(b, c.box) and card == c.card for b, card in self._read):
                self._read.append((c.box, c.card))
            if not any(_overlap(c.box, h) for h in hands):
                self._seen = {b: r for b, r in self._seen.items() if not _same_box(b, c.box)} | {c.box: c}
        return view

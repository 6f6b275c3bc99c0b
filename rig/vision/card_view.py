"""What the reveal (:mod:`rig.vision.card_reveal`) is fed and asks: a card read in one frame
(:class:`CardReading`), everything card-sized in one frame (:class:`CardView`), and a question to the players."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CardReading:
    """The card in view (``None``: no card), how sure, and where (x, y, w, h px)."""

    card: str | None
    confidence: float
    status: str
    reasons: tuple[str, ...] = ()
    box: tuple[int, int, int, int] | None = None
    #: the card's four corners (full-resolution px): its edges, to tell a card laid on top from the one below
    corners: tuple[tuple[float, float], ...] | None = None
    #: the box (x, y, w, h px) of the whole card or pile it was read on, when nothing else (a hand) touched it
    pile: tuple[int, int, int, int] | None = None
    #: read beside an arm reaching in (or its shade): part of the card may lie under it, its outline cut short
    hidden: bool = False
    #: where its print (the icon in its field) lies: the centroid (full-resolution px) of the field's pixels that
    #: differ from the field's own colour — a card laid squarely on one of its colour moves it a few px
    mark: tuple[float, float] | None = None

    def to_dict(self) -> dict:
        return {"card": self.card, "confidence": round(self.confidence, 3), "status": self.status,
                "reasons": list(self.reasons), "box": list(self.box) if self.box else None}

    def outline(self) -> np.ndarray | None:
        """The four corners as a 4x2 array (from ``box`` when the corners are not known)."""
        if self.corners is not None:
            return np.asarray(self.corners, np.float32)
        if self.box is None:
            return None
        x, y, w, h = self.box
        return np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], np.float32)


@dataclass(frozen=True)
class CardView:
    """Everything card-sized in one frame: the cards (each read or "uncertain") and the blobs that are
    no card (a hand, an arm, an object), by their boxes."""

    cards: tuple[CardReading, ...] = ()
    hands: tuple[tuple[int, int, int, int], ...] = ()
    #: the frame's (width, height), when known: what reaches in from its edge is an arm
    size: tuple[int, int] | None = None

    def at_edge(self, box: tuple[int, int, int, int]) -> bool:
        """Whether a blob's box reaches the view's edge (left or top only when the frame's size is not known)."""
        x, y, w, h = box
        return x <= 0 or y <= 0 or self.size is not None and (x + w >= self.size[0] or y + h >= self.size[1])

    @property
    def clear(self) -> bool:
        """No card and nothing else in view: the box bottom alone."""
        return not self.cards and not self.hands


@dataclass(frozen=True)
class Question:
    """What the rig asks when it cannot tell whether a card was laid: ``yes``/``no`` are the cards
    booked for each answer (in order)."""

    text: str
    yes: tuple[str, ...]
    no: tuple[str, ...] = ()
    #: a card lies there that the camera cannot read: the players name it ("it was: gray"), or enter it by hand and
    #: answer yes ("entered"); no: no card was laid
    unread: bool = False
    #: a card the camera did not see laid: the boxes of the hands that were over the empty box (where it lies)
    where: tuple = ()
    #: asked with an arm waiting in view: the arm's boxes, where the card asked about may lie unseen under it
    under: tuple = ()
    #: a card glimpsed, then covered, asked about as the next one laid after those revealed (:func:`laid_next`): the
    #: card that came right after it (the one the camera saw next; none: it asks about the card alone)
    then: tuple = ()
    #: a card glimpsed lying, then gone from view, asked about: the boxes it was glimpsed at — the card the players name
    #: for it ("no, it was pink") may show there again (:func:`rig.vision.card_answer.answer_was`)
    seen_at: tuple = ()

    def to_dict(self) -> dict:
        return {"text": self.text, "yes": list(self.yes), "no": list(self.no), "unread": self.unread}


#: a card lies there that the camera cannot read (or see: a gray card on a floor of its colour)
_UNREAD = Question("which card was just laid? The camera cannot read it", (), (), unread=True)


def laid_next(card: str, then: tuple) -> Question:
    """Was the next card laid after those revealed (booked, or entered by hand) a ``card`` card, and the one after it
    the card the camera saw next? Not "was a gray card laid before the gray one?", which a player counting the gray
    cards on the table answers yes when the card held for the answer is the one asked about (twin 3200, round 13).
    Short: with the cards waiting for the answer it fits the scoreboard's one notice line at 800 x 480."""
    if then:
        later = then[0]
        return Question(f"were the next 2 cards laid {card}, then {later}?", (card,), then=then)
    return Question(f"was the next card laid {card}?", (card,))


def _as_view(view: CardView | CardReading) -> CardView:
    """A single reading as a view: no card, a card, or a hand (an uncertain reading)."""
    if isinstance(view, CardView):
        return view
    if view.status != "ok":
        if view.corners is not None:  # a card whose colour is unreadable
            return CardView((view,))
        return CardView((), (view.box,))
    return CardView((view,) if view.card else ())

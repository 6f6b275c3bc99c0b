"""Read the revealed player cards (blue, pink, yellow, blank = violet, gray), one frame at a time.

At the reveal the stack is turned over and the cards are laid down one by one under the
camera. :func:`read_card` reads the card in view; :class:`CardReveal` turns a stream of
readings into the cards in the order they were laid down (a new card is one that differs
in colour or place from the last, or comes after the view was clear).

Glare: a pixel of the field that fits two card colours about equally well (the dice
reader's ``AMBIG`` label) is card, its colour unreadable. It does not vote for a colour —
the colour share is taken over the readable pixels, and a field more than half unreadable
is "uncertain" — and it is no evidence of a gray card either: it fits card colours, not the
box bottom a gray field looks like, so it stays out of the neutral share.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rig.vision.dice import AMBIG, BG, BLOWN, BLUE, BODY, CLASS_NAMES, CLIPPED, PINK, UNKNOWN, YELLOW, prepare
from rig.vision.profile import Profile

CARD_CLASSES = {BLUE: "blue", PINK: "pink", YELLOW: "yellow", BODY: "blank"}
#: labels that are no card colour: with little colour cast, a gray card
NEUTRAL_CLASSES = (UNKNOWN, CLIPPED, BLOWN, BG)
#: below this share of readable (not AMBIG) field pixels the card's colour is not guessed
MIN_READABLE = 0.5
_NOT_BG = np.full(256, 255, np.uint8)
_NOT_BG[BG] = 0


@dataclass(frozen=True)
class CardReading:
    """The card in view (``None``: no card), how sure, and where (x, y, w, h px)."""

    card: str | None
    confidence: float
    status: str
    reasons: tuple[str, ...] = ()
    box: tuple[int, int, int, int] | None = None

    def to_dict(self) -> dict:
        return {"card": self.card, "confidence": round(self.confidence, 3), "status": self.status,
                "reasons": list(self.reasons), "box": list(self.box) if self.box else None}


def read_card(frame_bgr: np.ndarray, profile: Profile) -> CardReading:
    """Read the player card lying face up in the frame."""
    work = prepare(frame_bgr, profile)
    a0 = work.top_area
    mask = cv2.morphologyEx(_NOT_BG[work.labels], cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, cc, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return CardReading(None, 1.0, "ok")
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    blob = (cc == i).view(np.uint8)
    # a gray card's field looks like the box bottom; its light border still closes round it
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blob = np.zeros_like(blob)
    cv2.drawContours(blob, contours, -1, 1, -1)
    area = int(blob.sum())
    if area < 8 * a0:
        return CardReading(None, 1.0, "ok")
    pts = cv2.findNonZero(blob)
    rect = cv2.minAreaRect(pts)
    (_, _), (rw, rh), _ = rect
    f = work.factor
    bx, by, bw, bh = cv2.boundingRect(pts)
    box = (bx * f, by * f, bw * f, bh * f)
    fill = area / max(rw * rh, 1.0)
    if fill < 0.8:
        return CardReading(None, 0.0, "uncertain", ("hand or object in view",), box)
    # the coloured field: inside the white border, beside the icon
    inner = np.zeros_like(blob)
    (cx, cy), (rw, rh), ang = rect
    cv2.fillConvexPoly(inner, np.int32(cv2.boxPoints(((cx, cy), (rw * 0.78, rh * 0.78), ang))), 1)
    labels = work.labels[(inner > 0) & (blob > 0)]
    counts = np.bincount(labels, minlength=len(CLASS_NAMES))
    total = max(1, len(labels))
    readable = total - int(counts[AMBIG])
    if readable < MIN_READABLE * total:
        return CardReading(None, 0.0, "uncertain",
                           (f"glare hides the card's colour ({1 - readable / total:.0%} of it unreadable)",), box)
    best = max(CARD_CLASSES, key=lambda c: counts[c])
    share = counts[best] / readable
    if share >= 0.45:
        return CardReading(CARD_CLASSES[best], float(min(1.0, share / 0.7)), "ok", (), box)
    px = work.small[(inner > 0) & (blob > 0)]
    lab = cv2.cvtColor(px.reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    floor = np.mean([m.mean[1:] for m in profile.background], axis=0)  # the box bottom's (a, b): the light's cast
    cast = float(np.hypot(*(np.median(lab[:, 1:], axis=0) - floor)))
    neutral = sum(int(counts[c]) for c in NEUTRAL_CLASSES) / total
    if cast < 12 and neutral >= 0.7:
        return CardReading("gray", float(min(1.0, neutral)), "ok", (), box)
    return CardReading(None, 0.0, "uncertain", (f"card of unknown colour (off gray by {cast:.0f})",), box)


class CardReveal:
    """Cards in the order they are laid down: ``feed(reading)`` returns a card name once a new
    card has lain still for ``settle`` frames, else None.

    >>> reveal = CardReveal(settle=2)
    >>> [reveal.feed(CardReading(c, 1.0, "ok", (), (0, 0, 10, 10))) for c in ["pink", "pink", "pink"]]
    [None, 'pink', None]
    """

    def __init__(self, *, settle: int = 3, move: float = 0.3) -> None:
        self.settle = settle
        self.move = move
        self.cards: list[str] = []
        self._last: CardReading | None = None  # the last card reported
        self._candidate: CardReading | None = None
        self._count = 0

    def _same(self, a: CardReading | None, b: CardReading | None) -> bool:
        if a is None or b is None or a.card != b.card:
            return False
        if a.box is None or b.box is None:
            return True
        ax, ay = a.box[0] + a.box[2] / 2, a.box[1] + a.box[3] / 2
        bx, by = b.box[0] + b.box[2] / 2, b.box[1] + b.box[3] / 2
        return np.hypot(ax - bx, ay - by) <= self.move * max(a.box[2], a.box[3], 1)

    def feed(self, reading: CardReading) -> str | None:
        if reading.status != "ok":
            self._candidate, self._count = None, 0
            return None
        if reading.card is None:
            self._candidate, self._count, self._last = None, 0, None
            return None
        if self._same(reading, self._candidate):
            self._count += 1
        else:
            self._candidate, self._count = reading, 1
        if self._count == self.settle and not self._same(reading, self._last):
            self._last = reading
            self.cards.append(reading.card)
            return reading.card
        return None

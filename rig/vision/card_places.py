"""Where a card lies, for the reveal (:mod:`rig.vision.card_reveal`): how far one card outline's edges lie from
another's, whether two boxes or outlines are one place, whether one card lies over (or within) another."""

from __future__ import annotations

import cv2
import numpy as np

#: a blob that has not moved: its sides within this share of its long side
PILE_STILL = 0.03
#: a card's box whose three sides hold (within 2 px) and whose fourth frays within this share of its long side (a
#: card's edge on a wall's shade band, read now on the card, now on the shade): the same card, lying still
ONE_SIDE_FRAYS = 0.06
#: a card whose field's corners enclose less than this share of its blob's box: its outline is a fragment of the field
FRAGMENT = 0.3


def edge_shift(a: np.ndarray, b: np.ndarray) -> float:
    """How far the edges of card outline ``b`` lie from those of ``a``: the largest corner shift, as a
    share of ``a``'s long side (0: the same edges; a card laid on top of another is rarely under 0.05).

    >>> a = np.array([(0, 0), (100, 0), (100, 140), (0, 140)], np.float32)
    >>> round(edge_shift(a, a + (7, 0)), 3)
    0.05
    """
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    shift = max(float(d.min(axis=1).max()), float(d.min(axis=0).max()))
    long_side = _long_side(a)
    return shift / long_side


def _long_side(outline: np.ndarray) -> float:
    return max(float(np.linalg.norm(outline[0] - outline[1])), float(np.linalg.norm(outline[1] - outline[2])), 1.0)


def _same_box(a: tuple[int, int, int, int] | None, b: tuple[int, int, int, int] | None, share: float = 0.0) -> bool:
    """Whether two boxes of a blob are one that has not moved (every side within 6 px, or ``share`` of its larger
    side; no box: not known to differ)."""
    if a is None or b is None:
        return True
    return max(abs(x - y) for x, y in zip(a, b)) <= max(6.0, share * max(a[2], a[3]))


def same_box_unpiled(a, b) -> bool:
    """Whether two readings read on no whole blob of their own (no pile box: it reaches the view's edge, or touches
    something) are one card that has not moved: the same colour, whole, on the very box (:func:`_same_box`) — whatever
    its field's corners read (twin 5410 reveal 1: a yellow pile running out of the view's bottom, its top card's field
    cut by the wall's deep shade, its corners 10-13 px apart frame to frame; it never lay still three frames)."""
    return (a.card == b.card and a.card is not None and a.pile is None and b.pile is None and not (a.hidden or b.hidden)
            and a.box is not None and b.box is not None and _same_box(a.box, b.box))


def _same_pile(a, b) -> bool:
    """Whether two readings (:class:`rig.vision.card_view.CardReading`) are one card (or pile) that has not moved
    by what changed from the empty box: the same colour on the same whole blob, every side within 3 % of its long
    side — whatever the field's corners read (a field in a wall's shade frays, its corners a few px apart, or far,
    in every frame)."""
    if a.card != b.card or a.pile is None or b.pile is None:
        return False
    if a.box is not None and b.box is not None and max(abs(a.box[0] + a.box[2] / 2 - b.box[0] - b.box[2] / 2),
                                                       abs(a.box[1] + a.box[3] / 2 - b.box[1] - b.box[3] / 2)) > 0.25 * max(a.box[2:]):
        return False  # (two cards of one colour on one blob, the row's piles touching: twin 3212, the last blue lost)
    return max(abs(x - y) for x, y in zip(a.pile, b.pile)) <= max(4.0, PILE_STILL * max(a.pile[2], a.pile[3])) or (
        one_side_frays(a.pile, b.pile))


def _overlap(a: tuple[int, int, int, int] | None, b: tuple[int, int, int, int] | None) -> bool:
    if a is None or b is None:
        return True  # somewhere in view: it may touch anything
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _same_place(a: np.ndarray, b: np.ndarray, moved: float) -> bool:
    """Whether two outlines of one card (its whole card, or its coloured field inside the border) lie in
    one place: their centres within ``moved`` of the long side, the smaller inside the larger."""
    long_side = _long_side(a)
    return float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))) <= 3 * moved * long_side and _covers(a, b)


def _one_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two outlines lie in one card's place: their centres within a fifth of the card's long side."""
    return float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))) <= 0.2 * _long_side(a)


def _overlap_area(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    """The area two boxes (x, y, w, h) share (0 where they do not overlap)."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0, w) * max(0, h)


def _inside(card: tuple[int, int, int, int], box: tuple[int, int, int, int], slack: int = 6) -> bool:
    """Whether a box lies inside a card's box (every side within ``slack`` px of it or inside)."""
    return (box[0] >= card[0] - slack and box[1] >= card[1] - slack and box[0] + box[2] <= card[0] + card[2] + slack
            and box[1] + box[3] <= card[1] + card[3] + slack)


def _covering(card: tuple[int, int, int, int] | None, blob: tuple[int, int, int, int]) -> bool:
    """Whether a blob's box covers a good part (a third or more) of a card's box: a shapeless pile
    over it, not a hand waiting at the box's edge beside it."""
    if card is None:
        return True
    shared = _overlap_area(card, blob)
    return shared > 0 and shared >= card[2] * card[3] / 3


def _within(inner: np.ndarray, outer: np.ndarray, tol: float) -> bool:
    """Whether every corner of outline ``inner`` lies inside ``outer`` or within ``tol`` of its long side of it."""
    poly, slack = outer.reshape(-1, 1, 2), tol * _long_side(outer)
    return all(cv2.pointPolygonTest(poly, (float(x), float(y)), True) >= -slack for x, y in inner)


def _covers(top: np.ndarray, below: np.ndarray) -> bool:
    """Whether a card (outline ``top``) lies over another (``below``): either's centre inside the other."""
    a, b = tuple(float(v) for v in top.mean(axis=0)), tuple(float(v) for v in below.mean(axis=0))
    return (cv2.pointPolygonTest(below.reshape(-1, 1, 2), a, False) >= 0
            or cv2.pointPolygonTest(top.reshape(-1, 1, 2), b, False) >= 0)


def _card_of(field: np.ndarray) -> np.ndarray:
    """A card's whole outline round the outline of its coloured field (its white border about a tenth of its size)."""
    centre = field.mean(axis=0)
    return (centre + (field - centre) / 0.88).astype(np.float32)


def _seen(view, outline: np.ndarray) -> bool:
    """Whether a lying card (its outline) is still read in the view (a :class:`~rig.vision.card_view.CardView`), or a
    card on it."""
    return any(_covers(c.outline(), outline) for c in view.cards if c.status == "ok")


def one_side_frays(a: tuple[int, int, int, int] | None, b: tuple[int, int, int, int] | None) -> bool:
    """Whether two boxes (x, y, w, h) of a card are one that has not moved, one side read apart: three sides within 2 px,
    the fourth within ``ONE_SIDE_FRAYS`` of the long side (twin 4415 reveal 1: a blank card's lower edge on the near
    wall's shade band, its box 246 to 260 px tall from frame to frame, its corners read anywhere on its field)."""
    if a is None or b is None:
        return False
    sides = [abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[0] + a[2] - b[0] - b[2]), abs(a[1] + a[3] - b[1] - b[3])]
    return sorted(sides)[2] <= 2 and max(sides) <= ONE_SIDE_FRAYS * max(a[2], a[3], b[2], b[3])


def fragment_on_its_pile(a, b) -> bool:
    """Whether two readings (:class:`rig.vision.card_view.CardReading`) of one colour are one card on a blob that has not
    moved (every side of box and pile within 2 px), its field's corners read both times on a fragment of it (less than
    ``FRAGMENT`` of the box): the corners of such a fragment jump from frame to frame (twin 4711 reveal 1: a blank's
    lower part, 8-10 % apart), the blob not."""
    if a.card != b.card or None in (a.box, b.box, a.pile, b.pile) or a.outline() is None or b.outline() is None:
        return False
    still = max(abs(x - y) for x, y in [*zip(a.box, b.box), *zip(a.pile, b.pile)]) <= 2
    return still and all(cv2.contourArea(r.outline().astype(np.float32)) < FRAGMENT * r.box[2] * r.box[3] for r in (a, b))

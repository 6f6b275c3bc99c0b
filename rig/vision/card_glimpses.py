"""What the reveal (:mod:`rig.vision.card_reveal`) sees between two settles: cards lying still a moment (glimpsed), a
blob that is no card's shape lying still over the cards, a hand over the empty box that stays."""

from __future__ import annotations

import numpy as np

from rig.vision.card_lying import LAID_SHIFT, PRINT_MOVED, PRINT_STEADY, _outline_grew, steady_mark
from rig.vision.card_places import (_covering, _covers, _long_side, _one_place, _overlap, _same_box, _same_pile, _seen,
                                    edge_shift)
from rig.vision.card_view import CardReading, CardView


class _Glimpses:
    """The part of :class:`rig.vision.card_reveal.CardReveal` that keeps what it saw between two settles."""

    def _hand_stays(self, hands: tuple) -> bool:
        """Whether the hands over the empty box moved and now have stayed put a frame longer than a card
        needs to settle (once): a hand waiting at the edge after laying a card the camera does not see."""
        before, frames, moved = self._waiting
        if before is not None and len(before) == len(hands) and all(
                a is not None and b is not None and _same_box(a, b, 0.1) for a, b in zip(before, hands)):  # (an arm's
            # outline told by its colour frays by a few px)
            self._waiting = (hands, frames + 1, moved)
        else:
            self._waiting = (hands, 1, before is not None)
        return self._waiting[2] and self._waiting[1] == self.settle + 1

    def _still_blob(self, view: CardView) -> bool:
        """A blob that is no card's shape lying still over a card it hides (or, when none lies, anywhere but at the
        view's edge, where a hand waits) a frame longer than a card needs to settle (once per blob)."""
        # (an arm reaching in from the view's edge waits beside the cards it does not hide: read where they lie)
        box = next((h for h in view.hands if h is not None and (any(
            _covering(k.reading.box, h) and not (view.at_edge(h) and _seen(view, k.outline)) for k in self._lying)
            or not self._lying and not view.at_edge(h))), None)
        if box is None:
            self._blob_left(view)
            self._still = None
            return False
        if self._still is not None and _same_box(self._still[0], box):
            self._still = (self._still[0], self._still[1] + 1)
        else:  # something moved over the blob (a hand): a blob asked about before may hide one more card now
            self._blob_left(view)
            self._still = (box, 1)
            self._asked_still = [s for s in self._asked_still if not _overlap(s, box)]
        if self._still[1] == self.settle + 1 and not any(
                _same_box(seen, box) for seen in self._asked_still):
            self._asked_still.append(box)
            # an arm reaching in from the view's edge that has not moved since the card it brought settled (seen, and
            # booked) waits there: no cards askew under it (twin 2615, 3015, 3305: a truthful no)
            return not (view.at_edge(box) and any(_same_box(box, h, 0.1) for h in self._laid_by))
        return False

    def _blob_left(self, view: CardView) -> None:
        """The blob lying still over the cards moves or goes: had it lain still as long as a card needs to settle (not
        asked: that needs a frame more), away from the view's edge (no arm waiting), a card may lie under it that the
        camera never saw apart (twin 4205 reveal 1: a third gray laid askew on the gray pile, read as a blob 3 frames,
        then a hand brought the fourth and the blob lay still again): remembered, asked about with the next blob."""
        if self._still is not None and self._still[1] == self.settle and not view.at_edge(self._still[0]):
            self._blobs_unasked.append(self._still[0])

    @staticmethod
    def _on_its_box(lying, card: CardReading) -> bool:
        """A card read on the very box of a lying card (whatever its field's corners read: twin 3200, a card read by its
        field while a hand laid the next elsewhere)."""
        return None not in (lying.reading.box, card.box) and _same_box(lying.reading.box, card.box)

    def _glimpse(self, cards: list[CardReading]) -> None:
        """Remember cards seen lying in a hand-free view that are none of the cards known to lie there (one of a lying
        card's colour on its very box is that card, whatever its field's corners read: twin 3200, a card read while the
        hand laid the next elsewhere; so is one on the very box of a card entered by hand that the camera could not
        read, read in one frame: twin 3118)."""
        for card in cards:
            if any(k.reading.card in (card.card, None) and (edge_shift(k.outline, card.outline()) <= 2 * self.moved
                                                             or self._on_its_box(k, card) and not self._print_left(k, card))
                   or not k.touched and _same_pile(k.reading, card) or self._its_print(k, card) for k in self._lying):
                continue
            for g in self._glimpsed:
                if g[0].card == card.card and edge_shift(g[0].outline(), card.outline()) <= 2 * self.moved:
                    g[1] += 1
                    if not g[2]:
                        g[5].append(card.mark)  # (where its print lay, frame by frame, before a hand came over it)
                        g[6].append(card)  # (and how it was read)
                    break
            else:  # (the card, frames seen, touched, vanished, frames seen before touched) — seen first on the very box
                # of a blob that lay still just before, not at the view's edge, read as no card's shape: it lay there
                # those frames too (twin 3116)
                still = self._still is not None and card.box is not None and _same_box(self._still[0], card.box)
                self._glimpsed.append([card, 1 + (self._still[1] if still else 0), False, False, 0, [card.mark], [card]])

    def _drop_glimpsed_now(self, cards: list[CardReading]) -> None:
        """Forget the cards glimpsed lying that are in view now, as the rig asks to enter the last card laid by hand: the
        answer enters that card (twin 4310 reveal 0: the fourth pink lay still on the right pile while the arm's blob lay
        still over the left one; asked about, entered, then booked again from the glimpse as the yellow settled on it)."""
        self._glimpsed = [g for g in self._glimpsed if not any(
            c.card == g[0].card and edge_shift(g[0].outline(), c.outline()) <= 2 * self.moved for c in cards)]

    def _grown_over(self, card: CardReading, readings: list[CardReading], cards: list[CardReading]) -> bool:
        """Whether a card glimpsed lying with no print known (a yellow card's faint print found apart from frame to
        frame), read on its very edges (within ``same``) and with a pile outline in each frame it lay, had one of its
        colour settle over it as round 12's pile top laid on: ``LAID_SHIFT`` or more apart, the pile's outline grown on a
        side and left on none, no hand over it now (twin 3610 reveal 0: the third yellow card, 4 frames beside the arm's
        shade, then the fourth on it 4.6 % apart, the outline grown 4 px up and right)."""
        outline = card.outline()
        if any(r.pile is None or r.outline() is None or edge_shift(outline, r.outline()) > self.same for r in readings):
            return False
        return any(c.card == card.card and c.outline() is not None and c.pile is not None and _covers(c.outline(), outline)
                   and _one_place(outline, c.outline()) and edge_shift(outline, c.outline()) >= LAID_SHIFT
                   and _outline_grew(readings[-1].pile, c.pile) and not any(_overlap(c.box, h) for h in self._hand_boxes)
                   for c in cards)

    @staticmethod
    def _print_left(lying, card: CardReading) -> bool:
        """A card of a lying card's colour read on its very box, its edges apart, after a hand was over it, with its print
        ``PRINT_MOVED`` of its long side or more from where that card's lay as it settled: one laid on it (a pile's box
        hardly changes as a card goes on it a few degrees askew — twin 4211 reveal 1: the third gray on the gray pile,
        its edges 14.5 % apart, its print 11 px, seen 4 frames beside the arm waiting at the view's edge)."""
        if not lying.touched or lying.reading.card != card.card or lying.mark is None or card.mark is None:
            return False
        moved = float(np.hypot(*(np.asarray(card.mark, np.float64) - lying.mark)))
        return moved >= PRINT_MOVED * _long_side(lying.outline)

    @staticmethod
    def _its_print(lying, card: CardReading) -> bool:
        """A card of a lying card's colour, on its place, read with its print within ``PRINT_STEADY`` of its long side of
        where that card's lay as it settled: that card read on another outline (twin 3605 reveal 0: the second gray card
        read on two outlines in turn, 8.9 % apart, its print 0.08 px from where it lay) — a card laid on it moves the
        print ``PRINT_MOVED`` or more."""
        if lying.reading.card != card.card or lying.mark is None or card.mark is None or card.outline() is None:
            return False
        if not _one_place(lying.outline, card.outline()):
            return False
        return float(np.hypot(*(np.asarray(card.mark, np.float64) - lying.mark))) < PRINT_STEADY * _long_side(lying.outline)

    def _touch_glimpses(self, view: CardView) -> None:
        """Mark the cards glimpsed lying still that a hand has been over since (as :meth:`_touch` the lying ones)."""
        for g in self._glimpsed:
            seen = any(c.card == g[0].card and c.outline() is not None and edge_shift(g[0].outline(), c.outline()) <= self.moved
                       for c in view.cards)
            if not g[2] and any(_overlap(g[0].box, h) and not (seen and view.at_edge(h)) for h in view.hands):
                g[2], g[4] = True, g[1]
            # (gone from view, no card in its place and nothing over it: no card vanishes by itself — the camera sees it now and then)
            g[3] = g[3] or not any(_overlap(g[0].box, b) for b in [c.box for c in view.cards if c.box is not None]
                                   + [h for h in view.hands if h is not None])

    def _unseen(self, cards: list[CardReading]) -> tuple[list[str], list[str]]:
        """Cards glimpsed lying still since the last settle (twice or more) that are gone now, under
        the cards that settled: laid, and covered before they lay still long enough to count — asked about (colours); or
        the one the camera saw lie there (:meth:`_seen_laid`): booked (its colour and the frames it was seen in)."""
        # (one a hand was over since, a card settled in its place with its edges moved: that card went onto it —
        # twin 108, the second yellow card seen lying, then the third laid on it askew)
        # A card seen now and then (gone from view with nothing over it, a gray card on a floor of its colour read by
        # its broken border in some frames only), a hand over it since: a card of its colour settling in its place
        # may be the next one laid on it (twin 2408, round 8: one lost in silence) — asked about, not taken for it
        gone = [g[0] for g in self._glimpsed if g[2] and g[3]]
        gone += [g[0] for g in self._glimpsed if g[1] >= 2 and not (g[2] and g[3]) and not any(
            c.card == g[0].card and (edge_shift(g[0].outline(), c.outline()) <= (self.moved if g[2] else 2 * self.moved)
                                     or not g[2] and (_same_pile(g[0], c) or _one_place(g[0].outline(), c.outline())))
            for c in cards)]
        # A card glimpsed lying still as long as a card needs to settle before a hand came over it (it did not settle:
        # the card beside the arm waiting at the view's edge read now whole, now as a part — twin 3306), one of its
        # colour settling on its very edges now: that card, or the next laid squarely on it? Asked (no: that card)
        gone += [g[0] for g in self._glimpsed if g[2] and not g[3] and g[4] >= self.settle and any(
            c.card == g[0].card and edge_shift(g[0].outline(), c.outline()) <= self.moved for c in cards)]
        seen = [(g[0], g[1]) for g in self._glimpsed if any(g[0] is o for o in gone) and self._seen_laid(g, cards)]
        self._glimpsed = []
        one = []  # a card glimpsed in places that overlap (its outline jumping from frame to frame) is one card
        for g in gone:
            if not any(o.card == g.card and _covers(o.outline(), g.outline()) for o in one):
                one.append(g)
        # (where each was glimpsed, as the rig asks about it: the card the players name for it may show there)
        self._gone_at = [(g.box,) if g.box is not None else () for g in one]
        if len(one) != 1 or len(seen) != 1 or seen[0][0] is not one[0]:  # (one card alone: two glimpsed are asked about)
            return [g.card for g in one], []
        return [], [(one[0].card, seen[0][1])]

    def _seen_laid(self, glimpse: list, cards: list[CardReading]) -> bool:
        """Whether a card glimpsed and gone now lay there as a card that settles does: seen lying a card's settle or
        longer with no hand over it (it did not settle: a card beside the arm at the view's edge read now whole, now in
        part or not at all — twin 3911 reveal 0, 3900 reveal 0), its print found in each of those frames where it lay
        (within ``PRINT_STEADY`` of its long side), and now a card settled on its place, of another colour or of its
        colour with its print ``PRINT_MOVED`` or more away: the next card laid on it. Then it was laid, and booked."""
        card, frames, touched, _, before, marks, readings = glimpse
        outline = card.outline()
        if not touched or before < self.settle or card.status != "ok" or outline is None:
            return False
        side = _long_side(outline)
        mean = steady_mark(marks, outline)
        if mean is None:
            return self._grown_over(card, readings, cards)
        return any(c.outline() is not None and _covers(c.outline(), outline) and _one_place(outline, c.outline())
                   and (c.card != card.card or self._mark(c) is not None
                        and float(np.hypot(*(self._mark(c) - mean))) >= PRINT_MOVED * side) for c in cards)

"""The cards the reveal (:mod:`rig.vision.card_reveal`) knows lie in view: each one's outline, and what has happened
to it since it settled — a hand over it, out of sight, its outline read apart, read beside an arm reaching in."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from rig.vision.card_places import (_card_of, _covering, _inside, _long_side, _one_place, _overlap, _same_box, _same_pile, _within,
                                    edge_shift)
from rig.vision.card_view import CardReading, CardView, Question

#: a pile's top moved at least this share of its long side (and its outline grew, none of it left): a card laid on it
LAID_SHIFT = 0.02
#: a pile's outline grown this far (px) on a side, none left, after a hand was over it: a card laid on it however little
#: (from ``same``) its top moved — a card re-read apart grew it 2 px at most (twin 3009 reveal 0), one laid 2-6 px; more
#: than 6 px is a pile regrown (booked before) — twin 5202 reveal 1: a yellow on the yellow pile, its top 1.75 % apart,
#: the outline 6 px taller at the top, the other sides to the pixel
LAID_GREW = 4
#: a pile's top whose print moved this share of its long side or more after a hand was over it: a card laid on it
PRINT_MOVED = 0.005
#: a settle's frames whose prints lie farther apart than this share of its long side from their mean: no print known
PRINT_STEADY = 0.002
#: a pile's outline whose side moved in by more than this (px): the pile left where it lay (nudged), no card laid on it
PILE_LEFT = 2
#: a nudged card carries its print as far as its outline left the floor: a print that moved less than this share of the
#: side's move-in is no nudge — the pile's outline read apart (twin 3903 reveal 1: its top edge 12 px in, print 2.4 px)
NUDGE_CARRIES = 0.5
#: a card's outline read inside a lying card's, smaller by this share of its area or more: that card read in part
IN_PART = 0.15
#: a card read beside an arm, its box reaching ``LAID_GREW`` px or more beyond a lying card's of its colour, whose print
#: lies this share of its long side or more from where that card's lay: another card, not that one read in part (an
#: arm's shade moves the print 0.38 %, twin 3010; a part cut by the shade, inside the card's box, reads it 12 % off,
#: 5419 reveal 0; a blue laid on the blue pile beside the waiting arm, 18 px beyond it, moved it 4.6 %, 5419 reveal 1 —
#: taken for the pile's top, it went uncounted)
PRINT_FAR = 0.02
#: an unread blob with no outline inside a lying card's box, this share of its area or more, is that card read in part
IN_ITS_BOX = 0.8


@dataclass
class _Lying:
    """A card the reveal knows lies in view, and whether anything has touched it since it settled (a hand, a card, gone)."""

    reading: CardReading
    outline: np.ndarray
    touched: bool = False
    blind: bool = False  # entered by hand when laid (the camera did not see it), seen since where it lies
    gone: int = 0  # frames in a row not seen; then: out of sight `settle` frames (or under a hand: twin 2607), and
    hidden_since: bool = False
    lost: bool = False  # so with no hand over it (2605)
    handled: bool = False  # a hand was over it, or it was out of sight (not only its outline read apart)
    covered: bool = False  # a hand's blob was over a third of it or more (seen through it or not)
    #: the other outlines it was read with while nothing was in view but the cards and nothing had touched it (its
    #: edges read now on its border, now on its field: twin 3311's yellow card, 7 % apart from frame to frame)
    seen_as: list = field(default_factory=list)
    #: where its print lay as it settled (the mean over the frames it settled in: :meth:`CardReveal._mark`)
    mark: np.ndarray | None = None

    def echo(self, outlines: list, same: float) -> bool:
        """Whether a card read with these outlines (frame by frame as it settled) was read in one of them on the very
        edges (within ``same``) of this card or of one this card was read with while nothing had touched it."""
        return any(edge_shift(o, outline) <= same for o in [self.outline, *self.seen_as] for outline in outlines)



class _LyingCards:
    """The part of :class:`rig.vision.card_reveal.CardReveal` that follows the lying cards from frame to frame."""

    #: the event booking a card that settled, while the question about a glimpsed card was open, on the very box it was
    #: glimpsed on, no hand over it since the question: the card the answer names (:meth:`_settled_named`)
    _named_here: tuple | None = None

    def _asking(self, question: Question) -> None:
        """It asks ``question``: about a card glimpsed, then gone, the hands in view from now on may lay the next card
        there — but one over that place as it asks is laying the card asked about (:meth:`_hands_since_ask`)."""
        self._laying, self._named_here = False, None
        if question.seen_at:
            over = [h for h in self._hand_boxes if any(_overlap(h, w) for w in question.seen_at)]
            self._since_ask, self._laying = [h for h in self._hand_boxes if h not in over], bool(over)

    def _hands_since_ask(self, view: CardView) -> None:
        """Keep the hands seen while a question about a card the camera did not see (or saw, then lost) is open: a card
        showing under one is not the card asked about. Not a hand over the glimpsed card's place that has been there
        every frame since it asked: the hand still laying that card (named "no, it was pink" before it settles)."""
        if self.question is None or not (self.question.where or self.question.seen_at):
            return
        hands = [h for h in view.hands if h is not None]
        self._laying = self._laying and any(_overlap(h, w) for h in hands for w in self.question.seen_at)
        if not self._laying:
            self._since_ask += hands

    def _settled_named(self, cards: list[CardReading], events: list) -> list:
        """The events of a settle (unchanged): while a question about a glimpsed card is open (asked before this settle),
        a new card settling on the very box it was glimpsed on, no hand over that place since the question but the one
        laying it then, is the card asked about seen at last — its event, held for the answer, is remembered: a yes (or
        "no, it was pink") books the card the answer names once, in its place (:meth:`_named_settled`). A card on other
        edges, or under a hand seen since, waits as a new card."""
        asked = self.question
        if asked is None or not asked.seen_at or self._named_here is not None:
            return events
        there = {c.card for c in cards if c.status == "ok" and c.box is not None
                 and any(_same_box(c.box, w) for w in asked.seen_at if w is not None)
                 and not any(_overlap(c.box, h) for h in self._since_ask)}
        self._named_here = next((e for e in events if e[0] == "book" and e[1] in there), None)
        return events

    def _named_settled(self) -> bool:
        """Whether the card the answer (yes, or "no, it was…") names settled while the question was open
        (:meth:`_settled_named`): its held event is dropped — the answer books it, with the colour it names."""
        named, self._named_here = self._named_here, None
        if named is None or not any(e is named for e in self._held):
            return False
        self._held = [e for e in self._held if e is not named]
        return True

    def _adopt(self, view: CardView) -> None:
        """A card entered by hand (the camera did not see it laid) that shows later — where the hand laying it was,
        and no hand (nor a card it carries) has been over that place since — is that card, lying there: neither
        a new card to book nor one glimpsed before the next (twin 2216: a gray card seen only now and then). A glimpsed
        card named while a hand was laying it (over its place since the question) is the one that shows on the very box
        it was glimpsed on as that hand leaves; one on other edges, that hand never gone, is the next card it laid."""
        near = [h for h in view.hands if h is not None] + [c.box for c in view.cards if c.hidden and c.box is not None]
        for token in self._blind:  # [where, the hands since, a hand laying it over its place still, named so]
            token[2] = token[2] and any(_overlap(h, w) for h in near for w in token[0])
            if not token[2]:
                token[1] += near
        for c in view.cards:
            if c.status != "ok" or c.hidden or c.box is None or any(
                    k.reading.card == c.card and edge_shift(k.outline, c.outline()) <= 2 * self.moved
                    or _same_pile(k.reading, c) for k in self._lying):
                continue
            token = next((t for t in self._blind if any(_overlap(c.box, w) for w in t[0])
                          and not any(_overlap(c.box, b) for b in t[1])
                          and (not t[3] or any(_same_box(c.box, w) for w in t[0]))), None)
            if token is not None:
                self._blind.remove(token)
                self._lying.append(_Lying(c, c.outline(), blind=True))

    def _unhide(self, view: CardView) -> CardView:
        """A card read beside an arm reaching in (part of it may lie under the arm or its shade) that lies within a
        card known to lie there, of its colour, is that card: it keeps the place it was seen in before (the shade's
        edge cuts its outline differently from frame to frame) — so is one with its print where that card's lay (twin
        4418 reveal 0: the first blue read on a box 78 px taller beside the arm, its print within 0.1 px). A part of a
        card of none of them is asked about once it lies still (:meth:`_part_lies`)."""
        arms = [h for h in view.hands if h is not None and view.at_edge(h)]
        self._frames_whole += 1
        if not arms:
            self._parts = []
            return view
        cards, parts = [], []
        for c in view.cards:  # (its outline read beside an arm, the field's or the card's, may take in the shade)
            # (or on its very blob, nothing over it since it settled and no arm over a third of it now: its field's
            # corners read on a part of it, then on the whole, twin 3118 — else the blob may be one laid squarely on
            # it, 2916, 2402)
            k = next((k for k in self._lying if c.hidden and k.reading.card == c.card and c.outline() is not None
                      and not _print_far(k, c) and (_within(c.outline(), _card_of(k.outline), self.moved)
                           or not k.touched and None not in (c.box, k.reading.box) and _same_box(k.reading.box, c.box)
                           and not any(_covering(k.reading.box, a) for a in arms)
                           or self._its_print(k, c))), None)
            if k is not None:
                cards.append(k.reading)
                if edge_shift(k.outline, c.outline()) > self.moved:  # a part standing for it, not the card seen whole
                    self._frames_whole = 0
            elif c.hidden and not self._whole_card(c):  # (a card may lie there: the arm waiting is not over an empty box)
                prev = next((p for p in self._parts if p[0].card == c.card and _one_place(p[0].outline(), c.outline())), None)
                parts.append([c, prev[1] + 1 if prev else 1])
            else:
                cards.append(c)
        self._parts = parts
        return CardView(tuple(cards), view.hands, view.size)

    def _whole_card(self, c: CardReading) -> bool:
        """Whether a card read beside an arm is as large as the largest card known to lie in view (seen whole, its
        box only reaching the arm's: twin 2402, a gray card laid on the gray pile, the arm waiting at a corner)."""
        if c.status != "ok" or c.outline() is None or not self._lying:
            return False
        return cv2.contourArea(c.outline()) >= 0.95 * max(cv2.contourArea(k.outline) for k in self._lying)

    def _part_lies(self) -> list[str]:
        """A part of a card beside an arm, of none known to lie there, lying still as long as a card needs to
        settle: asked about (a card, its colour read on the part the arm leaves in view); it lies there since."""
        ripe = [p[0] for p in self._parts if p[1] == self.settle]
        self._lying += [_Lying(c, c.outline()) for c in ripe]
        return self._book([("ask", Question(f"was a {c.card} card laid just now?", (c.card,))) for c in ripe])

    def _touch(self, view: CardView) -> None:
        for lying in self._lying:
            seen = any(c.card == lying.reading.card and c.outline() is not None
                       and (edge_shift(lying.outline, c.outline()) <= self.moved or _same_pile(lying.reading, c))
                       for c in view.cards) or any(  # (a card whose colour a frame leaves unread, on its very edges)
                None in (c.card, lying.reading.card) and c.outline() is not None and self._on_its_edges(lying, c)
                for c in view.cards)
            flip = {c.card for c in view.cards if c.status == "ok" and None not in (c.card, lying.reading.card)
                    and c.card != lying.reading.card and self._on_its_edges(lying, c)}
            if flip and not seen and not lying.touched and not any(_overlap(lying.reading.box, h) for h in view.hands):  # its colour read
                self._doubt |= flip | {lying.reading.card}  # another on its very edges, nothing over it (fresh 2815)
                seen = True
            if seen and not view.hands and not lying.touched:  # (nothing over it, nothing else in view: it, read so)
                lying.seen_as += [c.outline() for c in view.cards if c.card == lying.reading.card and c.outline() is not None
                                  and self._read_apart(lying.outline, c.outline())
                                  and min(edge_shift(o, c.outline()) for o in [lying.outline, *lying.seen_as]) > self.same][:1]
            lying.covered = lying.covered or any(_covering(lying.reading.box, h) for h in view.hands if h is not None)
            covered = not seen and any(_covering(lying.reading.box, h) for h in view.hands if h is not None)
            lying.gone = 0 if seen else lying.gone + 1
            lying.lost = lying.lost or lying.gone >= self.settle and not covered
            lying.hidden_since = lying.hidden_since or lying.gone >= self.settle or covered
            near = seen or any(c.card == lying.reading.card and c.outline() is not None
                               and self._read_apart(lying.outline, c.outline()) for c in view.cards)
            # (an arm waiting at the view's edge beside a card seen in its place is not over it — unless it covers a
            # third of it or more: an arm reaching in over a pile read in part beside it, twin 4209, round 23)
            hand = any(_overlap(lying.reading.box, h) and not (seen and view.at_edge(h) and not _covering(lying.reading.box, h))
                       for h in view.hands)
            # (nor is one that reaches a sliver of it, the card read a little apart beside it: its shade, 2710)
            lying.handled = lying.handled or not near or any(_overlap(lying.reading.box, h) and not (
                near and view.at_edge(h) and not _covering(lying.reading.box, h)) for h in view.hands)
            lying.touched = lying.touched or hand or not seen

    def _laid_on(self, lying: _Lying, card: CardReading, shift: float) -> bool:
        """Whether a pile's top of its colour, its edges moved by ``shift`` (``same`` to ``moved``) after a hand was over
        it, had a card laid on it: its field moved by 2 % of its long side or more (its edges and icon 4-8 px) **and** the
        pile's outline (what changed from the empty box) grew on a side and left none — a card laid a few px askew sticks
        out beyond the one below, which stays where it lay. A card re-read with no card laid on it moves its corners as
        far now and then (up to 3.2 %, twin 2802), its outline not (0 px in 7 of 8 such readings of 1.5 % or more, on the
        seen twin sets); a card a hand nudged leaves the floor bare where it lay. Its field moved less (from ``same``):
        the outline grown ``LAID_GREW`` px or more, as no re-read grows it (twin 5202 reveal 1). Else asked: also with no
        outline known (no empty box) or a hand over the card now (an arm's shade may cut its outline)."""
        before, now = lying.reading.pile, card.pile
        if before is None or now is None or self._hands and not self._hand_boxes or any(
                _overlap(card.box, h) for h in self._hand_boxes):
            return False
        return _outline_grew(before, now, 2 if shift >= LAID_SHIFT else LAID_GREW)

    def _print_moved(self, lying: _Lying, card: CardReading) -> bool:
        """Whether a pile's top of its colour, on the lying card's edges or a little apart after a hand was over it, had a
        card laid on it by its print: the print's centroid (the mean over the frames each settled in) moved by
        ``PRINT_MOVED`` of its long side or more — a card laid squarely lies a few px askew of the one below; a card
        re-read with nothing laid on it keeps its print within a few tenths of a px. Not with a hand in view over the
        card's box (an arm's shade on the field moves what reads as print: 0.38 % on twin 3010), and not when the pile's
        outline left a side by more than ``PILE_LEFT`` and the print moved ``NUDGE_CARRIES`` of that or more (a card
        nudged carries its print along; a side read in by 12 px, the print 2.4 px: the outline read apart, twin 3903)."""
        now = self._mark(card)
        if lying.mark is None or now is None or self._hands and not self._hand_boxes or any(
                _overlap(box, h) for h in self._hand_boxes for box in (card.box, lying.reading.box)):
            return False
        moved = float(np.hypot(*(now - lying.mark)))
        before, after = lying.reading.pile, card.pile
        if before is not None and after is not None:
            left = -min(_sides_grown(before, after))
            if left > PILE_LEFT and moved >= NUDGE_CARRIES * left:  # (the card took its print along: nudged)
                return False
        return moved >= PRINT_MOVED * _long_side(lying.outline)

    def _print_held(self, lying: _Lying, card: CardReading) -> bool:
        """Whether a pile's top of its colour, its edges read a little apart (``same`` to ``moved``) after a hand was
        over it, is the card that lay there by its print: the print known before and now (each steady over its settle's
        frames) and within ``PRINT_STEADY`` of its long side of where it lay — a card laid on it lies a few px askew and
        moves it ``PRINT_MOVED`` or more, a card re-read keeps it within a few tenths of a px (twin 3705 reveal 0: a
        blank card under the arm for a settle, its corners read 1.8 % apart after, its print 0.05 px). Not with a hand
        in view over the card's box, nor when the pile's outline changed (one read with no pile outline: its print)."""
        now = self._mark(card)
        piles = None not in (lying.reading.pile, card.pile)  # (a card read with no pile: its outline joined by a
        # neighbour's, its print where it lay — twin 3917 reveal 1; the pile's outline changed under it: asked)
        if lying.mark is None or now is None or piles and not _same_pile(lying.reading, card) or self._hands and not self._hand_boxes or any(
                _overlap(box, h) for h in self._hand_boxes for box in (card.box, lying.reading.box)):
            return False
        return float(np.hypot(*(now - lying.mark))) < PRINT_STEADY * _long_side(lying.outline)

    def _read_in_part(self, lying: _Lying, card: CardReading) -> bool:
        """Whether a card of a lying card's colour is that card read in part: its outline inside the lying card's
        (within ``moved``), in its place, and smaller by ``IN_PART`` of its area or more — a shade cast over the lower
        part of a card no hand came near, its field's corners read on the lit part (twin 4317 reveal 0: the first blue
        read 34 px taller, its outline a third short, as the third card was laid on the pile beside it)."""
        now = card.outline()
        return (lying.reading.card == card.card and now is not None and _one_place(lying.outline, now)
                and _within(now, _card_of(lying.outline), self.moved)
                and cv2.contourArea(now) <= (1 - IN_PART) * cv2.contourArea(lying.outline))

    def _bear_unread(self, view: CardView) -> CardView:
        """A card a frame leaves unread that lies on a lying card's very edges, nothing over it since, is that card:
        the colour it was booked with (or, asked about as unread, still unread) — a card read now a colour, now
        "uncertain" (blue or blank?) neither holds later cards back nor is lost (twin 3108). So is one whose box is
        most of that card's, inside it (twin 3616: a blank card whose lower border the
        waiting arm's shade cuts, "of unknown colour", held the next two cards back until the arm left)."""
        cards = []
        for c in view.cards:
            k = None if c.status == "ok" else next(
                (k for k in self._lying if c.corners is not None and not k.touched and (
                    self._on_its_edges(k, c) or _in_its_box(k.reading.box, c.box)) or self._under_arm(k, c, view)), None)
            cards.append(c if k is None else k.reading)
        return CardView(tuple(cards), view.hands, view.size) if any(a is not b for a, b in zip(cards, view.cards)) else view

    @staticmethod
    def _under_arm(lying: _Lying, c: CardReading, view: CardView) -> bool:
        """Whether a reading left unread is a lying card under an arm reaching in from the view's edge: inside that card's
        box (every side within 6 px), the arm over a third of the card or more, and a card read clear of every hand
        elsewhere in view (the one the arm laid) — twin 4310 reveal 0, 4415 reveal 0: the arm waiting over the left pile
        after laying a card on the right one, the left pile read of no colour, the card seen settle on the right; before,
        nothing settled and the rig asked to enter the last card by hand."""
        if lying.reading.status != "ok" or lying.reading.box is None or c.box is None or not _inside(lying.reading.box, c.box):
            return False
        return any(view.at_edge(h) and _covering(lying.reading.box, h) for h in view.hands if h is not None) and any(
            o.status == "ok" and o.box is not None and not any(_overlap(o.box, h) for h in view.hands if h is not None)
            for o in view.cards)

    def _borne(self, reading: CardReading) -> bool:
        """Whether a reading left unread is a lying card's own (:meth:`_bear_unread`): it does not hold a settle (a part
        of a card beside an arm still does: twin 2616)."""
        return reading.status == "uncertain" and any(reading is k.reading for k in self._lying)

    def _on_its_edges(self, lying: _Lying, c: CardReading) -> bool:
        """Whether a reading lies on a lying card's very edges (within ``same``) or in its very box."""
        return c.box is not None and (edge_shift(lying.outline, c.outline()) <= self.same or _same_box(lying.reading.box, c.box))

    def _read_apart(self, lying: np.ndarray, now: np.ndarray) -> bool:
        """Whether an outline is a lying card's read a little apart: its edges within twice ``moved``, or inside it (the
        field read as an upright box beside an arm's shade: twin 2609)."""
        return edge_shift(lying, now) <= 2 * self.moved or _one_place(lying, now) and _within(now, _card_of(lying), self.moved)


def _print_far(lying: _Lying, card: CardReading) -> bool:
    """Whether a card read beside an arm is one laid on a lying card, not that card read in part: its box reaches
    ``LAID_GREW`` px or more beyond the lying card's and its print, read in this frame, lies ``PRINT_FAR`` of its long
    side or more from where the lying card's lay as it settled (both known)."""
    if lying.mark is None or card.mark is None or None in (lying.reading.box, card.box):
        return False
    if max(_sides_grown(lying.reading.box, card.box)) < LAID_GREW:
        return False
    return float(np.hypot(*(np.asarray(card.mark, np.float64) - lying.mark))) >= PRINT_FAR * _long_side(lying.outline)


def steady_mark(marks: list, outline) -> np.ndarray | None:
    """Where a card's print lay, the mean of ``marks`` (one a frame) — none when a frame read no print or one farther
    than ``PRINT_STEADY`` of the long side of ``outline`` from the mean (a faint print found a few px apart from frame
    to frame: twin 3311's yellow card, 3 % with nothing laid on it)."""
    if not marks or any(m is None for m in marks) or outline is None:
        return None
    mean = np.mean(np.asarray(marks, np.float64), axis=0)
    spread = max(float(np.hypot(*(np.asarray(m) - mean))) for m in marks)
    return mean if spread <= PRINT_STEADY * _long_side(outline) else None


def _outline_grew(before: tuple[int, int, int, int], now: tuple[int, int, int, int], px: int = 2) -> bool:
    """Whether a pile's outline (what changed from the empty box) grew on a side (``px`` or more) and left none: a card
    laid a few px askew on the pile sticks out beyond the one below, which stays where it lay."""
    grew = _sides_grown(before, now)
    return min(grew) >= 0 and max(grew) >= px


def _sides_grown(before: tuple[int, int, int, int], now: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """How far each side of a pile's outline (x, y, w, h) moved out from ``before`` to ``now`` (px: left, top, right,
    bottom; negative: moved in)."""
    return (before[0] - now[0], before[1] - now[1], now[0] + now[2] - before[0] - before[2],
            now[1] + now[3] - before[1] - before[3])


def _in_its_box(card: tuple[int, int, int, int] | None, box: tuple[int, int, int, int] | None) -> bool:
    """Whether a blob's box lies inside a card's box (every side within 6 px of it or inside) and covers at least
    ``IN_ITS_BOX`` of it: the card read in part (its border cut by a shade), not a card laid beside or across it."""
    if card is None or box is None:
        return False
    return _inside(card, box) and box[2] * box[3] >= IN_ITS_BOX * card[2] * card[3]

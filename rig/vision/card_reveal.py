"""The reveal's order: :class:`CardReveal` turns a stream of card views (:func:`rig.vision.cards.read_cards`)
into the cards in the order they were laid down, each laid card an event; it asks when it cannot tell."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from rig.vision.card_flicker import CardFlicker
from rig.vision.card_glimpses import _Glimpses
from rig.vision.card_lying import _Lying, _LyingCards, steady_mark
from rig.vision.card_places import (_card_of, _covering, _covers, _overlap, _same_box, _same_pile, _same_place, _within,
                                    edge_shift, fragment_on_its_pile, same_box_unpiled)
from rig.vision.card_view import _UNREAD, CardReading, CardView, Question, _as_view, laid_next  # noqa: F401  (re-exported)

_UNSEEN = Question("which card was laid last? The camera cannot make it out", (), (), unread=True)
#: asked first when the same place lay still as a blob before, and a hand came over it since (twin 4205 reveal 1)
_UNSEEN_BEFORE = Question("which card was laid before the last one? The camera cannot tell", (), (), unread=True)


class CardReveal(_LyingCards, _Glimpses):
    """The cards in the order they are laid down, from a stream of :class:`CardView` (or single
    :class:`CardReading`) frames.

    A laid card is an event: once what is in view has lain still for ``settle`` frames, each card there is matched
    against the cards that lay there before. A card where none lay is new; a card on top of another (in its place, but
    its edges moved by more than ``moved`` of its long side, after something touched the one below) is new, whatever
    its colour — two pink cards in a row are two cards. The same edges are the same card (a hand passing over a row does
    not lay one) — unless a card of its colour was seen on its way in and settled nowhere new: then a card was laid
    squarely on it, and the rig asks (edges moved a little: booked). When the rig cannot tell (a same-colour card's edges
    moved a little after a hand passed, none seen coming in; a card's edges moved with nothing seen touching it; several
    new cards at once), it asks: :attr:`question` is set, and until :meth:`answer` is called every later card waits, so
    no later card is ever booked into an earlier slot. A card read as a blob on its own box, nothing else moved, lies as
    it did (:class:`rig.vision.card_flicker.CardFlicker`). ``feed`` and ``answer`` return the cards booked just now.

    >>> reveal = CardReveal(settle=2)
    >>> r = lambda c, x=0: CardReading(c, 1.0, "ok", (), (x, 0, 100, 140))
    >>> [reveal.feed(r(c)) for c in ["pink", "pink", "pink"]]
    [[], ['pink'], []]
    """

    def __init__(self, *, settle: int = 3, same: float = 0.015, moved: float = 0.035) -> None:
        self.settle = settle
        self.same = same
        self.moved = moved
        self.cards: list[str] = []
        self.question: Question | None = None
        self.asked = 0  # questions asked so far
        self._lying: list[_Lying] = []
        self._candidate: list[CardReading] | None = None
        self._hands = False
        self._parts: list[list] = []  # the parts of cards beside an arm, of none known to lie there: [reading, frames]
        self._before: tuple | None = None  # the candidate before one odd frame: (cards, frames still)
        self._count = 0
        self._done = False  # the candidate has settled (once)
        self._empty_hand = 0  # a hand was seen over the empty box: then the clear frames since, plus one
        self._waiting: tuple = (None, 0, False)  # the hands over the empty box: their boxes, frames still, moved
        self._held: list[tuple[str, Question | str]] = []  # settled after the open question: they wait
        #: cards seen lying still (no hand in view) since the last settle, not yet settled: [reading, frames]
        self._glimpsed: list[list] = []
        self._unread = 0  # hand-free frames in a row with a card in view that cannot be read
        self._still: tuple | None = None  # a shapeless blob over a lying card that does not move: (box, frames)
        self._asked_still: list = []
        self._blobs_unasked: list = []  # blobs that lay still over the cards a card's settle, then moved: not asked
        #: the colours of cards seen since the last settle where no card lay: a card on its way in
        self._arriving: dict[str, int] = {}
        self._arriving_whole: set = set()  # (of them, the colours read whole, not only hidden under a hand, at least once)
        self._over_empty: list = []  # the boxes of the hands seen over the empty box (no card known or in view)
        self._since_ask: list = []  # the hands seen since it asked about a card it did not see (the next one held?)
        self._laying = False  # (a hand over the place of the glimpsed card asked about ever since it asked: laying it)
        self._blind: list[list] = []  # cards entered by hand, not seen: [where the hands were, the hands since, ...]
        self._under: list[tuple] = []  # booked on a yes while an arm waited: (colour, the arm's boxes) — it may lie there
        self._hand_boxes: tuple = ()
        self._doubt: set = set()  # colours read on the very edges of one lying card, nothing over it: confused here
        self._arms = False  # the hands in view are arms reaching in from the view's edge (none over the box alone)
        self._frames_whole = 0  # frames since a part of a card beside an arm stood for the one known to lie there
        self._laid_by: tuple = ()  # the hands in view when the last settle booked a card
        #: the outlines each card of the candidate was read with, frame by frame: {id: (its reading, outlines)}
        self._read_as: dict = {}
        self._flicker = CardFlicker()  # (a card read as a blob on its own box, nothing else moved: that card)

    # -- the stream --------------------------------------------------------------------------
    def feed(self, view: CardView | CardReading) -> list[str]:
        raw = self._flicker.steady(_as_view(view))
        view = self._bear_unread(self._unhide(raw))
        self._hands_since_ask(view)
        if self._blind:
            self._adopt(view)
        if any(p[1] == self.settle for p in self._parts):
            return self._part_lies()
        if view.clear:  # the box bottom alone: whatever lay there is gone, the next card is new
            # (a card entered by hand that the camera sees only now and then still lies there)
            if self._hands and not self._empty_hand and any(not k.blind and k.reading.card == "gray" for k in self._lying):
                # gray cards it saw gone as a hand left, nothing in view: a gray card laid on them that the camera does
                # not see (on a floor of their colour, read by their broken border, the pile of them not: twin 2811,
                # 2803), asked as one — or the players took them back: no
                self._empty_hand, self._over_empty = 1, list(self._hand_boxes)
            self._lying = [k for k in self._lying if k.blind]
            self._laid_by = ()
            self._under, self._doubt = [], set()
            self._candidate, self._count, self._glimpsed, self._arriving = None, 0, [], {}
            self._arriving_whole = set()
            self._before = None
            self._still, self._waiting = None, (None, 0, False)  # a blob seen before and again moved away between
            self._blobs_unasked = []
            if self._empty_hand:  # a hand came over the empty box and left no card the camera sees: one it cannot?
                self._empty_hand += 1
                if self._empty_hand > self.settle:
                    self._empty_hand = 0
                    return self._ask_blind(view.hands)
            else:
                self._over_empty = []
            return []
        # a hand over a box where no card lies (none known, none in view)
        self._empty_hand = 1 if not view.cards and all(k.blind for k in self._lying) else 0  # (a part of a card
        # beside the arm too; a card entered by hand the camera sees only now and then is no card it sees)
        if self._empty_hand:
            self._over_empty += [h for h in view.hands if h is not None]
        if self._empty_hand and self._hand_stays(view.hands):  # it moved, then stays, and no card shows
            self._empty_hand = 0
            return self._ask_blind(view.hands)
        self._touch(view)
        if (not view.hands or self._arm_apart(raw)) and self.question is None:
            gone = [k for k in self._lying if k.lost and k.touched and not k.blind and k.reading.card is not None and not any(
                c.box is not None and _overlap(c.box, k.reading.box) for c in view.cards)]
            if gone and (any(k.gone == 0 for k in self._lying) or view.hands and all(k.covered for k in gone)):
                # a card a hand was over went out of sight with the hand gone, nothing in view over it, while the cards beside it are seen where they lie
                # (twin 3702 reveal 1: a gray card laid on the gray pile, neither read since) — or nothing in view but
                # the arm waiting at the view's edge apart from it, a hand's blob over it before it went (4716 reveal 1:
                # a gray card laid on the blank pile, the pile read as nothing since): one the camera cannot read laid on it?
                self._lying = [k for k in self._lying if not any(k is g for g in gone)]
                self._candidate, self._count, self._before = None, 0, None
                return self._book([("ask", _UNREAD)])
        self._touch_glimpses(view)
        self._hand_boxes = tuple(h for h in view.hands if h is not None)
        if not self._hand_boxes or not all(any(_same_box(h, b, 0.1) for b in self._laid_by) for h in self._hand_boxes):
            self._laid_by = ()  # (the arm that laid the last card booked left or moved: a hand over the cards since)
        self._arms = bool(view.hands) and all(view.at_edge(h) for h in view.hands if h is not None)
        self._hands = bool(view.hands)  # (a hand in view, or its shade, may join a pile's outline)
        ok = [c for c in view.cards if c.status == "ok"]
        # a card whose edges are none of the lying cards' (beside them, or sliding over them): one coming in — not one
        # of its colour read apart in its place, no hand ever over it (its field outlined askew while a hand is in
        # view elsewhere, twin 2902: no card moves by itself)
        for colour in {c.card for c in ok if not any(edge_shift(k.outline, c.outline()) <= 2 * self.moved
                                                     or not k.touched and _same_pile(k.reading, c)
                                                     or k.reading.card == c.card and not k.handled
                                                     and self._read_apart(k.outline, c.outline())
                                                     or k.reading.card == c.card and self._on_its_box(k, c)
                                                     or self._its_print(k, c) for k in self._lying)}:
            self._arriving[colour] = self._arriving.get(colour, 0) + 1  # (frames it was seen in)
            if any(c.card == colour and not c.hidden for c in ok):
                self._arriving_whole.add(colour)
        # (a hand waiting at the box's edge hides none of them)
        self._glimpse([c for c in ok if not any(_overlap(c.box, h) for h in view.hands)])
        unread = [c for c in view.cards if c.status != "ok" and c.corners is not None and not any(
            not k.touched and edge_shift(k.outline, c.outline()) <= 2 * self.moved for k in self._lying)]
        clear = [c for c in unread if not any(_overlap(c.box, h) for h in view.hands)]
        self._unread = self._unread + 1 if clear and len(clear) == len(unread) else 0
        if self._still_blob(view):  # no hand stays that still: cards askew on a pile the camera cannot outline
            self._candidate, self._count, self._before = None, 0, None
            before = [b for b in self._blobs_unasked if _overlap(b, self._still[0])]
            self._blobs_unasked = []
            self._drop_glimpsed_now(ok)  # (the card just laid, lying in view beside the blob, is the one entered)
            return self._book([("ask", _UNSEEN_BEFORE)] * bool(before) + [("ask", _UNSEEN)])
        if self._unread == self.settle:  # a card lies still that cannot be read: later cards must wait
            self._lying = [k for k in self._lying if k.reading.card is not None]  # the one read before is under it
            self._lying.append(_Lying(unread[0], unread[0].outline()))
            self._candidate, self._count, self._before = None, 0, None
            return self._book([("ask", _UNREAD)])
        # a card whose colour a frame leaves unread (noise on a colour the camera barely tells) keeps its place
        # while it lies still: its colour is the one the other frames read there
        shaped = [c for c in view.cards if c.status == "ok" or c.corners is not None]
        if self._read_as_blob(view):  # one odd frame: a card of the candidate read as a blob on its very box
            self._before, self._candidate, self._count = (self._candidate, self._count), None, 1
            return []
        if len(shaped) < len(view.cards) or not shaped:  # a card unreadable (glare, hand over it): not settled
            self._candidate, self._count, self._before = None, 0, None
            return []
        merged = self._merge(self._candidate, shaped) if self._candidate is not None else None
        # (one odd frame: what lay before comes back after a single frame of something else — not after a hand seen
        # for two frames or more, whatever then lies in a lying card's place: twin 2810, a blank card on a yellow one)
        back = self._merge(self._before[0], shaped) if merged is None and self._before is not None and self._count == 1 else None
        if merged is not None:
            (self._candidate, self._read_as), self._count = merged, self._count + 1
            if self._done and any(c.hidden and any(_covering(b, h) for b in [c.box, *self._whole_of(c)])
                                  for c in raw.cards for h in raw.hands if h is not None):
                # a hand over a settled card read only in part beside it (its pile's box the same): it settles again
                # once the hand has gone — a card laid squarely on it leaves that box as it was (twin 4209, round 23;
                # the hand over the whole card, not over the part read beside it: twin 4704 reveal 1, a gray on a gray)
                self._count, self._done = 0, False
        elif back is not None:  # one odd frame (noise moved an edge) between still ones: not counted
            (self._candidate, self._read_as), self._count, self._done = back, self._before[1] + 1, False  # (settles
            # again: a card may have come in that frame, sliding over the pile)
            self._before = None
        else:
            self._before = (self._candidate, self._count) if self._candidate else None
            self._candidate, self._count, self._done = shaped, 1, False
            self._read_as = {id(c): (c, [c.outline()], [c.mark]) for c in shaped}
        if self._count < self.settle or self._done or any(c.status != "ok" and not self._borne(c) for c in self._candidate):
            return []
        self._done, self._before = True, None  # (what lay before it settled is no odd frame's neighbour now)
        return self._settled(list(self._candidate))

    def answer(self, yes: bool) -> list[str]:
        """The players' answer to :attr:`question`: its cards are booked, then those that waited."""
        if self.question is None:
            return []
        again = self._ask_past_next() if not yes else None
        if again is not None:
            self.question = again
            self.asked += 1
            return []
        booked = list(self.question.yes if yes else self.question.no)
        where = self.question.where or self.question.seen_at  # (a card glimpsed, then gone: where it was glimpsed)
        if yes and where and not self._named_settled():  # a card the camera did not see, entered by hand: it lies there
            self._blind.append([where, self._since_ask, self._laying, self._laying])
            # (a blob lying still there is that card, twin 2400: not asked about until something moves over it)
            self._asked_still += [w for w in where if w is not None]
        if yes and self.question.under:  # (a card under the arm: when it shows there, it may be this one)
            self._under.append((self.question.yes[0], self.question.under))
        self.cards += booked
        self.question = None
        held, self._held = self._held, []
        return booked + self._book(held)

    def _ask_past_next(self) -> Question | None:
        """Asked "were the next 2 cards laid blue, then gray?" where the gray was only glimpsed too (asked about next),
        a no may be the gray's alone (the arm's shadow read as a card, round 35): the blue asked about again with the
        card after the gray (not alone: a player counting the cards would answer yes for a blue held for the answer).
        None when the card after it was seen settle (a no is the blue's) or nothing came after the gray."""
        asked, held = self.question, self._held[:1]
        if not asked.then or not held or held[0][0] != "ask":
            return None
        following = held[0][1]
        if replace(following, seen_at=()) != laid_next(asked.then[0], following.then) or not following.then:
            return None
        return replace(laid_next(asked.yes[0], following.then), seen_at=asked.seen_at)

    @property
    def held_cards(self) -> list[str]:
        """The cards that settled after the open question, waiting for its answer."""
        return [card for k, w in self._held for card in ((str(w),) if k == "book" else w.yes[:1])]

    # -- inside --------------------------------------------------------------------------------
    def _ask_blind(self, hands: tuple) -> list[str]:
        """Ask about a card laid where the camera saw a hand and no card (a gray card on a floor of its colour); a hand
        in view as it asks (or since, until the answer) may hold the next card: one showing under it is not this one."""
        where, self._over_empty, self._since_ask = tuple(self._over_empty), [], [h for h in hands if h is not None]
        return self._book([("ask", replace(_UNREAD, where=where))])

    def _read_as_blob(self, view: CardView) -> bool:
        """Whether a card of the candidate lying still (not settled yet) is read in this frame as a blob of no card's
        shape on its very box, nothing else in view but the candidate's other cards: one odd frame, the card lies as
        it did (twin 4301 reveal 1: the last gray, read on the blank pile 3 of its 4 frames, a blob on its box the
        second; the count began anew and the reveal ended one frame short of its settle — the gray missing)."""
        if self._candidate is None or self._done or len(view.hands) != 1 or view.hands[0] is None:
            return False
        blob = view.hands[0]
        card = next((c for c in self._candidate if c.box is not None and _same_box(c.box, blob)), None)
        return card is not None and not view.at_edge(blob) and all(
            c.box is not None and any(o is not card and _same_box(o.box, c.box) for o in self._candidate) for c in view.cards)

    def _merge(self, before: list[CardReading], now: list[CardReading]) -> tuple[list[CardReading], dict] | None:
        """The cards still lying as before (``None``: something moved, came or went), each with its
        colour where any frame since read it (a colour read against another: moved); and the outlines each was read
        with, frame by frame (:attr:`_read_as` for them)."""
        if len(before) != len(now):
            return None
        out, read_as = [], {}
        for c in now:
            b = next((b for b in before if (b.card == c.card and edge_shift(b.outline(), c.outline()) <= self.moved)
                      or (b.status != "ok" or c.status != "ok") and _same_place(b.outline(), c.outline(), self.moved)
                      or _same_pile(b, c) or same_box_unpiled(b, c)), None)
            if b is None:
                return None
            out.append(c if c.status == "ok" or b.status != "ok" else b)
            read_as[id(out[-1])] = (out[-1], [*self._read_with(b), c.outline()], [*self._marks_of(b), c.mark])
        return out, read_as

    def _arm_apart(self, view: CardView) -> bool:
        """Nothing in view but arms at the view's edge, none over a card known to lie there."""
        return not view.cards and all(h is not None and view.at_edge(h) and not any(
            _overlap(h, k.reading.box) for k in self._lying if k.reading.box is not None) for h in view.hands)

    def _whole_of(self, part: CardReading) -> list:
        """The boxes of the candidate's cards of a part's colour that it overlaps: the whole card it is a part of."""
        return [k.box for k in self._candidate or () if k.card == part.card and k.box is not None and part.box is not None
                and _overlap(k.box, part.box)]

    def _read_with(self, card: CardReading) -> list:
        """The outlines a card of the candidate was read with, frame by frame (its own alone when not known)."""
        known = self._read_as.get(id(card))
        return known[1] if known is not None and known[0] is card else [card.outline()]

    def _marks_of(self, card: CardReading) -> list:
        """Where a card of the candidate's print lay, frame by frame (its own alone when not known)."""
        known = self._read_as.get(id(card))
        return known[2] if known is not None and known[0] is card else [card.mark]

    def _mark(self, card: CardReading) -> np.ndarray | None:
        """Where a card of the candidate's print lay, the mean over the frames it settled in — none when a frame read
        no print or one farther than ``PRINT_STEADY`` of its long side from the mean (a faint print, light on a light
        field, found a few px apart from frame to frame: twin 3311's yellow card, 3 % with nothing laid on it)."""
        return steady_mark(self._marks_of(card), card.outline())

    def _settled(self, cards: list[CardReading]) -> list[str]:
        events: list[tuple[str, Question | str]] = []
        (unseen, seen), self._over_empty = self._unseen(cards), []
        gone_at = self._gone_at if unseen else []
        for colour, frames in seen:  # (a card seen lying, then laid on: the arrival of its colour was that card)
            if self._arriving.get(colour, 0) <= frames:
                self._arriving.pop(colour, None)
        # a card seen on its way in that settled nowhere new went onto a card (of its colour: the pile's top)
        arrived = set(self._arriving)
        landed = arrived - {c.card for c in cards if not any(
            k.reading.card == c.card and edge_shift(k.outline, c.outline()) <= self.moved for k in self._lying)}
        # a card seen coming in (two frames or more) whose colour settled nowhere went under the cards that did
        # (its outline never lay still: an icon splitting its field, a hand beside it): laid, not yet counted — not one
        # read only hidden under a hand (twin 3604 reveal 0: the arm read "gray, hidden" as it laid pink cards)
        lost = sorted(c for c in landed if self._arriving[c] >= 2 and c not in {k.card for k in cards}
                      and c in self._arriving_whole)
        self._arriving, self._arriving_whole = {}, set()
        kept: dict[int, _Lying] = {}  # cards that lie as before, settled now with a hand in view: as seen before it
        as_was: dict[int, _Lying] = {}  # (of them, read in part now: they keep the outline and print they lay with)
        again, vanished = [], []  # (of them, hidden since / out of sight a while since the last settle: one laid on?)
        passed = []  # (of them, a hand was over since the last settle: one laid squarely on, the arm waiting? 2616)
        fragments = []  # (of them, read on a fragment of its field both times, its blob as it lay: (event, card, it))
        echoes = []  # (booked as new, on the very edges a lying card of its colour was read with before: (event, card, it))
        repiled = []  # (asked about: a hand was over it, its edges read a little apart, its blob as it lay: (event, card, it))
        for card in sorted(cards, key=lambda c: (c.box[1], c.box[0]) if c.box else (0, 0)):
            outline = card.outline()
            same = [(edge_shift(k.outline, outline), k) for k in self._lying if k.reading.card == card.card]
            d, match = min(same, key=lambda t: t[0]) if same else (np.inf, None)
            centre = tuple(float(v) for v in outline.mean(axis=0))
            under = [k for k in self._lying if cv2.pointPolygonTest(k.outline.reshape(-1, 1, 2), centre, False) >= 0]
            # the pile's outline changed under a top of the same colour: a card went onto it (its own
            # edges may read alike — an icon splitting its field, a card laid squarely)
            regrown = (match is not None and match.touched and not self._hands and None not in (match.reading.pile, card.pile)
                       and not _same_box(match.reading.pile, card.pile) and not any(
                           o is not card and o.pile == card.pile and o.card != card.card and not any(
                               k.reading.card == o.card and edge_shift(k.outline, o.outline()) <= self.moved for k in self._lying)
                           for o in cards))  # (grown by a new card of another colour on its blob beside it: twin 2712)
            if (match is not None and self._read_apart(match.outline, outline) and match.touched and not match.handled
                    and self._arms and card.card not in landed):  # an arm waiting at the view's edge, no hand ever
                kept[id(card)] = match  # over the card nor one of its colour coming in: its outline read with the
                continue  # arm's shade joining it (twin 2606), not a card laid on it — no hand brought one
            if match is not None and match.touched and not match.handled and card.card not in landed and not self._hands \
                    and self._read_in_part(match, card):  # a shade over part of it, no hand ever over it (twin 4317)
                as_was[id(card)] = match
                continue
            if match is not None and d > self.same and _same_pile(match.reading, card) and (
                    not match.touched or not match.handled and card.card not in landed):
                kept[id(card)] = match  # nothing came near it (or no hand was ever over it, never out of sight: only its
                continue  # corners read apart, twin 3005 — none of its colour came) and its blob lies as it did: that card
            # (its edges read a little apart, after a hand was over it, its print where it lay: that card, as on its edges;
            # up to twice ``moved`` apart, its outline joined by what lies beside it — twin 3917 reveal 1: 5.9 %, print 0.08 px)
            held = match is not None and self.same < d <= 2 * self.moved and match.touched and card.card not in landed and not (
                regrown or self._laid_on(match, card, d) or self._print_moved(match, card)) and self._print_held(match, card)
            if match is not None and (d <= self.same or held):
                if match.touched and (card.card in landed or regrown):  # a card came: on this one? (its print moved:
                    events.append(("book", card.card) if self._print_moved(match, card)  # laid squarely on it)
                                  else ("ask", Question(f"was that a second {card.card} card?", (card.card,))))
                else:
                    kept[id(card)] = match
                    if held and d > self.moved:  # (read apart beyond ``moved``, out of sight so read: its print where
                        continue  # it lay says no card lies on it — one laid on it moves the print, twin 3917 reveal 1)
                    again += [(card.card, self._print_moved(match, card))] * (match.touched and (
                        match.hidden_since or match.covered))  # (covered: read in part beside the hand, twin 4704)
                    vanished += [card.card] * (match.touched and match.lost)
                    passed += [(card.card, self._print_moved(match, card))] * match.touched
                continue  # the same card, where it lay
            if match is not None and d <= self.moved:
                if match.touched and (card.card in landed or regrown or self._laid_on(match, card, d)):  # seen coming
                    events.append(("book", card.card))  # in, the pile grew, or its top moved and its outline held: laid on
                elif match.touched and self._print_moved(match, card):  # its print moved: laid squarely on it
                    events.append(("book", card.card))
                elif match.touched:
                    events.append(("ask", Question(f"was that a second {card.card} card?", (card.card,))))
                    if not self._hands and card.card not in landed and _same_pile(match.reading, card):
                        repiled.append((events[-1], card, match))  # (its blob as it lay: the same card, if ...)
                else:
                    kept[id(card)] = match
                continue  # untouched: the same card, its edges read a little apart
            part = next((k for k in self._lying if k.reading.hidden and k.reading.card == card.card
                         and _within(k.outline, _card_of(outline) if k.reading.status == "hidden" else outline, self.moved)), None)
            if part is not None and (match is part or d > self.moved):  # a card seen in part beside an arm, whole now
                if card.card in landed or card.card in unseen:  # (and one of its colour seen coming in, or one
                    # glimpsed lying apart from it, then covered: a card laid on that one, twin 3116)
                    events.append(("ask", Question(f"was that a second {card.card} card?", (card.card,))))
                continue
            unread = next((k for k in under if (k.reading.card is None or {k.reading.card, card.card} <= self._doubt)
                           and not k.touched and (edge_shift(k.outline, outline) <= self.same
                                                  or card.box is not None and _same_box(k.reading.box, card.box))), None)
            if unread is not None:  # a card the camera could not read (entered by hand), nothing over it since, read
                kept[id(card)] = unread  # now on its very edges: that card, its colour read at last (twin 2600)
                continue
            if under and not any(k.touched for k in under):
                events.append(("ask", Question(f"was a {card.card} card laid just now?", (card.card,))))
                continue
            token = next((t for t in self._under if t[0] == card.card and any(_overlap(card.box, b) for b in t[1])), None)
            if token is not None:  # where the arm waited when a yes booked one of its colour: that card, or one more?
                self._under.remove(token)
                events.append(("ask", Question(f"was that {card.card} card one more (no: counted already)?", (card.card,))))
                continue
            events.append(("book", card.card))
            if match is not None and card.card not in landed and (
                    match.echo(self._read_with(card), self.same)
                    or _same_pile(match.reading, card) and not (match.covered or match.hidden_since or match.lost)):
                echoes.append((len(events) - 1, card, match))
            elif match is not None and card.card not in landed and fragment_on_its_pile(match.reading, card):
                fragments.append((len(events) - 1, card, match))
        if fragments and len(events) > len(echoes) + len(fragments):  # (a lying card read on a fragment of its field,
            # its blob as it lay, beside the card the hand brought, none of its colour landed on a card: that card —
            # twin 4711 reveal 1: a blank's lower part read 8-10 % apart as a blank was laid beside it)
            echoes = sorted(echoes + fragments, key=lambda e: e[0])
        if len(events) > 1 and echoes:  # several new at once, one of them a lying card read in a frame of its settle
            # on its very edges or on edges it was read with before, nothing over it (twin 2401, 3311: a yellow card's
            # lower edge read on its border or its field, 7 % apart) — or on its very blob, no hand's blob ever over a
            # third of it nor out of sight (3118) —, none of its colour seen coming in: that card, not a new one
            for i, card, match in reversed(echoes):
                del events[i]
                kept[id(card)] = match
        if repiled and any(e[0] == "book" and e[1] in arrived for e in events):  # one hand, one card: the card seen
            # coming in settled where it is booked; a card its hand passed over, its blob (what changed from the empty
            # box) as it lay, none more of its colour coming in, is the card that lay there — its corners read 2-3 %
            # apart by the waiting arm's shade beside it (twin 4900: 4 of the 8 questions of round 30's fresh set)
            events = [e for e in events if not any(e is r[0] for r in repiled)]
            kept.update({id(card): match for _, card, match in repiled})
        # a card out of sight now (under a hand that stays in view) still lies there, unless a card settled on it
        hidden = [k for k in self._lying if not any(
            c.card == k.reading.card and (edge_shift(k.outline, c.outline()) <= 2 * self.moved or _same_pile(k.reading, c))
            for c in cards)
            and not any(_covers(c.outline(), k.outline) for c in cards)]
        for k in hidden:  # (out of sight while a card settled elsewhere, seen: twin 2211 — a card went there, not on it)
            k.gone, k.lost, k.hidden_since = 0, False, False
        # a hand in view (or its shade) may join a card's outline: a card that lies as before keeps the outline it
        # was seen with before (else a shade's edge read as its pile's would make it a pile that grew, later)
        kept.update(as_was)
        self._lying = [_Lying(kept[id(c)].reading, kept[id(c)].outline, seen_as=kept[id(c)].seen_as, mark=kept[id(c)].mark)
                       if (self._hands or id(c) in as_was) and id(c) in kept else _Lying(c, c.outline(), seen_as=kept[id(c)].seen_as if id(c) in kept
                                                                    else [], mark=self._mark(c)) for c in cards] + hidden
        # (a card may lie squarely on them; not while a hand is in view: a part beside an arm stands for a lying card)
        unseen = unseen or lost or (sorted(set(vanished)) if events and not self._hands else [])
        if again and not events and not unseen and not self._hands:  # (nothing new anywhere: on the last one hidden?)
            card, moved = self._print_moved_first(again)  # (its print moved: laid squarely on it)
            events = [("book", card) if moved else ("ask", Question(f"was that a second {card} card?", (card,)))]
        elif passed and not events and not unseen and self._hands and not self._parts and self._frames_whole >= self.settle:
            # a hand came over a card, and the pile settles on its old edges, nothing new anywhere and no part of a
            # card beside the arm waiting at the view's edge: the card it brought lies squarely on it (or under the arm)
            card, moved = passed[-1]  # (its print moved, the arm apart from it: laid squarely on it, twin 3210)
            events = [("book", card) if moved else ("ask", Question(f"was that a second {card} card?", (card,),
                                                                       under=self._hand_boxes))]
        if not self._hands:  # nothing hides a card now: what lay under the arm shows (or never lay there)
            self._under = []
        if len(events) > 1:  # several new cards at once: their order was not seen
            cards_ = tuple(str(e[1]) if e[0] == "book" else e[1].yes[0] for e in events)
            events = [("ask", Question(f"{len(cards_)} cards laid together: {', '.join(cards_)} in that order? "
                                       "(no: enter them by hand)", cards_))]
        if unseen:  # a card lay still a moment (or came in), then went under another before it counted: each
            # asked about on its own (one card, one place), before the cards that settled; a no loses none of them
            # (each as the next card laid after those revealed, and the card after it)
            later = [str(e[1]) if e[0] == "book" else e[1].yes[0] for e in events]
            after = [*unseen[1:], *later[:1]]
            events = [("ask", replace(laid_next(card, tuple(after[i:i + 1])), seen_at=(gone_at[i:i + 1] or [()])[0]))
                      for i, card in enumerate(unseen)] + events
        events = [("book", colour) for colour, _ in seen] + events  # (seen lying before the card laid on it)
        # a card of a colour the camera read another on one lying card (blank and gray on 2815): entered by hand
        events = [("ask", _UNREAD) if e[0] == "book" and e[1] in self._doubt else e for e in events]
        # (the hands in view as a card it saw laid settled and was booked: one waiting there after laying it)
        self._laid_by = self._hand_boxes if any(e[0] == "book" for e in events) else ()
        return self._book(self._settled_named(cards, events))

    @staticmethod
    def _print_moved_first(cards: list[tuple[str, bool]]) -> tuple[str, bool]:
        """Of the lying cards hidden since the last settle (``(colour, its print moved)``), the one a card was laid
        squarely on: the last whose print moved, else the last (asked about). Twin 4210 reveal 1: a blank laid squarely
        on the blank pile while the arm that laid the one before waited over the gray card beside it — the blank's print
        moved, the gray's not; before, the last (the gray) was asked about, a truthful no, and the blank went missing."""
        moved = [c for c in cards if c[1]]
        return (moved or cards)[-1]

    def _book(self, events: list[tuple[str, Question | str]]) -> list[str]:
        booked: list[str] = []
        for i, (kind, what) in enumerate(events):
            if self.question is not None:
                self._held += events[i:]
                break
            if kind == "ask":
                self.question = what
                self.asked += 1
                self._asking(what)
            else:
                self.cards.append(what)
                booked.append(what)
        return booked

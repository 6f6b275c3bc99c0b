"""Read the revealed player cards (blue, pink, yellow, blank = violet, gray), one frame at a time.

At the reveal the stack is turned over and the cards are laid down one by one under the
camera. :func:`read_card` reads the card in view, :func:`read_cards` every card in view (the top of
an askew pile by its whole coloured field); :class:`CardReveal` (:mod:`rig.vision.card_reveal`) turns
a stream of them into the cards in the order they were laid down, each laid card an event.

Glare: a pixel of the field that fits two card colours about equally well (the dice
reader's ``AMBIG`` label) is card, its colour unreadable. It does not vote for a colour —
the colour share is taken over the readable pixels, and a field more than half unreadable
is "uncertain" — and it is no evidence of a gray card either: it fits card colours, not the
box bottom a gray field looks like, so it stays out of the neutral share.
"""

from __future__ import annotations


from dataclasses import replace

import cv2
import numpy as np

# the reveal's order and the readings' types live apart (this module's size); importable from here too
from rig.vision.card_border import (HUE_APART_LABELLED, MIN_TINT, _border_lab, _by_hue, _field_alone, _grey_against_border,
                                    _grey_top, _lab, _tint, as_colourless, grey_relit)
from rig.vision.card_empty import EmptyBox, framed_fields, gapped_rings, kept, open_rings
from rig.vision.card_fields import (  # noqa: F401 (the card colours and sizes: importable from here too)
    _CLASS_OF, _MODEL, CARD_CLASSES, CARD_SIDES, FIELD_AREA, FIELD_ASPECT, FIELD_SHARE, GREY_CUTS, NEUTRAL_CLASSES,
    _box, _field_corners, _lone_field, _whole_fields, card_shaped, field_shaped, labelled_colour, shade_alone, shadow_shaped)
from rig.vision.card_places import _overlap
from rig.vision.card_print import print_mark
from rig.vision.card_reveal import CardReading, CardReveal, CardView, Question, edge_shift  # noqa: F401
from rig.vision.light import covered_cells
from rig.vision.dice import AMBIG, BG, BLUE, BODY, CLASS_NAMES, CLIPPED, EDGE, prepare
from rig.vision.profile import Profile

#: below this share of readable (not AMBIG) field pixels the card's colour is not guessed
MIN_READABLE = 0.5
#: the most a blob read as one card may cover, in cards (of CARD_SIDES) (two cards touching are one blob)
CARD_AREA_MAX = 1.6
#: a blob whose rectangle is longer than this many times its width is no card (a card: 1.41; a pile askew less)
CARD_ASPECT_MAX = 2.2
#: a card read blue (or blank) whose field shows the other this share of it or more is not read: either (twin 3109:
#: its blank cards 0.44-0.54; a blue card 0.38 at most on seen 2816, 0.003 on 3109; blank cards read blank 0.38 on 3108)
BLUE_VIOLET = 0.4
#: a colourless part cut off a blob by the shade in it smaller than this share of a card field, or of no card's shape,
#: is shadow, not a gray card (:func:`_split_shadow`)
SHADOW_PART = 0.8
#: a box this near the view's edge (frame px) reaches it (the working image's px rounded to the frame's)
EDGE_PX = 2
_NOT_BG = np.full(256, 255, np.uint8)
_NOT_BG[BG] = 0


def _blobs(work, changed: np.ndarray | None = None) -> list[np.ndarray]:
    """Everything in view that is not box bottom (or, given the empty box, what ``changed`` from it) and at
    least card-sized, largest first (filled masks)."""
    if changed is None:
        mask = cv2.morphologyEx(_NOT_BG[work.labels], cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    else:
        mask = changed
    n, cc, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA]):
        if stats[i, cv2.CC_STAT_AREA] < 4 * work.top_area:
            break
        # a gray card's field looks like the box bottom; its light border still closes round it
        contours, _ = cv2.findContours((cc == i).view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        blob = np.zeros(cc.shape, np.uint8)
        cv2.drawContours(blob, contours, -1, 1, -1)
        if int(blob.sum()) >= 8 * work.top_area:
            out.append(blob)
    return out


def _read_blob(work, blob: np.ndarray, profile: Profile, whole: bool = False) -> CardReading:
    """Read one card-sized blob: a card's colour, or "uncertain" (no card shape: a hand; glare; no colour).
    ``whole``: the blob is what changed from the empty box, a lone card's whole outline — a gray field then
    lies inside it where the print puts it (told from its border by brightness, it frays in shade and noise;
    a coloured field keeps its labels' outline, which a card's outline on a pile would not match)."""
    area = int(blob.sum())
    pts = cv2.findNonZero(blob)
    rect = cv2.minAreaRect(pts)
    (_, _), (rw, rh), _ = rect
    f = work.factor
    bx, by, bw, bh = cv2.boundingRect(pts)
    box = (bx * f, by * f, bw * f, bh * f)
    fill = area / max(rw * rh, 1.0)
    hull = cv2.contourArea(cv2.convexHull(pts))
    if fill < 0.8 and area < 0.93 * hull:  # (a pile of askew cards fills its hull, a hand does not)
        return CardReading(None, 0.0, "uncertain", ("hand or object in view",), box)
    if area > CARD_AREA_MAX * CARD_SIDES[0] * CARD_SIDES[1] * work.side ** 2:
        return CardReading(None, 0.0, "uncertain", ("cards touching: where one ends is not seen",), box)
    if max(rw, rh) > CARD_ASPECT_MAX * max(min(rw, rh), 1.0):  # a strip: a wall's shade, an arm's (twin 3114)
        return CardReading(None, 0.0, "uncertain", ("no card's shape",), box)
    corners = tuple((float(x * f), float(y * f)) for x, y in cv2.boxPoints(rect))
    lone = _lone_field(work, rect, fill) if whole else None
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
                           (f"glare hides the card's colour ({1 - readable / total:.0%} of it unreadable)",), box, corners)
    best = max(CARD_CLASSES, key=lambda c: counts[c])
    share = counts[best] / readable
    edge = _at_edge(blob)  # cards lie in the box: from the view's edge reaches a hand
    other = {BLUE: BODY, BODY: BLUE}.get(best)
    if share >= 0.45 and other is not None and counts[other] >= BLUE_VIOLET * counts[best]:
        # a blank (violet) card whose field the profile labels blue in good part, or the other way round: the two
        # colours the camera tells apart least (twin 3109: blue 0.37, violet 0.19 of a blank card; a blue card 0.48, 0.01)
        return CardReading(None, 0.0, "uncertain", ("blue or blank card?",), box, corners)
    if share >= 0.45:
        if _tint(work, blob, inner) < MIN_TINT:  # labelled a colour, but as neutral as its own white border
            if _grey_against_border(work, rect, blob, _lab(work, blob, inner)) and not (edge and whole and lone is None):
                return CardReading("gray", 0.6, "ok", (), box, lone or _field_corners(work, blob, NEUTRAL_CLASSES) or corners)
            if whole and not edge and _field_alone(work, blob, inner, FIELD_AREA * work.side ** 2,
                                                   CARD_SIDES[0] * CARD_SIDES[1] * work.side ** 2):
                return CardReading(CARD_CLASSES[best], 0.5, "ok", (), box, corners)  # (its outline is the field's)
            if lone is None and not edge and (pile := _grey_pile_top(work, blob, box)) is not None:
                return pile  # (twin 4801 reveal 0: a third gray on a gray pile askew)
            return CardReading(None, 0.0, "uncertain", (f"{CARD_CLASSES[best]} or gray card? its field is as "
                                                         "neutral as its border",), box, corners)
        field = _field_corners(work, blob, (best,))
        if edge and (field is None or cv2.contourArea(np.float32(field)) > 0.85 * area * f * f):
            # a card coming in with the hand shows its field inside a white border; a hand is colour to its edge
            return CardReading(None, 0.0, "uncertain", ("hand or object in view",), box)
        return CardReading(CARD_CLASSES[best], float(min(1.0, share / 0.7)), "ok", (), box, field or corners)
    lab = _lab(work, blob, inner)
    floor = np.mean([m.mean[1:] for m in profile.background], axis=0)  # the box bottom's (a, b): the light's cast
    cast = float(np.hypot(*(np.median(lab[:, 1:], axis=0) - floor)))
    neutral = sum(int(counts[c]) for c in NEUTRAL_CLASSES) / total
    if cast < 12 and neutral >= 0.7 and not (edge and whole and lone is None):  # (a hand and its shade at the edge)
        return CardReading("gray", float(min(1.0, neutral)), "ok", (), box,
                           lone or _field_corners(work, blob, NEUTRAL_CLASSES) or corners)
    if edge:  # no colour read, at the view's edge: a hand
        return CardReading(None, 0.0, "uncertain", ("hand or object in view",), box)
    colour = _by_field(work, profile, rect, blob, counts, lab, neutral, _tint(work, blob, inner))
    if colour is not None:
        field = (lone if colour == "gray" else None) or _field_corners(
            work, blob, NEUTRAL_CLASSES if colour == "gray" else (_CLASS_OF[colour],))
        return CardReading(colour, 0.6, "ok", (), box, field or corners)
    if lone is None and cast < 12 and (pile := _grey_pile_top(work, blob, box)) is not None:
        return pile  # (twin 3700 reveal 1)
    border = _border_lab(work, rect, blob)  # (its labels say no colour: its hue against its own white border?)
    hues = {name: profile.colour(_MODEL[cls]).mean[1:] for cls, name in CARD_CLASSES.items()}
    field_ab = None if border is None else np.median(lab, axis=0)[1:]
    colour = None if border is None else _by_hue(field_ab, border[1:], hues)
    if colour is None and border is not None and (said := labelled_colour(counts, BLUE_VIOLET)) is not None:
        colour = said if _by_hue(field_ab, border[1:], hues, HUE_APART_LABELLED) == said else None
    if colour is not None:
        return CardReading(colour, 0.5, "ok", (), box, _field_corners(work, blob, (_CLASS_OF[colour],)) or corners)
    return CardReading(None, 0.0, "uncertain", (f"card of unknown colour (off gray by {cast:.0f})",), box, corners)


def _grey_pile_top(work, blob: np.ndarray, box) -> CardReading | None:
    """A gray pile askew, its rectangle's ring lying on the top card's field in part: that field read against the top
    card's own border (:func:`rig.vision.card_border._grey_top`), or None. The first cut that outlines a field's size
    decides (a lower one where the first joins the gray card below: twin 5202 reveal 0, 5218 reveal 1)."""
    for cut in GREY_CUTS:
        top = _field_corners(work, blob, NEUTRAL_CLASSES, cut)
        if top is not None and _top_sized(work, top):
            return CardReading("gray", 0.5, "ok", (), box, top) if _grey_top(work, blob, top) else None
    return None


def _top_sized(work, corners) -> bool:
    """Whether corners (frame px) outline about a card field on a pile: a field's size, a card's or a field's long side
    over its short one (the field of a gray top card told by brightness frays into a lower card's sliver: 1.25 on twin
    3700)."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(np.float32(corners) / work.factor)
    return (0.85 * FIELD_AREA * work.side ** 2 <= rw * rh <= 1.3 * FIELD_AREA * work.side ** 2
            and (card_shaped(rw, rh) or field_shaped(rw, rh)))


def _by_field(work, profile: Profile, rect, blob, counts, lab, neutral: float, tint: float) -> str | None:
    """A card the labels leave unread, read by its field against its own white border (the path-traced
    twin's light): a gray field is as colourless as the border round it (its labels mostly no card colour,
    or its channels as balanced as the border's) and darker; a coloured field whose measured pixels (not blown
    out) are mostly one card colour (an icon, a shade of another colour beside) and whose median colour lies
    nearest that colour of the profile."""
    border = _border_lab(work, rect, blob)
    if border is None:
        return None
    field = np.median(lab, axis=0)
    if (neutral >= 0.7 or tint < MIN_TINT) and _grey_against_border(work, rect, blob, lab, border):
        return "gray"
    coloured = {c: int(counts[c]) for c in CARD_CLASSES}
    best = max(coloured, key=coloured.get)
    measured = len(lab) - int(counts[CLIPPED])  # (a channel blown out in a bright field: its colour not measured)
    if sum(coloured.values()) < 0.35 * measured or coloured[best] < 0.65 * sum(coloured.values()):
        return None
    nearest = min(CARD_CLASSES, key=lambda c: float(np.hypot(*(field[1:] - profile.colour(_MODEL[c]).mean[1:]))))
    return CARD_CLASSES[best] if nearest == best else None


def read_card(frame_bgr: np.ndarray, profile: Profile) -> CardReading:
    """Read the player card lying face up in the frame (the largest card-sized thing in view)."""
    work = prepare(frame_bgr, profile)
    blobs = _blobs(work)
    if not blobs:
        return CardReading(None, 1.0, "ok")
    return _read_blob(work, blobs[0], profile)


def read_cards(frame_bgr: np.ndarray, profile: Profile, empty: EmptyBox | None = None) -> CardView:
    """Every card in view (laid in a row, or the top of a pile) and whatever else card-sized is there;
    given the empty box's picture (or one kept for ``profile``: :mod:`rig.vision.card_empty`), found as
    what changed from it."""
    empty = empty or kept(profile)
    compared: list = []

    def covered(size: tuple[int, int], factor: int) -> np.ndarray:
        # cards over much of a dark or busy floor change alike: the light is measured beside them (twin 2815: "x3.16")
        compared.append(empty.compare(frame_bgr, size, 3 if factor > 1 else 5))
        return covered_cells(compared[0][0])

    work = prepare(frame_bgr, profile, covered if empty is not None else None)
    changed = shade = None
    if empty is not None:
        changed, shade = compared[0] if compared else empty.compare(frame_bgr, work.small.shape[1::-1], 3 if work.factor > 1 else 5)
    cards, hands = [], []
    hue, arms, shaded, loose, shadows = None, [], [], [], []
    blobs = _blobs(work, changed)
    for blob in blobs:
        if shade is not None and shade_alone(work, blob, shade):
            shadows.append(blob)
            continue  # the shadow an arm casts on the box bottom: nothing lies there (or a gray field: its border?)
        if shade is not None and not _at_edge(blob) and int((blob & shade).sum()) >= work.top_area:
            shaded.append(blob)  # (read once the arms in view are known)
            continue
        if shade is not None and _at_edge(blob):  # an arm reaches in from the view's edge: told by its colour
            hue = _hues(work, profile) if hue is None else hue
            arm = _arm(work, blob, hue)
            if arm is not None:
                arms.append(_read_beside_arm(work, blob, arm, shade, profile, cards, hands))
                continue
        n_cards, n_hands = len(cards), len(hands)
        _read_into(work, blob, profile, changed is not None, cards, hands)
        if changed is not None and len(cards) == n_cards and len(hands) == n_hands + 1 and not _at_edge(blob):
            loose.append((blob, hands[-1]))  # no card's shape inside the box: a card changed from it in part?
    for blob in shaded:  # a card joined by an arm's shade on the box bottom (the arm apart, at the view's edge)
        found, more = [], []
        _read_into(work, blob, profile, True, found, more)
        if arms and not any(c.status == "ok" for c in found):
            _read_parts(work, blob & (1 - shade), profile, cards, hands)
            continue
        grey = any(c.status == "ok" and c.card == "gray" for c in found)
        if more or grey or not any(c.status == "ok" for c in found):  # a card left unread: read without the shade
            again, other = [], []
            for part in _shade_off(work, blob, shade):
                _read_into(work, part, profile, True, again, other)
            ok_again, ok_found = sum(c.status == "ok" for c in again), sum(c.status == "ok" for c in found)
            # a gray card read with the arm's shade joined to it is read on the shade's outline (twin 4603 reveal 0)
            if (ok_again > ok_found or grey and ok_again == ok_found) and len(other) <= len(more):
                found, more = again, other
            elif arms and not again and all(c.card == "gray" and shadow_shaped(work, c.corners) for c in found):
                found, more = [], [*more, _box(blob, work.factor)]  # the arm's shade, no card's shape (twin 4805)
        cards, hands = cards + found, hands + more
    if changed is not None:  # a gray card on a floor of its colour: its border broken (or its field changed in
        # part, the blob no card's shape), no blob to fill
        solid = [b for b in blobs if not any(b is blob for blob, _ in loose)]
        taken = np.zeros_like(changed) if not solid else np.bitwise_or.reduce(solid)
        rings = np.zeros_like(changed)  # (the cards found by their border)
        for ring in open_rings(changed, taken, work.side, CARD_SIDES):
            card = _ring_card(work, ring, changed, profile, empty)
            if card is not None:
                cards.append(card)
                hands = [h for h in hands if not any(h == box and (ring & blob).any() for blob, box in loose)]
                taken, rings = taken | ring, rings | ring
        for ring in gapped_rings(changed, np.bitwise_or.reduce([taken, *blobs]), 8 * work.top_area):
            found: list = []  # (a gray pile whose border a px's gap leaves open: read whole, kept only as gray)
            _read_into(work, ring, profile, True, found, [])
            found = [c for c in found if c.card == "gray" and c.status == "ok"]
            cards += found
            rings = rings | ring if found else rings
        fields = [b for b in shadows if not (b & rings).any()]  # (a gray field taken for shade: its border round it?)
        lit = np.bitwise_or.reduce([rings, *[b for b in solid if not any(b is f for f in shadows)]])
        for ring in framed_fields(changed, lit, fields, work.side, CARD_SIDES):
            card = _ring_card(work, ring, changed, profile, empty)
            if card is not None:
                cards.append(card)
                rings = rings | ring
    # a card apart from the arm whose box the arm's reaches into: the arm's shade may lie on it, its field's outline
    # cut or swollen by it
    cards = [replace(c, hidden=True) if c.status == "ok" and any(_overlap(c.box, a) for a in arms) else c for c in cards]
    # where each card's print lies: a card laid squarely on one of its colour moves it (the reveal's `_print_moved`)
    cards = [replace(c, mark=print_mark(frame_bgr, c.corners, c.card)) if c.status == "ok" else c for c in cards]
    size = frame_bgr.shape[1::-1]
    hands += [c.box for c in cards if _unread_at_edge(c, size)]  # cards lie in view: the arm, read no card (twin 4911)
    return CardView(tuple(c for c in cards if not _unread_at_edge(c, size)), tuple(hands), size)


def _ring_card(work, ring: np.ndarray, changed: np.ndarray, profile: Profile, empty: EmptyBox) -> CardReading | None:
    """A card found by its broken border and icon (:func:`rig.vision.card_empty.open_rings`): gray when its field is
    as colourless as that border (the part of it that changed from the empty box) and darker, or darker against the
    empty box there (:func:`grey_relit`) — else nothing (a coloured card on a floor of its colour stays unread)."""
    reading = _read_blob(work, ring, profile, True)
    rect = cv2.minAreaRect(cv2.findNonZero(ring))
    (cx, cy), (rw, rh), ang = rect
    inner = np.zeros_like(ring)
    cv2.fillConvexPoly(inner, np.int32(cv2.boxPoints(((cx, cy), (rw * 0.78, rh * 0.78), ang))), 1)
    band = ring & (1 - cv2.dilate(inner, np.ones((3, 3), np.uint8))) & changed
    if reading.card != "gray" or reading.status != "ok" or band.sum() < work.top_area:
        return None
    border = np.median(cv2.cvtColor(work.small[band > 0].reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3), axis=0)
    lab = _lab(work, ring, inner)
    if _tint(work, ring, inner) >= MIN_TINT or not (_grey_against_border(work, rect, ring, lab, border) or len(lab) and
                                                     as_colourless(np.median(lab, axis=0), border)
                                                     and grey_relit(work, empty.lab, band, inner & ring)):
        return None
    return replace(reading, pile=reading.box)


#: a pixel is no card colour when its hue (round the box bottom's colour) lies this far (degrees) from every card
#: colour's, and it is not colourless (a gray or white card): chroma at least ARM_CHROMA
ARM_HUE, ARM_CHROMA = 20.0, 8.0


def _hues(work, profile: Profile) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pixel's hue and chroma round the box bottom's colour (the light's cast), and the card colours' hues."""
    lab = cv2.cvtColor(cv2.blur(work.small, (3, 3)), cv2.COLOR_BGR2Lab).astype(np.float32)
    cast = np.mean([m.mean[1:] for m in profile.background], axis=0)
    a, b = lab[..., 1] - cast[0], lab[..., 2] - cast[1]
    cards = np.array([np.degrees(np.arctan2(m[2] - cast[1], m[1] - cast[0]))
                      for m in (profile.colour(_MODEL[c]).mean for c in CARD_CLASSES)], np.float32)
    return np.degrees(np.arctan2(b, a)), np.hypot(a, b), cards


def _arm(work, blob: np.ndarray, hue) -> np.ndarray | None:
    """The part of a blob at the view's edge that is an arm (a hand, a sleeve): of no card's colour (nor
    colourless), reaching in from the view's edge; ``None`` when there is none."""
    angle, chroma, cards = hue
    off = np.abs((angle[..., None] - cards + 180.0) % 360.0 - 180.0).min(axis=2)
    skin = ((off >= ARM_HUE) & (chroma >= ARM_CHROMA) & (blob > 0)).view(np.uint8)
    skin = cv2.morphologyEx(skin, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, cc, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    h, w = blob.shape
    arm = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 2 * work.top_area and (
        stats[i, cv2.CC_STAT_LEFT] <= 1 or stats[i, cv2.CC_STAT_TOP] <= 1
        or stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] >= w - 1
        or stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT] >= h - 1)]
    return np.isin(cc, arm).view(np.uint8) if arm else None


def _read_beside_arm(work, blob, arm, shade, profile: Profile, cards: list, hands: list) -> tuple[int, int, int, int]:
    """The cards in a blob beside the arm in it: the blob without the arm and its shade, each part that is left
    read as a card (marked ``hidden``: part of it may lie under the arm or the shade) or as more of the hand; the
    arm's box."""
    k = max(3, int(0.3 * work.side)) | 1
    near = cv2.dilate(arm, np.ones((k, k), np.uint8))
    hands.append(_box(arm, work.factor))
    _read_parts(work, blob & (1 - near) & (1 - shade), profile, cards, hands)
    return _box(arm, work.factor)


def _read_parts(work, rest: np.ndarray, profile: Profile, cards: list, hands: list) -> None:
    """Each part of what is left of a blob without an arm and shade, read as a card (``hidden``: part of it may lie
    under the arm or the shade) or as more of the hand."""
    for part in _parts(work, rest):  # (each part was joined to the arm: by its shade, or the arm over it, cut off here)
        reading = _read_blob(work, part, profile)
        cut = _part_colour(work, part, profile) if reading.corners is not None and reading.status != "ok" else None
        if cut in ("blue", "blank") and card_shaped(*cv2.minAreaRect(cv2.findNonZero(part))[1]):
            # a card's shape, its field cut by the arm: its white border's ring not all there, so not read against it —
            # by its labels alone, in a colour no arm shows (a hand the arm's hue did not tell is labelled yellow or
            # pink: twin 3206)
            card = replace(reading, card=cut, confidence=0.5, status="ok", reasons=(), pile=None)
            cards.append(replace(card, hidden=not _whole(work, card)))
            continue
        colour = _part_colour(work, part, profile) if reading.corners is None else None
        if colour is not None and _at_edge(part):  # cut by the view's edge: no card's part (a card lies in view) but
            hands.append(_box(part, work.factor))  # the arm's own, its shaded side (twin 4815 reveal 0: read gray)
            continue
        if colour is not None:  # no card's shape: a card's part beside the arm (the reveal knows where it lies)
            f = work.factor
            corners = tuple((float(x * f), float(y * f)) for x, y in cv2.boxPoints(cv2.minAreaRect(cv2.findNonZero(part))))
            cards.append(CardReading(colour, 0.5, "hidden", ("part of a card under an arm or its shade",),
                                     _box(part, f), corners, hidden=True))
            continue
        found: list = []
        _read_into(work, part, profile, False, found, hands, beside=True)
        cards += [replace(c, pile=None, hidden=not _whole(work, c)) if c.status == "ok" else c for c in found]


def _whole(work, reading: CardReading) -> bool:
    """Whether a card read beside an arm shows its whole field (a card field's size: nothing of it hidden)."""
    area = cv2.contourArea(reading.outline()) / work.factor ** 2
    return area >= 0.85 * FIELD_AREA * work.side ** 2


def _part_colour(work, part: np.ndarray, profile: Profile) -> str | None:
    """The colour of a part of a card (no card's shape): one card colour on most of its readable pixels, or
    colourless (gray); ``None`` when it is neither."""
    k = max(3, int(0.2 * work.side)) | 1
    inner = cv2.erode(part, np.ones((k, k), np.uint8))
    labels = work.labels[inner > 0]
    if len(labels) < 2 * work.top_area:
        return None
    counts = np.bincount(labels, minlength=len(CLASS_NAMES))
    readable = max(1, len(labels) - int(counts[AMBIG]))
    best = max(CARD_CLASSES, key=lambda c: counts[c])
    if counts[best] >= 0.6 * readable:
        return CARD_CLASSES[best]
    return "gray" if sum(int(counts[c]) for c in NEUTRAL_CLASSES) >= 0.8 * readable else None


def _read_into(work, blob: np.ndarray, profile: Profile, whole: bool, cards: list, hands: list, beside: bool = False) -> None:
    """Read one blob into ``cards`` and ``hands``; given the empty box (``whole``, or a part ``beside`` an arm), a card
    read apart in what its whole fields leave is a card, not a hand."""
    reading = _read_blob(work, blob, profile, whole)
    if reading.corners is not None:
        cards.append(replace(reading, pile=reading.box) if reading.status == "ok" and not _at_edge(blob) else reading)
        return
    parts = _split_shadow(work, blob, profile)  # cards joined by the dark shadow between them
    if parts:
        cards += parts
        return
    # no card's shape: a hand, a hand touching a card, an askew pile, cards touching — a card's whole
    # coloured field inside it is a card (the top of a pile), what is left beside the fields a hand
    found, rest, apart = _whole_fields(work, blob, (lambda part: _read_blob(work, part, profile)) if whole or beside else None)
    cards += found if rest is not None or apart or _at_edge(blob) else [replace(c, pile=_box(blob, work.factor)) for c in found]
    cards += apart
    if rest is not None:
        hands.append(rest)


def _parts(work, mask: np.ndarray) -> list[np.ndarray]:
    """The parts of ``mask`` opened by 0.3 die sides (threads and slivers cut), each of at least 8 die tops, filled."""
    k = max(3, int(0.3 * work.side)) | 1
    rest = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, cc, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=4)
    return [_filled(cc, i, rest) for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 8 * work.top_area]


def _filled(cc: np.ndarray, i: int, like: np.ndarray) -> np.ndarray:
    """Component ``i`` of ``cc`` with its holes filled, as a 0/1 mask like ``like``."""
    contours, _ = cv2.findContours((cc == i).view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    part = np.zeros_like(like)
    cv2.drawContours(part, contours, -1, 1, -1)
    return part


def _shade_off(work, blob: np.ndarray, shade: np.ndarray) -> list[np.ndarray]:
    """A blob without the arm's shade joined to it: each card-sized part left, filled."""
    return _parts(work, blob & (1 - shade))


def _split_shadow(work, blob: np.ndarray, profile: Profile) -> list[CardReading]:
    """A blob of no card's shape that is cards joined only by shade (the shadow one casts on the floor
    beside the other reads as a die's shaded side): without the shade, each part read as a card, or none."""
    mask = cv2.morphologyEx(blob & (work.labels != EDGE).view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, cc, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 8 * work.top_area]
    if len(big) < 2:
        return []
    out = []
    for i in big:
        part = _filled(cc, i, blob)
        reading = _read_blob(work, part, profile)
        if reading.corners is None:
            return []
        if reading.card == "gray" and not _card_sized(work, part):
            continue  # the shadow a card or an arm casts on a dark floor, cut off the card: colourless, no card's shape
        out.append(reading)
    return out


def _card_sized(work, part: np.ndarray) -> bool:
    """Whether a part cut off a blob by the shade in it has a card's or a card field's shape (long side over short
    one) and at least SHADOW_PART of a field's area (twin 4503 reveal 0: the arm's shadow on a dark floor, cut off
    the blue card it touched, 1.1 long over short and 0.44 of a card, read as a gray card)."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(cv2.findNonZero(part))
    return (card_shaped(rw, rh) or field_shaped(rw, rh)) and rw * rh >= SHADOW_PART * FIELD_AREA * work.side ** 2


def _unread_at_edge(card: CardReading, size: tuple[int, int]) -> bool:
    """Whether a reading is no card read (``uncertain``, no colour) whose box reaches the view's edge: cards lie in
    the box, in view, so that is an arm reaching in that its colour did not tell (twin 4911: the waiting arm at the
    left edge read now as an arm, now as "the camera cannot read the card just laid" — answered, the card laid then
    was booked twice)."""
    if card.card is not None or card.box is None:
        return False
    x, y, w, h = card.box
    return x <= EDGE_PX or y <= EDGE_PX or x + w >= size[0] - EDGE_PX or y + h >= size[1] - EDGE_PX


def _at_edge(blob: np.ndarray) -> bool:
    return bool(blob[0].any() or blob[-1].any() or blob[:, 0].any() or blob[:, -1].any())



"""A card's coloured field inside its white border, for :mod:`rig.vision.cards`: the card colours, a card's and its
field's size and shape, where a lone card's field lies, the top card's own field on a pile, the whole fields
inside a blob of no card's shape, and shade that is no card (the arm's shadow on the box bottom)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from rig.vision.card_view import CardReading
from rig.vision.dice import BG, BLOWN, BLUE, BODY, CLIPPED, PINK, UNKNOWN, YELLOW

CARD_CLASSES = {BLUE: "blue", PINK: "pink", YELLOW: "yellow", BODY: "blank"}
#: labels that are no card colour: with little colour cast, a gray card
NEUTRAL_CLASSES = (UNKNOWN, CLIPPED, BLOWN, BG)
#: a player card's size in die sides (63 x 88 mm cards, 16 mm dice) ...
CARD_SIDES = (3.9, 5.5)
#: a card's coloured field in die sides (inside its white border): its area, and its long side over its short one
FIELD_AREA, FIELD_ASPECT = 16.5, (1.3, 1.7)
_CLASS_OF = {name: cls for cls, name in CARD_CLASSES.items()}
_MODEL = {BLUE: "blue", PINK: "pink", YELLOW: "yellow", BODY: "body"}
#: a card's coloured field inside its white border, as a share of the card's width and length
FIELD_SHARE = (0.86, 0.9)
#: a card's long side over its short one, as a blob's rectangle may show it (a card: 1.41)
CARD_ASPECT = (1.2, 1.65)
#: a card's icon in a field-shaped blob of shade (a gray field on a floor as light as its border): this much darker
#: (L) than the field round it, over this share of the field's middle, the field round it at most FIELD_DARK that dark
#: (the gray cards of the seen twin sets that change like shade, 2905 and 3309: at least 0.51 / at most 0.25; the arm's
#: shadow on 3211 0 / 0, on 3200 at least 0.74 / 0.53 — its umbra reaching its edges)
ICON_DARK, ICON_SHARE, FIELD_DARK = 20, 0.25, 0.4
#: a gray field told from the white border round it by brightness: darker than this share of the way from the blob's
#: dark end (20th percentile) to its light end (95th); on a pile, the second where the first joins the top card's field
#: to the gray field of the card below it through its noisy border (twin 5218 reveal 1: 1.6 fields at 2/3, 0.98 at 1/2)
GREY_CUTS = (2 / 3, 1 / 2)
#: the most a whole card field found inside a blob of no card's shape may cover, in fields (of FIELD_AREA): a gray one
#: (told by brightness: an arm's shadow is as dark and neutral), and one of a card colour — the die side calibration
#: measures sets the scale, on some tables a field is half again FIELD_AREA (twin 5511: blue, pink and blank fields
#: 1.21-1.25 without their light icon, a yellow one 1.56 with it, its icon labelled yellow too: refused at 1.3, the
#: yellow top of a blue pile was asked about, "the camera cannot make out the cards just laid")
WHOLE_FIELD_MAX = {"gray": 1.3, "coloured": 1.65}


#: a field's labels say one card colour when that colour is this share of its card-coloured pixels, they this share of
#: its pixels (:func:`labelled_colour`)
LABELLED_SHARE, LABELLED_MIN = 0.65, 0.1


def labelled_colour(counts: np.ndarray, apart: float) -> str | None:
    """The card colour most of a field's card-coloured labels say (``counts``: its pixels by label), when they say one:
    :data:`LABELLED_SHARE` of them, they :data:`LABELLED_MIN` of its pixels, and not blue and blank both (the other
    under ``apart`` of its count: the two the camera tells apart least)."""
    coloured = {c: int(counts[c]) for c in CARD_CLASSES}
    best = max(coloured, key=coloured.get)
    other = {BLUE: BODY, BODY: BLUE}.get(best)
    if (coloured[best] < LABELLED_SHARE * sum(coloured.values()) or sum(coloured.values()) < LABELLED_MIN * counts.sum()
            or other is not None and coloured[other] >= apart * coloured[best]):
        return None
    return CARD_CLASSES[best]


def card_shaped(rw: float, rh: float) -> bool:
    """Whether a rectangle of sides ``rw`` and ``rh`` has a card's long side over its short one (:data:`CARD_ASPECT`)."""
    return CARD_ASPECT[0] <= max(rw, rh) / max(min(rw, rh), 1.0) <= CARD_ASPECT[1]


def field_shaped(rw: float, rh: float) -> bool:
    """Whether a rectangle of sides ``rw`` and ``rh`` has a card field's long side over its short one
    (:data:`FIELD_ASPECT`)."""
    return FIELD_ASPECT[0] <= max(rw, rh) / max(min(rw, rh), 1.0) <= FIELD_ASPECT[1]


def _lone_field(work, rect, fill: float) -> tuple[tuple[float, float], ...] | None:
    """The field's corners of a blob that is one card alone (a card's size and shape, filling its
    rectangle), where the print puts the field inside the card; ``None`` for anything else (a pile)."""
    (cx, cy), (rw, rh), ang = rect
    area = CARD_SIDES[0] * CARD_SIDES[1] * work.side ** 2
    if fill < 0.975 or not 0.75 * area <= rw * rh <= 1.3 * area or not card_shaped(rw, rh):
        return None
    short, long_ = FIELD_SHARE
    size = (rw * short, rh * long_) if rw < rh else (rw * long_, rh * short)
    f = work.factor
    return tuple((float(x * f), float(y * f)) for x, y in cv2.boxPoints(((cx, cy), size, ang)))


def _field_corners(work, blob: np.ndarray, classes, cut: float = GREY_CUTS[0]) -> tuple[tuple[float, float], ...] | None:
    """The corners of the top card's own coloured field: on a pile, the blob is every card's
    outline together, while the top card's field lies inside its white border, apart from the
    fields of the cards below (a gray field: darker than ``cut`` of the way to the blob's light end)."""
    if classes is NEUTRAL_CLASSES:  # a gray field reads like the white border round it: the border is brighter
        grey = cv2.blur(cv2.cvtColor(work.small, cv2.COLOR_BGR2GRAY), (3, 3))  # (the sensor noise frays it)
        lo, hi = np.percentile(grey[blob > 0], (20, 95))
        field = ((grey < lo + cut * (hi - lo)) & (blob > 0)).view(np.uint8)  # (an icon darker than the field is in it)
    else:
        field = (np.isin(work.labels, classes) & (blob > 0)).view(np.uint8)
    k = 5 if classes is NEUTRAL_CLASSES else 3  # (noise can bridge a white border between two gray fields)
    field = cv2.morphologyEx(field, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, cc, stats, _ = cv2.connectedComponentsWithStats(field, connectivity=4)
    if n <= 1:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[i, cv2.CC_STAT_AREA] < 4 * work.top_area:
        return None
    f = work.factor
    return tuple((float(x * f), float(y * f)) for x, y in cv2.boxPoints(cv2.minAreaRect(cv2.findNonZero((cc == i).view(np.uint8)))))


def _whole_fields(work, blob: np.ndarray, read: Callable[[np.ndarray], CardReading] | None = None
                  ) -> tuple[list[CardReading], tuple[int, int, int, int] | None, list[CardReading]]:
    """The cards whose whole coloured field lies in a blob of no card's shape, the box of what is left of
    the blob beside them (a hand; ``None`` when only the slivers of cards below are left), and the cards
    ``read`` finds in what is left: a part inside the box, apart from the view's edge, that reads as a card
    with its whole field (a card beside the pile, its field cut by the arm's shade where it touches the pile's
    lower cards: twin 3416) is that card, not a hand."""
    f = work.factor
    found, covered = [], np.zeros_like(blob)
    for name in (*CARD_CLASSES.values(), "gray"):
        if name == "gray":  # a gray field reads like the white border round it: the border is brighter
            grey = cv2.cvtColor(work.small, cv2.COLOR_BGR2GRAY)
            lo, hi = np.percentile(grey[blob > 0], (20, 95))
            field = ((grey < (lo + hi) / 2) & (blob > 0) & (covered == 0)).view(np.uint8)
        else:
            field = (work.labels == _CLASS_OF[name]).view(np.uint8) & blob
        k = 5 if name == "gray" else 3
        field = cv2.morphologyEx(field, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        n, cc, stats, _ = cv2.connectedComponentsWithStats(field, connectivity=4)
        for i in range(1, n):
            area = stats[i, cv2.CC_STAT_AREA]
            most = WHOLE_FIELD_MAX["gray" if name == "gray" else "coloured"]
            if not 0.6 * FIELD_AREA * work.side ** 2 <= area <= most * FIELD_AREA * work.side ** 2:
                continue
            if name == "gray" and np.isin(work.labels[cc == i], NEUTRAL_CLASSES).mean() < 0.7:
                continue
            contours, _ = cv2.findContours((cc == i).view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            rect = cv2.minAreaRect(contours[0])
            (cx, cy), (rw, rh), ang = rect
            filled = cv2.contourArea(contours[0])
            if filled < 0.9 * rw * rh or not field_shaped(rw, rh):
                continue
            card = cv2.boxPoints(((cx, cy), (rw / 0.8, rh / 0.8), ang))  # the card round its field
            cv2.fillConvexPoly(covered, np.int32(card), 1)
            x, y, w, h = cv2.boundingRect(np.int32(card))
            found.append(CardReading(name, 1.0, "ok", (), (x * f, y * f, w * f, h * f),
                                     tuple((float(px * f), float(py * f)) for px, py in cv2.boxPoints(rect))))
    if not found:
        return [], _box(blob, f), []
    # a hand (an arm) reaches in from the view's edge; the cards below a pile's top lie inside the box
    k = max(3, int(0.6 * work.side)) | 1
    rest = cv2.morphologyEx(blob & (1 - covered), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, cc, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    h, w = rest.shape
    big = 0.4 * CARD_SIDES[0] * CARD_SIDES[1] * work.side ** 2  # more than a pile's slivers: a card not read
    def at_edge(i: int) -> bool:
        return bool(stats[i, cv2.CC_STAT_LEFT] <= 1 or stats[i, cv2.CC_STAT_TOP] <= 1
                    or stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] >= w - 1
                    or stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT] >= h - 1)
    arm = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= big
           or stats[i, cv2.CC_STAT_AREA] >= work.top_area and at_edge(i)]
    apart = []
    for i in [i for i in arm if read is not None and not at_edge(i)]:
        contours, _ = cv2.findContours((cc == i).view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        part = np.zeros_like(blob)
        cv2.drawContours(part, contours, -1, 1, -1)
        card = read(part)
        if card.status == "ok" and card.corners is not None and _field_sized(work, card.corners):
            apart.append(replace(card, pile=None))
            arm.remove(i)
    return found, (_box(np.isin(cc, arm).view(np.uint8), f) if arm else None), apart


def _field_sized(work, corners) -> bool:
    """Whether corners (frame pixels) outline a whole card field: its size and its long side over its short one."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(np.float32(corners) / work.factor)
    return (0.85 * FIELD_AREA * work.side ** 2 <= rw * rh <= 1.3 * FIELD_AREA * work.side ** 2
            and field_shaped(rw, rh))


def _box(mask: np.ndarray, f: int) -> tuple[int, int, int, int]:
    x, y, w, h = cv2.boundingRect(cv2.findNonZero(mask))
    return (x * f, y * f, w * f, h * f)


def shade_alone(work, blob: np.ndarray, shade: np.ndarray) -> bool:
    """Whether a blob is mostly shade (darker than the empty box, its colour the same) and no card field's shape
    (a gray field on a floor as light as its white border changes in the same way)."""
    if (shade[blob > 0] > 0).mean() < 0.7:
        return False
    (_, _), (rw, rh), _ = rect = cv2.minAreaRect(cv2.findNonZero(blob))
    area = int(blob.sum())
    return not (area >= 0.9 * rw * rh and field_shaped(rw, rh)
                and 0.6 * FIELD_AREA * work.side ** 2 <= area <= 1.3 * FIELD_AREA * work.side ** 2
                and printed(work, blob, rect))


def printed(work, blob: np.ndarray, rect) -> bool:
    """Whether a field-shaped blob shows a card's print: its icon, a dark shape in its middle, the field round it
    (between 60 and 85 % of its size) as light as the field. The arm's rectangular shadow is the floor darkened
    alike (twin 3211) or its umbra a dark half reaching its edges (3200): no icon, no card."""
    lum = cv2.blur(cv2.cvtColor(work.small, cv2.COLOR_BGR2Lab)[..., 0], (3, 3)).astype(np.float32)
    (cx, cy), (rw, rh), ang = rect

    def within(share: float) -> np.ndarray:
        mask = np.zeros_like(blob)
        cv2.fillConvexPoly(mask, np.int32(cv2.boxPoints(((cx, cy), (rw * share, rh * share), ang))), 1)
        return (mask > 0) & (blob > 0)
    middle, inner = within(0.6), within(0.85)
    ring = inner & ~middle
    if not middle.any() or not ring.any():
        return True
    dark = lum < float(np.percentile(lum[ring], 75)) - ICON_DARK
    return float(dark[middle].mean()) >= ICON_SHARE and float(dark[ring].mean()) <= FIELD_DARK


def shadow_shaped(work, corners) -> bool:
    """Whether corners (frame px) outline less than a card's field, and not of its shape: no card read whole (the arm's
    shade on the box bottom read gray, twin 4805: 0.63 of a field, 1.24 long over short)."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(np.float32(corners) / work.factor)
    return not field_shaped(rw, rh) and rw * rh < 0.85 * FIELD_AREA * work.side ** 2

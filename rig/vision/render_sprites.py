"""The virtual table's sprites: a die's face, a cocked die, a card, drawn supersampled and warped into
place (issue 29: split from :mod:`rig.vision.render`, which re-exports every name).
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from rig.vision.table_scene import BODY, CARD, FROG, PlacedDie

# --------------------------------------------------------------------------- sprites

_SS = 4  # supersampling for sprites


def _rounded_square(n: int, radius: float) -> np.ndarray:
    mask = np.zeros((n, n), np.uint8)
    r = int(radius * n)
    cv2.rectangle(mask, (r, 0), (n - 1 - r, n - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (n - 1, n - 1 - r), 255, -1)
    for cx, cy in ((r, r), (n - 1 - r, r), (r, n - 1 - r), (n - 1 - r, n - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return mask


def _frog_masks(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(frog mask, eye mask) on an n x n face, frog facing up."""
    frog = np.zeros((n, n), np.uint8)
    eyes = np.zeros((n, n), np.uint8)

    def p(u: float, v: float) -> tuple[int, int]:
        return int(n * (0.5 + u)), int(n * (0.5 + v))

    def s(a: float) -> int:
        return max(1, int(n * a))

    cv2.ellipse(frog, p(0, 0.06), (s(0.15), s(0.19)), 0, 0, 360, 255, -1)  # body
    cv2.ellipse(frog, p(0, -0.15), (s(0.13), s(0.1)), 0, 0, 360, 255, -1)  # head
    for side in (-1, 1):
        cv2.ellipse(frog, p(side * 0.17, 0.17), (s(0.07), s(0.15)), side * 35, 0, 360, 255, -1)  # thigh
        cv2.ellipse(frog, p(side * 0.23, 0.3), (s(0.08), s(0.035)), 0, 0, 360, 255, -1)  # foot
        cv2.ellipse(frog, p(side * 0.15, -0.04), (s(0.035), s(0.1)), -side * 30, 0, 360, 255, -1)  # arm
        cv2.circle(frog, p(side * 0.08, -0.23), s(0.05), 255, -1)  # eye bump
        cv2.circle(eyes, p(side * 0.08, -0.235), s(0.025), 255, -1)
    return frog, eyes


def paint_frog(img: np.ndarray, face: str, palette) -> bool:
    """Paint a die face's frog onto the square ``img``: one colour, or two split down the middle
    (``pink+blue``: pink left), and its eye whites; ``palette`` maps a colour name to its value.
    False for a blank face (nothing painted)."""
    n = img.shape[0]
    frog, eyes = _frog_masks(n)
    colours = [] if face == "blank" else face.split("+")
    left = np.arange(n)[None, :] < n // 2
    if len(colours) == 1:
        img[frog > 0] = palette[colours[0]]
    elif len(colours) == 2:
        img[(frog > 0) & left] = palette[colours[0]]
        img[(frog > 0) & ~left] = palette[colours[1]]
    if colours:
        img[eyes > 0] = (235.0, 235.0, 235.0)
    return bool(colours)


@functools.lru_cache(maxsize=64)
def _die_sprite(face: str, side: int) -> np.ndarray:
    """A die's top face as seen from above: BGRA float32, side x side, alpha 0..1."""
    n = side * _SS
    mask = _rounded_square(n, 0.14)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5) / n
    # rounded edges turn away from the light: darker towards the outline
    shade = 0.42 + 0.58 * np.clip(dist / 0.075, 0, 1) ** 0.7
    img = np.empty((n, n, 3), np.float32)
    img[:] = BODY
    if paint_frog(img, face, FROG):
        pupils = np.zeros((n, n), np.uint8)
        for side_ in (-1, 1):
            cv2.circle(pupils, (int(n * (0.5 + side_ * 0.08)), int(n * 0.27)), max(1, int(n * 0.011)), 255, -1)
        img[pupils > 0] = (30.0, 30.0, 30.0)
    alpha = mask.astype(np.float32) / 255.0
    img *= (shade * alpha)[..., None]
    out = np.dstack([img, alpha])
    return cv2.resize(out, (side, side), interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=64)
def _cocked_sprite(face: str, side_face: str, side: int, tilt: int) -> tuple[np.ndarray, tuple[float, float]]:
    """A leaning die: the foreshortened top face above the darker side face. (sprite, anchor)."""
    t = math.radians(tilt)
    top_h = max(2, round(side * math.cos(t)))
    side_h = max(2, round(side * math.sin(t)))
    top = cv2.resize(_die_sprite(face, side), (side, top_h), interpolation=cv2.INTER_AREA)
    flank = cv2.resize(_die_sprite(side_face, side), (side, side_h), interpolation=cv2.INTER_AREA)
    flank = flank.copy()
    flank[..., :3] *= 0.62
    sprite = np.vstack([top, flank])
    return sprite, (side / 2.0, top_h / 2.0)


@functools.lru_cache(maxsize=16)
def _card_sprite(card: str, side: int) -> np.ndarray:
    """A player card, about 3.9 x 5.5 die sides: white border, coloured field, frog icon."""
    w, h = round(3.9 * side), round(5.5 * side)
    big = np.empty((h * 2, w * 2, 3), np.float32)
    big[:] = (232.0, 234.0, 236.0)
    m = int(0.07 * w * 2)
    big[m:-m, m:-m] = CARD[card]
    frog, _ = _frog_masks(w * 2)
    y0 = (h * 2 - w * 2) // 2
    icon = big[y0 : y0 + w * 2]
    tone = np.array(CARD[card], np.float32) * (0.7 if card == "gray" else 1.0)
    tone = tone if card == "gray" else (tone * 0.55 + 255 * 0.45)
    icon[frog > 0] = tone
    mask = np.zeros((h * 2, w * 2), np.uint8)
    cv2.rectangle(mask, (0, 0), (w * 2 - 1, h * 2 - 1), 255, -1)
    out = np.dstack([big, mask.astype(np.float32) / 255.0])
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_AREA)


def _warp(sprite: np.ndarray, anchor: tuple[float, float], x: float, y: float, angle: float,
          scale: float, size: tuple[int, int]):
    """Place a sprite with its anchor at (x, y): returns (x0, y0, warped BGRA) or None if off-frame."""
    h, w = sprite.shape[:2]
    a = math.radians(angle)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - anchor
    rot = corners @ np.array([[c, s], [-s, c]]) + (x, y)
    x0 = max(0, int(math.floor(rot[:, 0].min())) - 1)
    y0 = max(0, int(math.floor(rot[:, 1].min())) - 1)
    x1 = min(size[0], int(math.ceil(rot[:, 0].max())) + 2)
    y1 = min(size[1], int(math.ceil(rot[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return None
    m = np.array([[c, -s, 0.0], [s, c, 0.0]])
    m[:, 2] = np.array([x - x0, y - y0]) - m[:, :2] @ np.array(anchor)
    warped = cv2.warpAffine(sprite, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return x0, y0, warped


def _die_placement(die: PlacedDie, side: float, k: float, size: tuple[int, int]):
    iside = max(4, round(side))
    if die.cocked:
        sprite, anchor = _cocked_sprite(die.face, die.side_face, iside, int(round(die.tilt)))
    else:
        sprite, anchor = _die_sprite(die.face, iside), (iside / 2.0, iside / 2.0)
    return _warp(sprite, anchor, die.x * k, die.y * k, die.angle, side / iside, size)

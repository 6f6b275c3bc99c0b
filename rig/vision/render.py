"""The virtual table: top-down frames of the box bottom with dice, a hand or a card, and the truth.

A :class:`Scene` is a value (dice with face, centre, rotation, cocked flag; lighting; an
optional hand or card); :func:`render_scene` turns it into a BGR frame. Everything that does
not change between frames (the box texture, the lamp, die and card sprites) is cached, so
rendering the same scene again with new noise costs a few milliseconds at 640x480 — the
live virtual camera re-renders a scene every frame while dice are added and settle.

What makes frames hard, on purpose: warm/cool white balance, dim (noisy, high gain) and
bright (clipping) exposure, a lamp gradient with vignetting, soft shadows, glare spots,
sensor noise, JPEG artefacts, dice touching each other or the box wall, a die leaning
(cocked) on another die or the wall, a hand reaching in, a card in view.

>>> frame, truth = render_table(7, n_dice=6, size=(320, 240))
>>> frame.shape, frame.dtype, len(truth.dice)
((240, 320, 3), dtype('uint8'), 6)
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from rig.vision.errors import VisionError
from rig.vision.profile import DICE_PER_COMBO, FACE_NAMES

CARD_NAMES = ("blue", "pink", "yellow", "blank", "gray")

# Albedo (reflectance under white light) in BGR, 0..255.
FLOOR = (128.0, 121.0, 113.0)  # grey "lunar surface" print of the box bottom
WALL = (104.0, 98.0, 93.0)
BODY = (168.0, 74.0, 124.0)  # violet die body
FROG = {
    "blue": (222.0, 122.0, 38.0),
    "pink": (160.0, 80.0, 238.0),
    "yellow": (40.0, 212.0, 244.0),
}
SKIN = (140.0, 168.0, 222.0)
CARD = {
    "blue": FROG["blue"],
    "pink": FROG["pink"],
    "yellow": FROG["yellow"],
    "blank": BODY,
    "gray": (176.0, 176.0, 172.0),
}

WALL_FRACTION = 0.055  # width of the visible box wall band, as a fraction of the frame width
DIE_SIDE = 52.0  # die side in px at 640x480 (the design's 40-100 px at the working resolution)


@dataclass(frozen=True)
class Lighting:
    """How the table is lit and seen: white balance, exposure, lamp, shadows, glare, noise, JPEG.

    ``gains`` multiply B, G, R; ``gradient`` is the brightness slope (fraction per half
    frame) along x and y; ``shadow`` is the shadow offset in die sides (dx, dy) and
    ``shadow_strength`` how much light it takes; ``glare`` spots are ``(x, y, radius,
    strength)`` with x, y, radius as fractions of the frame width/height; ``noise`` is the
    sensor noise sigma in grey levels; ``jpeg`` the JPEG quality (None: no compression).
    """

    name: str = "neutral"
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    brightness: float = 1.0
    gradient: tuple[float, float] = (0.08, 0.04)
    vignette: float = 0.18
    shadow: tuple[float, float] = (0.12, 0.16)
    shadow_strength: float = 0.35
    glare: tuple[tuple[float, float, float, float], ...] = ()
    noise: float = 2.5
    jpeg: int | None = 85

    def replace(self, **changes) -> Lighting:
        return dataclasses.replace(self, **changes)


#: The named lighting conditions the benchmark runs through.
LIGHTINGS: dict[str, Lighting] = {
    "neutral": Lighting("neutral"),
    "warm": Lighting("warm", gains=(0.72, 0.96, 1.18), brightness=0.95, shadow=(0.18, 0.1)),
    "cool": Lighting("cool", gains=(1.2, 1.02, 0.8), brightness=1.0, shadow=(-0.1, 0.18)),
    "dim": Lighting("dim", brightness=0.42, noise=6.0, jpeg=75, shadow_strength=0.3),
    "bright": Lighting("bright", brightness=1.38, noise=2.0, shadow=(0.08, -0.12)),
    "lamp": Lighting(
        "lamp", gains=(0.85, 0.98, 1.08), brightness=1.0, gradient=(0.42, 0.22), vignette=0.3,
        shadow=(0.32, 0.2), shadow_strength=0.5,
    ),
    "glare": Lighting(
        "glare", brightness=0.95,
        glare=((0.3, 0.35, 0.07, 150.0), (0.72, 0.62, 0.05, 120.0), (0.55, 0.2, 0.1, 70.0)),
        shadow=(0.15, 0.15),
    ),
    "mixed": Lighting(
        "mixed", gains=(0.78, 0.97, 1.12), brightness=0.6, gradient=(-0.35, 0.3), vignette=0.3,
        shadow=(-0.25, 0.25), shadow_strength=0.45, glare=((0.62, 0.4, 0.06, 110.0),), noise=4.5, jpeg=70,
    ),
}


@dataclass(frozen=True)
class PlacedDie:
    """A die on the table: the face up, the top face's centre (px), rotation (degrees).

    A ``cocked`` die leans by ``tilt`` degrees; its side face (showing ``side_face``) is
    visible next to the foreshortened top face.
    """

    face: str
    x: float
    y: float
    angle: float = 0.0
    cocked: bool = False
    tilt: float = 0.0
    side_face: str = "blank"

    def __post_init__(self) -> None:
        if self.face not in FACE_NAMES:
            raise VisionError(f"unknown die face {self.face!r} (faces: {', '.join(FACE_NAMES)})")


@dataclass(frozen=True)
class Hand:
    """A hand reaching in from the frame edge nearest (x, y), fingertips at (x, y)."""

    x: float
    y: float


@dataclass(frozen=True)
class PlacedCard:
    """A player card lying face up: colour name, centre (px), rotation (degrees)."""

    card: str
    x: float
    y: float
    angle: float = 0.0

    def __post_init__(self) -> None:
        if self.card not in CARD_NAMES:
            raise VisionError(f"unknown card {self.card!r} (cards: {', '.join(CARD_NAMES)})")


@dataclass(frozen=True)
class TrueDie:
    face: str
    x: float
    y: float
    cocked: bool = False


@dataclass(frozen=True)
class Truth:
    """What a rendered frame shows, in the rendered frame's pixels."""

    dice: tuple[TrueDie, ...]
    hand: bool = False
    card: str | None = None

    @property
    def faces(self) -> list[str]:
        return sorted(d.face for d in self.dice)

    @property
    def should_be_uncertain(self) -> bool:
        """A reader must flag this frame (cocked die, hand or card in view)."""
        return self.hand or self.card is not None or any(d.cocked for d in self.dice)

    def to_dict(self) -> dict:
        return {
            "dice": [dataclasses.asdict(d) for d in self.dice],
            "hand": self.hand,
            "card": self.card,
        }


@dataclass(frozen=True)
class Scene:
    """Everything on the table, in pixels of a ``size`` frame (rendering may rescale)."""

    dice: tuple[PlacedDie, ...] = ()
    lighting: Lighting = field(default_factory=Lighting)
    size: tuple[int, int] = (640, 480)
    die_side: float = DIE_SIDE
    hand: Hand | None = None
    card: PlacedCard | None = None
    texture_seed: int = 0
    #: cards laid before ``card`` (in a row beside it, or under it on a pile), drawn in order below it
    laid: tuple[PlacedCard, ...] = ()

    def replace(self, **changes) -> Scene:
        return dataclasses.replace(self, **changes)

    def with_die(self, die: PlacedDie) -> Scene:
        return dataclasses.replace(self, dice=self.dice + (die,))

    def truth(self, size: tuple[int, int] | None = None) -> Truth:
        k = _scale(self, size)
        return Truth(
            dice=tuple(TrueDie(d.face, d.x * k, d.y * k, d.cocked) for d in self.dice),
            hand=self.hand is not None,
            card=self.card.card if self.card else None,
        )


def _scale(scene: Scene, size: tuple[int, int] | None) -> float:
    return 1.0 if size is None else size[0] / scene.size[0]


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
    frog, eyes = _frog_masks(n)
    colours = [] if face == "blank" else face.split("+")
    if len(colours) == 1:
        img[frog > 0] = FROG[colours[0]]
    elif len(colours) == 2:
        left = np.zeros_like(frog)
        left[:, : n // 2] = 255
        img[(frog > 0) & (left > 0)] = FROG[colours[0]]
        img[(frog > 0) & (left == 0)] = FROG[colours[1]]
    if colours:
        img[eyes > 0] = (235.0, 235.0, 235.0)
        pupils = np.zeros_like(eyes)
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


# --------------------------------------------------------------------------- the box and the lamp

@functools.lru_cache(maxsize=8)
def _box_albedo(size: tuple[int, int], seed: int) -> np.ndarray:
    w, h = size
    rng = np.random.default_rng(seed)
    img = np.empty((h, w, 3), np.float32)
    img[:] = FLOOR
    low = cv2.resize(rng.normal(0, 1, (max(2, h // 40), max(2, w // 40))).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC)
    img += (7.0 * low)[..., None]
    for _ in range(int(14 * w * h / (640 * 480)) + 4):  # craters
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.01, 0.05) * w
        cv2.circle(img, (int(cx), int(cy)), int(r), (96.0, 91.0, 86.0), max(1, int(r * 0.15)), cv2.LINE_AA)
        cv2.circle(img, (int(cx + r * 0.1), int(cy + r * 0.1)), int(r * 0.8), (116.0, 110.0, 104.0), -1, cv2.LINE_AA)
    for _ in range(int(60 * w * h / (640 * 480))):  # printed stars/speckles
        cv2.circle(img, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), max(1, w // 480),
                   (175.0, 172.0, 168.0), -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), max(0.6, w / 900))
    img += rng.normal(0, 2.5, (h, w, 1)).astype(np.float32)
    b = int(WALL_FRACTION * w)
    ramp = np.linspace(0.8, 1.0, b, dtype=np.float32)[:, None]  # walls darken towards the rim
    wall = np.array(WALL, np.float32)
    img[:b, :] = wall * ramp[:, :, None]
    img[h - b :, :] = wall * ramp[::-1, :, None]
    img[:, :b] = np.minimum(img[:, :b], wall * ramp.T[:, :, None])
    img[:, w - b :] = np.minimum(img[:, w - b :], wall * ramp.T[:, ::-1, None])
    return img


def floor_rect(size: tuple[int, int]) -> tuple[float, float, float, float]:
    """The box bottom inside the walls: (x0, y0, x1, y1) in px."""
    b = WALL_FRACTION * size[0]
    return b, b, size[0] - b, size[1] - b


@functools.lru_cache(maxsize=32)
def _illumination(lighting: Lighting, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    xs = (np.arange(w, dtype=np.float32) - w / 2) / (w / 2)
    ys = (np.arange(h, dtype=np.float32) - h / 2) / (h / 2)
    gx, gy = lighting.gradient
    ill = 1.0 + gx * xs[None, :] + gy * ys[:, None]
    r2 = (xs[None, :] ** 2 * 0.6 + ys[:, None] ** 2 * 0.4)
    ill = ill * (1.0 - lighting.vignette * r2)
    return np.clip(ill * lighting.brightness, 0.05, None).astype(np.float32)


@functools.lru_cache(maxsize=32)
def _glare(lighting: Lighting, size: tuple[int, int]) -> np.ndarray | None:
    if not lighting.glare:
        return None
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    out = np.zeros((h, w), np.float32)
    for gx, gy, r, strength in lighting.glare:
        sigma = r * w
        out += strength * np.exp(-((xx - gx * w) ** 2 + (yy - gy * h) ** 2) / (2 * sigma**2))
    tint = np.array(lighting.gains, np.float32) ** 0.5
    return out[..., None] * tint


@functools.lru_cache(maxsize=4)
def _noise_tile(size: tuple[int, int]) -> np.ndarray:
    w, h = size
    return np.random.default_rng(12345).normal(0, 1, (h + 32, w + 32, 3)).astype(np.float32)


# --------------------------------------------------------------------------- rendering

def render_scene(scene: Scene, *, size: tuple[int, int] | None = None, seed: int = 0) -> np.ndarray:
    """Render ``scene`` as a BGR uint8 frame of ``size`` (default: the scene's own size).

    ``seed`` varies only the per-frame sensor noise, so a settled scene re-renders with the
    dice exactly where they were.
    """
    size = tuple(size or scene.size)
    w, h = size
    k = _scale(scene, size)
    side = scene.die_side * k
    light = scene.lighting

    light3 = _light3(light, size)
    out = cv2.multiply(_box_albedo(size, scene.texture_seed), light3)
    footprint = np.zeros((h, w), np.float32)

    placed = []  # ((x0, y0, bgra), height in die sides)
    for c in (*scene.laid, scene.card):
        if c is None:
            continue
        iside = max(4, round(side))
        sprite = _card_sprite(c.card, iside)
        p = _warp(sprite, (sprite.shape[1] / 2, sprite.shape[0] / 2), c.x * k, c.y * k, c.angle, side / iside, size)
        if p:
            placed.append((p, 0.5))
    for die in scene.dice:
        p = _die_placement(die, side, k, size)
        if p:
            placed.append((p, 1.0))

    for (x0, y0, bgra), _ in placed:
        a = bgra[..., 3]
        sl = np.s_[y0 : y0 + a.shape[0], x0 : x0 + a.shape[1]]
        np.maximum(footprint[sl], a, out=footprint[sl])
        roi = out[sl]
        roi *= 1.0 - bgra[..., 3:4]
        roi += bgra[..., :3] * light3[sl]  # sprites are premultiplied by their alpha at the edges

    # soft shadows on the floor (not on the tops of neighbouring dice)
    dx, dy = light.shadow
    ox, oy = int(round(dx * side)), int(round(dy * side))
    blur = max(1.0, 0.12 * side)
    for (x0, y0, bgra), height in placed:
        a = bgra[..., 3]
        sx0, sy0 = x0 + int(ox * height), y0 + int(oy * height)
        pad = int(3 * blur)
        X0, Y0 = max(0, sx0 - pad), max(0, sy0 - pad)
        X1, Y1 = min(w, sx0 + a.shape[1] + pad), min(h, sy0 + a.shape[0] + pad)
        if X1 <= X0 or Y1 <= Y0:
            continue
        m = np.zeros((Y1 - Y0, X1 - X0), np.float32)
        ax0, ay0 = sx0 - X0, sy0 - Y0
        ys0, xs0 = max(0, -ay0), max(0, -ax0)
        ys1 = min(a.shape[0], m.shape[0] - ay0)
        xs1 = min(a.shape[1], m.shape[1] - ax0)
        if ys1 > ys0 and xs1 > xs0:
            m[ay0 + ys0 : ay0 + ys1, ax0 + xs0 : ax0 + xs1] = a[ys0:ys1, xs0:xs1]
        m = cv2.GaussianBlur(m, (0, 0), blur * height)
        m *= 1.0 - footprint[Y0:Y1, X0:X1]
        out[Y0:Y1, X0:X1] *= (1.0 - light.shadow_strength * m)[..., None]

    if scene.hand is not None:
        full = _hand_mask(scene.hand, k, size)
        bx, by, bw, bh = cv2.boundingRect((full > 0).view(np.uint8))
        sx, sy = int(ox * 2.5), int(oy * 2.5)
        m = int(blur * 9) + 2
        X0, Y0 = max(0, bx + min(0, sx) - m), max(0, by + min(0, sy) - m)
        X1, Y1 = min(w, bx + bw + max(0, sx) + m), min(h, by + bh + max(0, sy) + m)
        hand_mask = full[Y0:Y1, X0:X1]
        hs = np.roll(hand_mask, (sy, sx), axis=(0, 1))
        hs = _soft(hs, blur * 3)
        roi = out[Y0:Y1, X0:X1]
        roi *= (1.0 - 0.88 * light.shadow_strength * hs)[..., None]
        skin = np.array(SKIN, np.float32) * (0.9 + 0.1 * _soft(hand_mask, side * 0.3))[..., None]
        roi += hand_mask[..., None] * (skin * light3[Y0:Y1, X0:X1] - roi)

    glare = _glare(light, size)
    if glare is not None:
        cv2.add(out, glare, dst=out)
    if light.noise > 0:
        rng = np.random.default_rng(seed)
        ox_, oy_ = rng.integers(0, 32, 2)
        tile = _noise_tile(size)[oy_ : oy_ + h, ox_ : ox_ + w]
        gain = light.noise * (1.0 + 0.15 * rng.standard_normal())
        cv2.scaleAdd(tile, float(gain), out, dst=out)
    cv2.max(out, 0.0, dst=out)
    frame = cv2.convertScaleAbs(out)  # saturates at 255
    if light.jpeg:
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(light.jpeg)])
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return frame


def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """A wide Gaussian blur, done at a quarter of the size (the result is smooth anyway)."""
    h, w = mask.shape
    small = cv2.resize(mask, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), max(0.5, sigma / 4)), (w, h), interpolation=cv2.INTER_LINEAR)


@functools.lru_cache(maxsize=16)
def _light3(lighting: Lighting, size: tuple[int, int]) -> np.ndarray:
    """Illumination times white balance, per pixel and channel."""
    return np.ascontiguousarray(_illumination(lighting, size)[..., None] * np.array(lighting.gains, np.float32))


def _hand_mask(hand: Hand, k: float, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    x, y = hand.x * k, hand.y * k
    # the arm comes in from the nearest frame edge
    edges = {(x, h + 40): h - y, (x, -40): y, (-40, y): x, (w + 40, y): w - x}
    ex, ey = min(edges, key=edges.get)
    mask = np.zeros((h, w), np.uint8)
    ux, uy = x - ex, y - ey
    n = math.hypot(ux, uy) or 1.0
    ux, uy = ux / n, uy / n
    palm = (x - ux * 0.09 * w, y - uy * 0.09 * w)
    cv2.line(mask, (int(ex), int(ey)), (int(palm[0]), int(palm[1])), 255, int(0.11 * w))
    cv2.circle(mask, (int(palm[0]), int(palm[1])), int(0.065 * w), 255, -1)
    for spread in (-0.5, -0.17, 0.17, 0.5):
        a = math.atan2(uy, ux) + spread * 0.9
        fx, fy = palm[0] + math.cos(a) * 0.1 * w, palm[1] + math.sin(a) * 0.1 * w
        cv2.line(mask, (int(palm[0]), int(palm[1])), (int(fx), int(fy)), 255, int(0.022 * w))
    thumb = math.atan2(uy, ux) + 1.5
    cv2.line(mask, (int(palm[0]), int(palm[1])),
             (int(palm[0] + math.cos(thumb) * 0.08 * w), int(palm[1] + math.sin(thumb) * 0.08 * w)), 255, int(0.025 * w))
    return cv2.blur(mask.astype(np.float32) / 255.0, (3, 3))


def render_card(card: str, *, lighting: Lighting | str | None = None, size: tuple[int, int] = (640, 480),
                seed: int = 0, dice: tuple[PlacedDie, ...] = ()) -> np.ndarray:
    """A frame with one player card face up under the camera (the reveal), optionally beside dice."""
    rng = np.random.default_rng(seed)
    w, h = 640, 480
    card_ = PlacedCard(card, w / 2 + rng.uniform(-60, 60), h / 2 + rng.uniform(-30, 30), rng.uniform(-25, 25))
    scene = Scene(dice=tuple(dice), lighting=_lighting(lighting, rng), card=card_)
    return render_scene(scene, size=size, seed=seed)


# --------------------------------------------------------------------------- random scenes

def _lighting(lighting: Lighting | str | None, rng: np.random.Generator) -> Lighting:
    if isinstance(lighting, Lighting):
        return lighting
    if lighting is None or lighting == "random":
        lighting = str(rng.choice(sorted(LIGHTINGS)))
    try:
        return LIGHTINGS[lighting]
    except KeyError:
        raise VisionError(f"unknown lighting {lighting!r} (lightings: {', '.join(LIGHTINGS)})") from None


def _corners(x: float, y: float, angle: float, w: float, h: float, ax: float, ay: float) -> np.ndarray:
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    pts = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) - (ax, ay)
    return pts @ np.array([[c, s], [-s, c]]) + (x, y)


def _footprint(die: PlacedDie, side: float) -> np.ndarray:
    if die.cocked:
        t = math.radians(die.tilt)
        top = side * math.cos(t)
        return _corners(die.x, die.y, die.angle, side, top + side * math.sin(t), side / 2, top / 2)
    return _corners(die.x, die.y, die.angle, side, side, side / 2, side / 2)


def _overlap(p: np.ndarray, q: np.ndarray, margin: float = 0.0) -> bool:
    """Separating-axis test for two convex quads (True if they overlap by more than margin)."""
    for poly in (p, q):
        for i in range(4):
            e = poly[(i + 1) % 4] - poly[i]
            axis = np.array([-e[1], e[0]]) / (np.hypot(*e) or 1.0)
            a, b = p @ axis, q @ axis
            if a.max() - margin <= b.min() or b.max() - margin <= a.min():
                return False
    return True


def _inside(poly: np.ndarray, rect: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = rect
    return bool((poly[:, 0] >= x0).all() and (poly[:, 0] <= x1).all() and (poly[:, 1] >= y0).all()
                and (poly[:, 1] <= y1).all())


def random_faces(rng: np.random.Generator, n: int) -> list[str]:
    """Faces of n dice as a real roll can show them (each combo face is on two dice only)."""
    dice = list(range(6))
    rng.shuffle(dice)
    combos = ["pink+blue", "pink+blue", "yellow+pink", "yellow+pink", "blue+yellow", "blue+yellow"]
    faces = []
    for d in dice[:n]:
        faces.append(str(rng.choice(["blue", "pink", "yellow", "blank", "blank", combos[d]])))
    assert all(faces.count(c) <= DICE_PER_COMBO for c in set(combos))
    return faces


def random_scene(rng: np.random.Generator, n_dice: int, lighting: Lighting | str | None = None, *,
                 size: tuple[int, int] = (640, 480), faces: list[str] | None = None, touching: float = 0.3,
                 wall: float = 0.15, cocked: float = 0.0, hand: bool = False, card: str | None = None,
                 die_side: float | None = None, spread: bool = False) -> Scene:
    """A random table: ``n_dice`` dice (faces as a real roll gives them unless ``faces``).

    Each die after the first touches an earlier one with probability ``touching`` or lies
    against the box wall with probability ``wall``; with probability ``cocked`` one die leans
    on a neighbour or the wall. ``spread`` keeps dice well apart (the calibration ritual).
    """
    if not 0 <= n_dice <= 6:
        raise VisionError(f"a table holds 0 to 6 dice, not {n_dice}")
    light = _lighting(lighting, rng)
    side = float(die_side or DIE_SIDE * size[0] / 640)
    faces = list(faces) if faces is not None else random_faces(rng, n_dice)
    rect = floor_rect(size)
    cocked_index = int(rng.integers(n_dice)) if n_dice and rng.random() < cocked else -1
    dice: list[PlacedDie] = []
    polys: list[np.ndarray] = []
    for i, face in enumerate(faces):
        is_cocked = i == cocked_index
        for attempt in range(400):
            mode = "free"
            r = rng.random()
            if not spread and dice and (r < touching or is_cocked and r < 0.6):
                mode = "touch"
            elif not spread and (r < touching + wall or is_cocked):
                mode = "wall"
            angle = float(rng.uniform(0, 90))
            tilt = float(rng.uniform(25, 42)) if is_cocked else 0.0
            side_face = str(rng.choice(["blue", "pink", "yellow", "blank"])) if is_cocked else "blank"
            if mode == "touch":
                j = int(rng.integers(len(dice)))
                base = dice[j]
                angle = base.angle + float(rng.normal(0, 6)) if rng.random() < 0.7 else angle
                direction = rng.uniform(0, 2 * math.pi)
                if is_cocked:  # it leans on `base`: its visible side faces away from it
                    angle = math.degrees(direction) - 90 + float(rng.normal(0, 5))
                lo, hi = 0.3 * side, 2.5 * side
                for _ in range(18):  # closest distance along `direction` without overlap
                    mid = (lo + hi) / 2
                    cand = PlacedDie(face, base.x + mid * math.cos(direction), base.y + mid * math.sin(direction),
                                     angle, is_cocked, tilt, side_face)
                    if _overlap(_footprint(cand, side), polys[j]):
                        lo = mid
                    else:
                        hi = mid
                d = hi + side * 0.01
                die = PlacedDie(face, base.x + d * math.cos(direction), base.y + d * math.sin(direction),
                                angle, is_cocked, tilt, side_face)
            elif mode == "wall":
                angle = float(rng.normal(0, 5))
                edge = int(rng.integers(4))
                x0, y0, x1, y1 = rect
                m = side * 0.52
                along_x, along_y = rng.uniform(x0 + side, x1 - side), rng.uniform(y0 + side, y1 - side)
                if is_cocked:
                    m = side * 0.45
                # a die leaning on the wall shows the side facing away from the wall
                x, y, angle = [(along_x, y0 + m, angle), (along_x, y1 - m, angle + 180),
                               (x0 + m, along_y, angle - 90), (x1 - m, along_y, angle + 90)][edge]
                die = PlacedDie(face, x, y, angle, is_cocked, tilt, side_face)
            else:
                x0, y0, x1, y1 = rect
                die = PlacedDie(face, rng.uniform(x0 + side, x1 - side), rng.uniform(y0 + side, y1 - side),
                                angle, is_cocked, tilt, side_face)
            poly = _footprint(die, side)
            gap = side * (0.9 if spread else 0.0)
            if not _inside(poly, (rect[0] - 1, rect[1] - 1, rect[2] + 1, rect[3] + 1)):
                continue
            if any(_overlap(poly, q, -gap) for q in polys):
                continue
            dice.append(die)
            polys.append(poly)
            break
        else:
            raise VisionError(f"could not place {n_dice} dice on a {size[0]}x{size[1]} table")
    the_hand = None
    if hand:
        x0, y0, x1, y1 = rect
        the_hand = Hand(float(rng.uniform(x0 + 2 * side, x1 - 2 * side)), float(rng.uniform(y0 + 2 * side, y1 - 2 * side)))
    the_card = None
    if card is not None:
        the_card = PlacedCard(card, size[0] / 2 + rng.uniform(-0.1, 0.1) * size[0],
                              size[1] / 2 + rng.uniform(-0.1, 0.1) * size[1], float(rng.uniform(-30, 30)))
    return Scene(tuple(dice), light, tuple(size), side, the_hand, the_card)


def ritual_scene(face: str, lighting: Lighting | str | None = None, *, seed: int = 0,
                 size: tuple[int, int] = (640, 480)) -> Scene:
    """The calibration ritual: all six dice spread out showing ``face`` ("empty": no dice)."""
    rng = np.random.default_rng(seed)
    light = _lighting(lighting, rng)
    if face == "empty":
        scene = random_scene(rng, 0, light, size=size)
    else:
        scene = random_scene(rng, 6, light, size=size, faces=[face] * 6, spread=True)
    return scene


def render_table(scene_or_seed: Scene | int, n_dice: int | None = None, *, size: tuple[int, int] = (640, 480),
                 lighting: Lighting | str | None = None, **options) -> tuple[np.ndarray, Truth]:
    """A virtual-table frame and its truth, from a scene or from a seed (random scene)."""
    if isinstance(scene_or_seed, Scene):
        scene, seed = scene_or_seed, 0
    else:
        seed = int(scene_or_seed)
        rng = np.random.default_rng(seed)
        n = int(rng.integers(0, 7)) if n_dice is None else n_dice
        scene = random_scene(rng, n, lighting, size=(640, 480), **options)
    return render_scene(scene, size=size, seed=seed), scene.truth(size)

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

import functools
import math

import cv2
import numpy as np

from rig.vision.table_scene import (  # noqa: F401 - moved (issue 29); the old import path works
    floor_rect, CARD_NAMES, FLOOR, WALL, BODY, FROG, SKIN, CARD, WALL_FRACTION, DIE_SIDE, Lighting, LIGHTINGS, PlacedDie,
    Hand, PlacedCard, TrueDie, Truth, Scene, _scale,
)
from rig.vision.render_sprites import (  # noqa: F401 - moved (issue 29); the old import path works
    _SS, _rounded_square, _frog_masks, _die_sprite, _cocked_sprite, _card_sprite, _warp, _die_placement,
)
from rig.vision.render_scenes import (  # noqa: F401 - moved (issue 29); the old import path works
    _lighting, _corners, _footprint, _overlap, _inside, random_faces, random_scene,
)


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

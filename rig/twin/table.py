"""One table of the twin: its box, floor print, lamps, dice print and camera, drawn from a seed,
and its shots — the calibration ritual, the empty box, thrown turns — rendered and cached.

A shot's linear render is cached in ``~/.cache/rig/twin/`` (``$RIG_TWIN_CACHE``) by table seed,
shot and samples per pixel; developing it (exposure, drift, noise, JPEG) is cheap and not cached.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from rig.twin import physics
from rig.vision.table_scene import TrueDie

#: the lamp drifts the benchmark reads each table under: (brightness factor, kelvin shift)
DRIFTS = {"same": (1.0, 0), "lamp x0.8": (0.8, 0), "lamp x1.2": (1.2, 0), "700 K warmer": (1.0, -700)}
#: the die print: violet body, the frog colours (sRGB, BGR)
BODY = (168.0, 74.0, 124.0)
FROG = {"blue": (222.0, 122.0, 38.0), "pink": (160.0, 80.0, 238.0), "yellow": (40.0, 212.0, 244.0)}
TEXTURE = 96  # px per die face texture
CARD_FIELD = {"blue": FROG["blue"], "pink": FROG["pink"], "yellow": FROG["yellow"], "blank": BODY,
              "gray": (176.0, 176.0, 172.0)}

#: twin recipe version: bump when a change alters renders (old cache entries are then unused)
VERSION = 2


def cache_dir() -> Path:
    return Path(os.environ.get("RIG_TWIN_CACHE") or Path.home() / ".cache" / "rig" / "twin")


@dataclass
class Shot:
    """One frame to read: its dice (poses) and what it is (``ritual:blue``, ``empty``, ``turn:3``)."""

    name: str
    dice: list
    #: player cards lying (or held): {"card", "x", "y", "angle" (deg), "z" (m)}, bottom first
    cards: list = field(default_factory=list)
    #: a hand over the box: {"x", "y", "z"} of the palm (m), the arm from the nearest edge
    hand: dict | None = None
    #: other things on the floor: ``add(mi, scene, key)`` puts each into the Mitsuba scene (coins, screws)
    props: list = field(default_factory=list)


@dataclass
class TwinTable:
    seed: int
    size: tuple[int, int]
    tray: tuple[float, float]
    wall: float
    wall_colour: list
    outside: list
    floor_kind: str
    floor_print: np.ndarray
    varnished: bool
    lamps: list
    ambient: float
    camera: dict
    gloss: float
    body: tuple
    frog: dict
    noise: float
    jpeg: int
    notes: dict = field(default_factory=dict)

    @classmethod
    def random(cls, seed: int, *, photo=None, size: tuple[int, int] = (640, 480)) -> TwinTable:
        """``photo(kind, rng)``: a floor cut from a photograph (``"wood"``, ``"tray"``), or None."""
        rng = np.random.default_rng([6151, seed])
        tw = float(rng.uniform(0.17, 0.23))
        tray = (tw, tw * float(rng.uniform(0.68, 0.78)))
        kind = str(rng.choice(["plain", "printed", "felt", "wood", "tray"]))
        floor = _floor_print(kind, rng, photo)
        instead = None
        if floor is None:  # no photographs to cut it from
            instead, kind, floor = kind, "felt", _floor_print("felt", rng, photo)
        n_lamps = 1 if rng.random() < 0.6 else 2
        lamps = []
        for _ in range(n_lamps):
            # as docs/building.md advises, off to the side (about 25-50 degrees from straight down): the
            # lamp's mirror image on glossy dice falls near the walls or outside the box, not in the middle
            up, a = rng.uniform(0.45, 0.8), rng.uniform(0, 2 * math.pi)
            r = up * math.tan(math.radians(rng.uniform(25, 50)))
            lamps.append({"at": [float(r * math.cos(a)), float(r * math.sin(a)), float(up)],
                          "size": float(rng.uniform(0.06, 0.15)), "kelvin": float(rng.uniform(2700, 6500)),
                          "power": 1.0})
        for lamp in lamps:  # about the same light on the floor, whatever the lamp's size and height
            lamp["power"] = float(rng.uniform(0.7, 1.3)) * 6.0 * lamp["at"][2] ** 2 / (lamp["size"] ** 2 * n_lamps)
        height = float(rng.uniform(0.35, 0.50))
        # the Pi camera crops its sensor to the box (ScalerCrop): the field of view that just holds the tray
        fov = math.degrees(2 * math.atan((tray[0] / 2 + 0.03) / height))
        camera = {"height": height, "x": float(rng.normal(0, 0.004)), "y": float(rng.normal(0, 0.004)),
                  "tilt_x": float(rng.uniform(-3, 3)), "tilt_y": float(rng.uniform(-3, 3)), "fov": fov}
        body = tuple(float(v) for v in np.clip(np.array(BODY) * rng.uniform(0.85, 1.1) + rng.normal(0, 8, 3), 20, 230))
        frog = {k: tuple(float(c) for c in np.clip(np.array(v) + rng.normal(0, 8, 3), 5, 250)) for k, v in FROG.items()}
        wall = float(rng.uniform(0.03, 0.045))
        wall_tone = rng.uniform(0.15, 0.6)
        table = cls(seed=seed, size=size, tray=tray, wall=wall,
                    wall_colour=[float(v) for v in np.clip(wall_tone * (1 + rng.normal(0, 0.1, 3)), 0.02, 0.9)],
                    outside=[float(v) for v in np.clip(rng.uniform(0.05, 0.5) * (1 + rng.normal(0, 0.15, 3)), 0.01, 0.9)],
                    floor_kind=kind, floor_print=floor, varnished=bool(kind in ("wood", "plain") and rng.random() < 0.4),
                    lamps=lamps, ambient=float(rng.uniform(0.01, 0.05)), camera=camera,
                    gloss=float(rng.uniform(0.05, 0.2)), body=body, frog=frog,
                    noise=float(rng.uniform(0.0005, 0.003)), jpeg=int(rng.integers(80, 95)))
        die_px = physics.DIE / (2 * height * math.tan(math.radians(fov) / 2)) * size[0]
        table.notes = {"die_px": die_px, **({"felt instead of": instead} if instead else {})}
        return table

    def plan(self):
        """``rig plan`` for this table's camera: a Camera Module 3 at the lens's height over the box
        bottom, and its picture. The twin's camera crops its sensor to the box (ScalerCrop) and scales
        that to :attr:`size`; the plan has no such crop, but the same die size comes from the whole
        field of view at the size the cropped part would have unscaled (as ``rig doctor`` plans a
        ``[camera] crop``): ``size / crop``, ``crop`` the share of the full field's width kept."""
        from rig.plan import CAMERAS, _tangents, make_plan

        full_t, _ = _tangents(CAMERAS["cm3"], self.size)  # the whole field of a picture of this shape
        crop = math.tan(math.radians(self.camera["fov"]) / 2) / full_t
        frame = (round(self.size[0] / crop), round(self.size[1] / crop))
        return make_plan(box=(self.tray[0] * 1000, self.tray[1] * 1000, self.wall * 1000), camera="cm3",
                         height_cm=self.camera["height"] * 100, frame=frame)

    def __repr__(self) -> str:
        lamps = " + ".join(f"{lamp['kelvin']:.0f} K" for lamp in self.lamps)
        return (f"<twin table {self.seed}: {self.floor_kind}{' varnished' if self.varnished else ''} floor, "
                f"lamp {lamps}, camera {self.camera['height'] * 100:.0f} cm, die {self.notes['die_px']:.0f} px>")

    # -- what the camera sees ---------------------------------------------------------------
    def face_texture(self, face: str) -> np.ndarray:
        return _face_texture(face, self.body, tuple(sorted(self.frog.items())))

    def card_texture(self, card: str) -> np.ndarray:
        return card_texture(card)

    def shots(self, turns: int, *, propped: int = 0) -> list[Shot]:
        """The ritual (six dice laid each face up), the empty box, then ``turns`` thrown turns
        (every fourth with a die set leaning on the wall). ``propped``: the turns are ``propped:k``
        instead, thrown and then ``propped`` dice set leaning each on a wall or another die
        (:func:`rig.twin.physics.throw`): material with many truly cocked dice to fit on."""
        out = [Shot(f"ritual:{face}", physics.lay(self.seed * 10 + i, face, tray=self.tray))
               for i, face in enumerate(("blue", "pink", "yellow", "blank"))]
        out.append(Shot("empty", []))
        for k in range(turns):
            if propped:
                out.append(Shot(f"propped:{k}", physics.throw(self.seed * 1000 + 500 + k, tray=self.tray, wall=self.wall,
                                                              propped=propped)))
                continue
            out.append(Shot(f"turn:{k}", physics.throw(self.seed * 1000 + k, tray=self.tray, wall=self.wall,
                                                       lean=k % 4 == 3)))
        return out

    def reveal(self, r: int, cards: list[str]) -> list[tuple[Shot, int]]:
        """The shots of one card reveal: for each card, the hand bringing it (held a little above its
        place) and then the card laid, the hand gone or waiting at the box's edge with the rest of
        the stack. In a row while the box has room, then on a pile on the last card, a little
        askew. ``(shot, cards laid so far)`` in order."""
        from rig.twin.optics import CARD_SIZE

        rng = np.random.default_rng([6163, self.seed, r])
        w, h = self.tray
        cw, ch = CARD_SIZE
        layout = str(rng.choice(["row", "pile"]))
        lying: list[dict] = []
        x0 = -w / 2 + cw / 2 + 0.01 if layout == "row" else float(rng.uniform(-0.02, 0.02))
        pile = None
        out = []
        for k, card in enumerate(cards):
            if not lying:
                x, y, angle = x0, float(rng.uniform(-0.01, 0.01)), float(rng.normal(0, 5))
            elif layout == "row" and lying[-1]["x"] + cw + 0.022 + cw / 2 < w / 2 - 0.003 and pile is None:
                x, y, angle = lying[-1]["x"] + cw + float(rng.uniform(0.018, 0.026)), float(rng.normal(0, 0.004)), float(rng.normal(0, 5))
            else:
                pile = pile or dict(lying[-1])
                x, y = pile["x"] + float(rng.normal(0, 0.004)), pile["y"] + float(rng.normal(0, 0.004))
                angle = pile["angle"] + float(rng.normal(0, 6))
            top = max((c["z"] for c in lying), default=0.0)
            placed = {"card": card, "x": x, "y": y, "angle": angle, "z": top + 0.0004}
            held = dict(placed, z=top + 0.02, x=x + 0.01, angle=angle + 8)
            hand = {"x": x + 0.03, "y": y - 0.02, "z": top + 0.045}
            out.append((Shot(f"reveal{r}:{k}:hand", [], lying + [held], hand), len(lying)))
            lying = lying + [placed]
            linger = rng.random() < 0.35
            waiting = {"x": (w / 2 + 0.02) * (1 if x < 0 else -1), "y": -h / 2 - 0.01, "z": 0.06} if linger else None
            out.append((Shot(f"reveal{r}:{k}:laid", [], list(lying), waiting), len(lying)))
        return out

    def cache_path(self, shot: Shot, spp: int) -> Path:
        """Where the shot's render is cached: by table seed, shot, samples and size, and a felt floor drawn
        for want of the photographs apart from the table's own (a run without them reads its own renders)."""
        recipe = f"{VERSION}:{self.seed}:{shot.name}:{spp}:{self.size}"
        if "felt instead of" in self.notes:
            recipe += f":felt instead of {self.notes['felt instead of']}"
        key = hashlib.sha1(recipe.encode()).hexdigest()[:16]
        return cache_dir() / f"t{self.seed}-{shot.name.replace(':', '-')}-{spp}spp-{key}.npy"

    def render(self, shot: Shot, *, spp: int) -> np.ndarray:
        """The shot's linear render, from the cache or path-traced now (and cached)."""
        from rig.twin.optics import radiance

        path = self.cache_path(shot, spp)
        if path.exists():
            return np.load(path).astype(np.float32)
        kept = radiance(self, shot.dice, spp=spp, seed=self.seed, cards=shot.cards, hand=shot.hand,
                        props=shot.props).astype(np.float16)
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(f".{os.getpid()}.part")
        with open(part, "wb") as f:
            np.save(f, kept)
        os.replace(part, path)  # whole or not at all: another run may be reading the cache
        return kept.astype(np.float32)  # as the cache gives it: a first read is every read

    def floor_mask(self) -> np.ndarray:
        """The box floor in the frame (H x W bool): where the camera meters."""
        from rig.twin.optics import project

        w, h = self.tray
        corners = project(self, np.array([(-w / 2, -h / 2, 0), (w / 2, -h / 2, 0), (w / 2, h / 2, 0), (-w / 2, h / 2, 0)]))
        mask = np.zeros(self.size[::-1], np.uint8)
        cv2.fillConvexPoly(mask, np.int32(np.round(corners)), 1)
        return mask > 0

    def truth(self, shot: Shot) -> list:
        """Where each die's top shows in the frame (px), its face, whether it is cocked."""
        from rig.twin.optics import project

        if not shot.dice:
            return []
        tops = np.array([(d.centre[0], d.centre[1], d.centre[2] + physics.DIE / 2) for d in shot.dice])
        xy = project(self, tops)
        return [TrueDie(d.face, float(x), float(y), d.cocked) for d, (x, y) in zip(shot.dice, xy)]



@functools.lru_cache(maxsize=256)
def _face_texture(face: str, body: tuple, frog_items: tuple) -> np.ndarray:
    """A die face's print (linear RGB, TEXTURE px): violet, a frog in one or two colours, the edge
    rounded off (darker towards the rim, as the bevel turns from the light)."""
    from rig.vision.render_sprites import paint_frog

    n = TEXTURE
    img = np.empty((n, n, 3), np.float32)
    img[:] = body
    paint_frog(img, face, dict(frog_items))
    return bevelled(img, 0.55)


def bevelled(img: np.ndarray, rim: float) -> np.ndarray:
    """A face's print (sRGB float, square) as a linear RGB texture, its edge rounded off: darker towards the
    rim (``rim`` of the face's light at the very edge), as the bevel turns from the light."""
    from rig.twin.optics import to_linear

    n = img.shape[0]
    yy, xx = np.mgrid[0:n, 0:n]
    edge = np.minimum.reduce([xx, yy, n - 1 - xx, n - 1 - yy]).astype(np.float32) / n
    img = img * (rim + (1 - rim) * np.clip(edge / 0.07, 0, 1))[..., None]
    return to_linear(np.clip(img, 0, 255).astype(np.uint8))


@functools.lru_cache(maxsize=8)
def card_texture(card: str) -> np.ndarray:
    """A player card's print (linear RGB): white border, coloured field, a light frog icon."""
    from rig.twin.optics import to_linear
    from rig.vision.render import _frog_masks

    w, h = 126, 176
    img = np.empty((h, w, 3), np.float32)
    img[:] = (232.0, 234.0, 236.0)
    m = int(0.07 * w)
    img[m:-m, m:-m] = CARD_FIELD[card]
    frog, _ = _frog_masks(w)
    y0 = (h - w) // 2
    tone = np.array(CARD_FIELD[card], np.float32)
    tone = tone * 0.7 if card == "gray" else tone * 0.55 + 255 * 0.45
    icon = img[y0:y0 + w]
    icon[frog > 0] = tone
    return to_linear(np.clip(img, 0, 255).astype(np.uint8))


def _floor_print(kind: str, rng, photo) -> np.ndarray | None:
    """The box bottom's print (BGR uint8): plain, a busy printed pattern, felt, or cut from a photo."""
    h, w = 360, 480
    tone = rng.uniform(40, 130)
    base = np.clip(tone * (1 + rng.normal(0, 0.12, 3)), 15, 210)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    if kind == "printed":  # circles and bands in other shades, as box bottoms are printed
        for _ in range(int(rng.integers(15, 40))):
            colour = tuple(float(v) for v in np.clip(base * rng.uniform(0.5, 1.6) + rng.normal(0, 20, 3), 5, 240))
            c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            if rng.random() < 0.6:
                cv2.circle(img, c, int(rng.uniform(8, 50)), colour, int(rng.choice([-1, 2, 4])))
            else:
                cv2.line(img, c, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), colour, int(rng.uniform(2, 10)))
    elif kind == "felt":
        img += cv2.GaussianBlur(rng.normal(0, 10, (h, w)).astype(np.float32), (0, 0), 2)[..., None]
    elif kind in ("wood", "tray"):
        patch = photo(kind, rng) if photo else None
        if patch is None:
            return None
        img = cv2.resize(patch, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)

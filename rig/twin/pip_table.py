"""Pip dice on the twin: another table and camera for the pip reader (issue 25).

A :class:`PipTable` is a :class:`~rig.twin.table.TwinTable` whose dice are pip dice (a body colour
and a pip colour: white with black pips, red with yellow, cream with red, ...), seen by a camera at
640x480, 1280x960 or 1920x1080 from a height and field of view that make the dice 30-200 px wide —
no size given to the reader. The tray is a table with a low rim or a box; the floor plain, printed,
felt or a wood grain with knots; some throws have things that are no die beside the dice (coins,
screw heads, a card's corner). Nothing here was fitted on: it is material to test on.

The pips are printed on the faces (a texture), not holes: the light, the shadows of the walls and
the other dice, the highlights and the camera (noise, demosaic, JPEG) are the twin's.
"""

from __future__ import annotations

import functools
import hashlib
import math
from dataclasses import dataclass

import cv2
import numpy as np

from rig.errors import RigError
from rig.twin import physics
from rig.twin.table import TEXTURE, Shot, TwinTable, bevelled

#: body and pip colours (sRGB, BGR)
STYLES = {
    "white, black pips": ((232.0, 234.0, 236.0), (28.0, 28.0, 30.0)),
    "red, white pips": ((40.0, 38.0, 196.0), (238.0, 238.0, 238.0)),
    "red, yellow pips": ((36.0, 36.0, 186.0), (40.0, 206.0, 238.0)),
    "cream, red pips": ((196.0, 224.0, 236.0), (40.0, 40.0, 186.0)),
    "black, white pips": ((34.0, 34.0, 36.0), (232.0, 232.0, 232.0)),
    "blue, white pips": ((178.0, 96.0, 30.0), (236.0, 236.0, 236.0)),
    "green, white pips": ((70.0, 140.0, 40.0), (236.0, 236.0, 236.0)),
}
SIZES = ((640, 480), (1280, 960), (1920, 1080))
#: the value on a die's local +x, -x, +y, -y, +z, -z (opposite faces add up to seven)
VALUES = (2, 5, 3, 4, 1, 6)
_C = (-1, 1)
PIP_AT = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
          4: [(x, y) for x in _C for y in _C], 5: [(x, y) for x in _C for y in _C] + [(0, 0)],
          6: [(x, y) for x in _C for y in _C] + [(-1, 0), (1, 0)]}
#: the shot's recipe version (in its name, so the render cache keeps old renders apart)
VERSION = 1


@dataclass(frozen=True)
class PipPose:
    """A pip die at rest: as :class:`~rig.twin.physics.DiePose`, its faces named ``pip:N``."""

    centre: tuple[float, float, float]
    rotation: tuple[tuple[float, ...], ...]
    value: int
    cocked: bool

    @classmethod
    def of(cls, pose: physics.DiePose) -> PipPose:
        world = physics.NORMALS @ np.asarray(pose.rotation).T
        return cls(pose.centre, pose.rotation, VALUES[int(np.argmax(world[:, 2]))], pose.cocked)

    @property
    def face(self) -> str:
        return f"pip:{self.value}"

    def faces(self) -> tuple[str, ...]:
        return tuple(f"pip:{v}" for v in VALUES)


@dataclass(frozen=True)
class TruePip:
    """Where a die's top shows in the frame (px), its value, its size there (px), whether it is cocked."""

    value: int
    x: float
    y: float
    side_px: float
    cocked: bool


@dataclass
class PipTable(TwinTable):
    style: str = "white, black pips"
    wood: bool = False

    @classmethod
    def random_pips(cls, seed: int) -> PipTable:
        """A table, camera and dice from ``seed`` (its own seeds: none of the frog twin's draws)."""
        rng = np.random.default_rng([7331, seed])
        size = SIZES[int(rng.integers(len(SIZES)))]
        base = TwinTable.random(seed, size=size)
        die_px = float(math.exp(rng.uniform(math.log(30), math.log(min(200, size[0] / 4.5)))))
        field = physics.DIE * size[0] / die_px  # the width the camera sees on the floor (m)
        height = float(rng.uniform(0.18, 0.5))
        fov = math.degrees(2 * math.atan(field / 2 / height))
        tw = float(min(base.tray[0], field * 0.75))
        tray = (tw, float(min(base.tray[1], tw * size[1] / size[0])))
        camera = dict(base.camera, height=height, fov=fov, tilt_x=float(rng.uniform(-4, 4)), tilt_y=float(rng.uniform(-4, 4)))
        style = str(rng.choice(sorted(STYLES)))
        wood = bool(rng.random() < 0.35)
        floor = _wood(rng) if wood else base.floor_print
        table = cls(**{**base.__dict__, "size": size, "tray": tray, "camera": camera, "floor_print": floor,
                       "floor_kind": "wood with knots" if wood else base.floor_kind,
                       "wall": float(rng.choice([0.004, 0.008, base.wall])), "style": style, "wood": wood})
        table.notes = {"die_px": die_px}
        return table

    def __repr__(self) -> str:
        return (f"<pip twin table {self.seed}: {self.style} on {self.floor_kind}, {self.size[0]}x{self.size[1]}, "
                f"camera {self.camera['height'] * 100:.0f} cm, die {self.notes['die_px']:.0f} px>")

    def face_texture(self, face: str) -> np.ndarray:
        body, pips = STYLES[self.style]
        return _pip_texture(int(face.split(":")[1]), body, pips)

    def dice_count(self) -> int:
        """How many dice fit this tray comfortably (1-6)."""
        return int(np.clip(self.tray[0] * self.tray[1] / (8 * physics.DIE ** 2), 1, 6))

    def pip_shots(self, throws: int) -> list[Shot]:
        """``throws`` throws of this table's dice; every other one with things beside them that are no die."""
        out = []
        for k in range(throws):
            poses = self._throw_in_view(k)
            props = _props(self, poses, np.random.default_rng([7333, self.seed, k])) if k % 2 else []
            out.append(Shot(f"pips{VERSION}:{k}:{self._digest(poses, props)}", poses, props=props))
        return out

    def _throw_in_view(self, k: int) -> list[PipPose]:
        """Throw ``k``'s dice, thrown again (another seed) until every die lies wholly in the frame."""
        from rig.twin.optics import project

        w, h = self.size
        for attempt in range(12):
            poses = [PipPose.of(p) for p in physics.throw(self.seed * 1000 + 500 + k + 100_000 * attempt,
                                                            n=self.dice_count(), tray=self.tray,
                                                            wall=max(self.wall, 0.012), lean=k % 4 == 3)]
            corners = np.array([np.asarray(p.centre) + [dx, dy, 0.0] for p in poses
                                for dx in (-physics.DIE, physics.DIE) for dy in (-physics.DIE, physics.DIE)])
            xy = project(self, corners)
            if ((xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)).all():
                return poses
        raise RigError(f"pip twin table {self.seed}: no throw {k} kept every die in view")

    def _digest(self, poses: list[PipPose], props: list) -> str:
        """What the shot's render depends on, hashed: the cache's key (a recipe changed is a render anew)."""
        recipe = (self.size, self.tray, self.wall, sorted(self.camera.items()), self.lamps, self.ambient, self.style,
                  self.outside, self.wall_colour, self.gloss, hashlib.sha1(self.floor_print.tobytes()).hexdigest(),
                  [(p.centre, p.rotation) for p in poses], [p.args for p in props])
        return hashlib.sha1(repr(recipe).encode()).hexdigest()[:10]

    def pip_truth(self, shot: Shot) -> list[TruePip]:
        from rig.twin.optics import project

        out = []
        for d in shot.dice:
            c = np.asarray(d.centre)
            top = c + np.array([0.0, 0.0, physics.DIE / 2])
            (x, y), (x2, _) = project(self, np.array([top, top + [physics.DIE, 0.0, 0.0]]))
            out.append(TruePip(d.value, float(x), float(y), float(abs(x2 - x)), d.cocked))
        return out


    def frame_boxes(self, shot: Shot) -> tuple[np.ndarray, np.ndarray]:
        """The shot's truth in frame px, from the twin's own geometry (for training, not from a reader).

        ``dice``: one row per die lying flat, (cx, cy, side, value): the centre of its top face's projection
        and the longer side of that projection's upright box, as a die's box is labelled in the photos;
        ``others``: one row per cocked die and thing that is no die, (cx, cy, side, 0): a cocked die's top
        as above, a coin's, screw head's or card corner's place and a side about its size."""
        from rig.twin.optics import project

        half = physics.DIE / 2
        cube = np.array([(x, y, z) for x in (-half, half) for y in (-half, half) for z in (-half, half)])
        dice, others = [], []
        for d in shot.dice:
            corners = np.asarray(d.centre) + cube @ np.asarray(d.rotation).T
            top = corners[np.argsort(corners[:, 2])[-4:]]
            xy = project(self, top)
            cx, cy = project(self, top.mean(axis=0, keepdims=True))[0]
            side = float((xy.max(axis=0) - xy.min(axis=0)).max())
            (others if d.cocked else dice).append((float(cx), float(cy), side, 0 if d.cocked else d.value))
        for prop in shot.props:
            kind, x, y, _, scale = prop.args
            radius = {"coin": 0.0105, "screw": 0.0035}.get(kind, half) * scale
            xy = project(self, np.array([(x, y, 0.0), (x + radius, y, 0.0), (x - radius, y, 0.0)]))
            others.append((float(xy[0, 0]), float(xy[0, 1]), float(max(abs(xy[1, 0] - xy[2, 0]), 4.0)), 0))
        return np.array(dice, np.float32).reshape(-1, 4), np.array(others, np.float32).reshape(-1, 4)


@functools.lru_cache(maxsize=64)
def _pip_texture(value: int, body: tuple, pips: tuple) -> np.ndarray:
    """A pip face's print (linear RGB): the body colour, round pips, the rim darker as the bevel turns away."""
    n = TEXTURE * 2
    img = np.empty((n, n, 3), np.float32)
    img[:] = body
    shade = tuple(0.55 * c for c in pips)  # a pip is a dip: its upper rim in its own shadow
    for px, py in PIP_AT[value]:
        cx, cy = n / 2 + px * n * 0.27, n / 2 + py * n * 0.27
        cv2.circle(img, (int(cx * 8), int(cy * 8)), int(n * 0.09 * 8), shade, -1, cv2.LINE_AA, shift=3)
        cv2.circle(img, (int(cx * 8), int((cy + n * 0.015) * 8)), int(n * 0.08 * 8), pips, -1, cv2.LINE_AA, shift=3)
    return bevelled(img, 0.6)


def _wood(rng) -> np.ndarray:
    """A wood grain (BGR uint8) with dark knots the size of a pip or of a die's top."""
    h, w = 360, 480
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    warp = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 25) * 400
    grain = 0.5 + 0.5 * np.sin((yy + warp) / rng.uniform(3, 9))
    tone = np.array([rng.uniform(60, 120), rng.uniform(100, 160), rng.uniform(140, 200)], np.float32)
    img = tone * (0.82 + 0.18 * grain[..., None])
    for _ in range(int(rng.integers(2, 7))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(3, 14)), int(rng.uniform(2, 9)))
        cv2.ellipse(img, c, axes, float(rng.uniform(-20, 20)), 0, 360, tuple(float(v) for v in tone * 0.35), -1, cv2.LINE_AA)
        cv2.ellipse(img, c, (axes[0] + 3, axes[1] + 2), 0, 0, 360, tuple(float(v) for v in tone * 0.6), 2, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


def _props(table: PipTable, poses: list[PipPose], rng) -> list:
    """One to three things that are no die, on the floor clear of the dice: coins, screw heads, a card."""
    w, h = table.tray
    out = []
    for i in range(int(rng.integers(1, 4))):
        for _ in range(50):
            x, y = float(rng.uniform(-0.4, 0.4) * w), float(rng.uniform(-0.4, 0.4) * h)
            if all(math.hypot(x - p.centre[0], y - p.centre[1]) > 1.6 * physics.DIE for p in poses) and \
                    all(math.hypot(x - q[1], y - q[2]) > 1.6 * physics.DIE for q in out):
                break
        else:
            continue
        out.append((str(rng.choice(["coin", "coin", "screw", "card"])), x, y, float(rng.uniform(0, 180)),
                    float(rng.uniform(0.75, 1.2))))
    return [functools.partial(_add_prop, *item) for item in out]


def _add_prop(kind: str, x: float, y: float, angle: float, scale: float, mi, scene: dict, key: str) -> None:
    from rig.twin.optics import _frame

    if kind == "coin":
        r = 0.0105 * scale
        scene[key] = {"type": "cylinder", "radius": r, "p0": [x, y, 0.0], "p1": [x, y, 0.0018],
                      "bsdf": {"type": "roughconductor", "material": "Cu" if scale > 1 else "Al", "alpha": 0.25}}
        scene[key + "top"] = {"type": "disk", "to_world": mi.ScalarTransform4f().translate([x, y, 0.0018]).scale([r, r, 1.0]),
                              "bsdf": {"type": "roughconductor", "material": "Cu" if scale > 1 else "Al", "alpha": 0.3}}
    elif kind == "screw":
        r = 0.0035 * scale
        scene[key] = {"type": "sphere", "radius": r, "to_world": mi.ScalarTransform4f().translate([x, y, 0.0]),
                      "bsdf": {"type": "roughconductor", "material": "Cr", "alpha": 0.2}}
    else:  # a card's corner at (x, y), the rest of the card further out
        a = math.radians(angle)
        u = np.array([math.cos(a), math.sin(a), 0.0]) * 0.03
        v = np.array([-math.sin(a), math.cos(a), 0.0]) * 0.042
        out = np.array([x, y, 0.0]) / max(math.hypot(x, y), 1e-6)
        centre = np.array([x, y, 0.0004]) + (abs(u @ out) + abs(v @ out)) * out
        scene[key] = {"type": "rectangle", "to_world": _frame(mi, centre, u, v, np.array([0.0, 0.0, 1.0])),
                      "bsdf": {"type": "roughplastic", "alpha": 0.3,
                               "diffuse_reflectance": {"type": "bitmap", "bitmap": mi.Bitmap(_card_print()), "raw": True}}}


@functools.lru_cache(maxsize=1)
def _card_print() -> np.ndarray:
    """A playing card's face (linear RGB): white, a dark border line, a few dark spots and a letter."""
    from rig.twin.optics import to_linear

    img = np.full((176, 126, 3), 236, np.uint8)
    cv2.rectangle(img, (8, 8), (117, 167), (40, 40, 40), 2)
    for cx, cy in ((30, 40), (96, 136), (63, 88)):
        cv2.circle(img, (cx, cy), 9, (30, 30, 160), -1, cv2.LINE_AA)
    cv2.putText(img, "K", (14, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (20, 20, 20), 2, cv2.LINE_AA)
    return to_linear(img)


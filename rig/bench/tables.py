"""Unseen tables: a second scene generator, independent of :mod:`rig.vision.render`.

The virtual table (``render.py``) is the code family the reader was tuned on. This module
draws *other* tables from scratch, the way a new user's table may look, to check that
calibration and reading generalise: a dark or light box bottom (plain, printed, felt, or a
real wood / tray texture cut at run time from photographs in a data folder), a rim wall of
another shade around it, violet dice of another shade whose side walls show towards the
edges of the view (perspective from a camera over the optical centre), frog icons drawn as
shapes (body, head, legs, eyes, a dark outline) covering 45-65 % of a face, dice 30-120 px,
camera tilt of a few degrees, a lamp gradient with glare, defocus, motion blur, noise, JPEG.

Nothing here is shared with ``render.py``; the real photographs are only read (never copied
into the repository). A :class:`Table` is drawn from a seed; :meth:`Table.ritual` gives the
calibration frames and :meth:`Table.turn` a random turn, both under an optional light
*drift* (exposure factor, white-balance step) applied before the sensor.

>>> t = Table.random(3, data=None)
>>> frame, truth = t.turn(0)
>>> frame.dtype, frame.shape[2], all(d.face for d in truth)
(dtype('uint8'), 3, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

FACES = ("blue", "pink", "yellow", "blank", "pink+blue", "yellow+pink", "blue+yellow")
#: the light drifts the benchmark applies after calibration: name -> (exposure factor, warm step)
DRIFTS = {"same": (1.0, 0.0), "exp x0.7": (0.7, 0.0), "exp x0.8": (0.8, 0.0), "exp x1.2": (1.2, 0.0),
          "exp x1.3": (1.3, 0.0), "wb warmer": (1.0, 0.5), "wb cooler": (1.0, -0.5)}
#: one white-balance "step": red gain up and blue gain down by this factor (half a step: its square root)
WB_STEP = 1.3

_TEXTURE_CACHE: dict = {}


@dataclass(frozen=True)
class TrueDie:
    """A die as the frame shows it (this generator shares no code with rig.vision, by design)."""

    face: str
    x: float
    y: float
    cocked: bool = False


@dataclass
class Table:
    """One unseen table: everything fixed between frames (floor, box, dice print, lamp, camera)."""

    seed: int
    size: tuple[int, int]
    die: float  # die side in px at the optical centre
    floor_rect: tuple[int, int, int, int]  # x0, y0, x1, y1 of the box floor (before tilt)
    floor: np.ndarray  # H x W x 3 float32 albedo of the whole view (table, rim wall, floor)
    body: tuple[float, float, float]
    frog: dict
    outline: float  # frog outline thickness in die sides
    outline_bgr: tuple[float, float, float]
    share: float  # frog area / face area
    wall_shade: float  # side walls of the dice, relative to the top
    height: float  # perspective: die height / (camera height - die height)
    light: np.ndarray  # H x W float32 lamp field
    glare: np.ndarray  # H x W x 3 float32 additive glare
    wb: tuple[float, float, float]
    exposure: float
    tilt: np.ndarray  # 3x3 homography
    blur: float
    motion: float
    noise: float
    jpeg: int
    shadow: tuple[float, float, float]  # dx, dy (die sides), strength
    texture: str = "plain"
    notes: dict = field(default_factory=dict)

    # ------------------------------------------------------------------ drawing a table
    @classmethod
    def random(cls, seed: int, *, data: Path | None = None) -> Table:
        rng = np.random.default_rng([7919, seed])
        die = float(rng.uniform(30, 120))
        size = (640, 480) if die < 66 else (1280, 960)
        w, h = size
        # floor: leaves room for six dice spread out; rim wall band around it, the table beyond
        mx = int(w * rng.uniform(0.03, 0.09))
        my = int(h * rng.uniform(0.03, 0.09))
        rim = max(4, int(w * rng.uniform(0.02, 0.05)))
        floor_rect = (mx + rim, my + rim, w - mx - rim, h - my - rim)
        kinds = ["plain", "printed", "felt", "wood", "tray"]
        kind = str(rng.choice(kinds))
        tone = rng.uniform(35, 120)  # the box bottom's brightness: dark print to mid grey
        tint = rng.normal(0, 0.12, 3)
        base = np.clip(tone * (1 + tint), 12, 200).astype(np.float32)
        albedo = _floor_texture(kind, (h, w), base, rng, data)
        if kind in ("wood", "tray") and albedo is None:
            kind = "felt"
            albedo = _floor_texture(kind, (h, w), base, rng, data)
        full = np.empty((h, w, 3), np.float32)
        outside = np.clip(rng.uniform(40, 180) * (1 + rng.normal(0, 0.15, 3)), 10, 230)
        full[:] = outside
        x0, y0, x1, y1 = floor_rect
        rim_tone = np.clip(base * rng.uniform(1.25, 2.2) + rng.uniform(0, 30), 20, 235)
        # the box's inner walls as four trapezoids of different shade (the lamp hits them unevenly)
        ox0, oy0, ox1, oy1 = mx, my, w - mx, h - my
        sides = [((ox0, oy0), (ox1, oy0), (x1, y0), (x0, y0)), ((ox1, oy0), (ox1, oy1), (x1, y1), (x1, y0)),
                 ((ox1, oy1), (ox0, oy1), (x0, y1), (x1, y1)), ((ox0, oy1), (ox0, oy0), (x0, y0), (x0, y1))]
        for quad in sides:
            shade = rim_tone * rng.uniform(0.8, 1.1)
            cv2.fillPoly(full, [np.array(quad, np.int32)], tuple(float(v) for v in shade))
        full[y0:y1, x0:x1] = albedo[y0:y1, x0:x1]
        # dice: a violet of another shade, faces of another print
        body = tuple(float(v) for v in np.clip(np.array([150, 58, 108]) * rng.uniform(0.8, 1.15)
                                               + rng.normal(0, 9, 3), 20, 230))
        frog = {"blue": np.array([215, 135, 30]), "pink": np.array([150, 85, 235]), "yellow": np.array([45, 205, 240])}
        frog = {k: tuple(float(c) for c in np.clip(v + rng.normal(0, 10, 3), 5, 250)) for k, v in frog.items()}
        # lamp: linear gradient plus an off-centre fall-off; glare spots fixed to the lamp
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = rng.uniform(-0.35, 0.35, 2)
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        fall = rng.uniform(0.0, 0.35)
        r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / (w * w * 0.5)
        light = (1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)) * (1 - fall * np.minimum(r2, 1))
        glare = np.zeros((h, w, 3), np.float32)
        for _ in range(int(rng.choice([0, 0, 1, 1, 2]))):
            sx, sy = rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h
            rad = rng.uniform(0.02, 0.06) * w
            amp = rng.uniform(40, 140)
            glare += (amp * np.exp(-((xx - sx) ** 2 + (yy - sy) ** 2) / (2 * rad * rad)))[..., None]
        wb = tuple(float(v) for v in np.exp(rng.normal(0, 0.08, 3)))
        # exposure as a user sets it: the brightest frog channel just below clipping in most of the box
        brightest = max(max(v) for v in frog.values()) * max(wb) * float(np.percentile(light, 90))
        exposure = float(rng.uniform(185, 240)) / brightest
        # camera tilt: a small rotation about the x and y axes (a homography about the centre)
        f = w * 1.1
        ax, ay = np.radians(rng.uniform(-4, 4, 2))
        K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
        R = _rot(ax, ay)
        tilt = K @ R @ np.linalg.inv(K)
        return cls(
            seed=seed, size=size, die=die, floor_rect=floor_rect, floor=full, body=body, frog=frog,
            outline=float(rng.uniform(0.0, 0.05)), outline_bgr=tuple(float(v) for v in rng.uniform(10, 45, 3)),
            share=float(rng.uniform(0.45, 0.65)), wall_shade=float(rng.uniform(0.4, 0.8)),
            height=float(rng.uniform(0.03, 0.06)), light=light.astype(np.float32), glare=glare, wb=wb,
            exposure=exposure, tilt=tilt, blur=float(rng.uniform(0.0, 1.0)) * die / 50,
            motion=float(rng.choice([0, 0, rng.uniform(1, 4)])), noise=float(rng.uniform(1.0, 4.0)),
            jpeg=int(rng.integers(65, 96)), shadow=(*rng.uniform(-0.2, 0.2, 2), rng.uniform(0.15, 0.45)),
            texture=kind,
        )

    def __repr__(self) -> str:
        w, h = self.size
        return (f"<Table {self.seed}: {w}x{h} die {self.die:.0f}px floor {self.texture} "
                f"frog {self.share:.0%} tilt/blur/noise/jpeg {self.blur:.1f}/{self.noise:.1f}/{self.jpeg}>")

    # ------------------------------------------------------------------ frames
    def ritual(self, drift: tuple[float, float] = (1.0, 0.0)) -> tuple[dict, np.ndarray]:
        """The calibration ritual (six dice per face, spread apart) and the empty box."""
        frames = {}
        for i, face in enumerate(("blue", "pink", "yellow", "blank")):
            rng = np.random.default_rng([self.seed, 11, i])
            dice = self._place(rng, [face] * 6, spread=True, cocked=0.0)
            frames[face] = self.draw(dice, rng, drift)
        rng = np.random.default_rng([self.seed, 12])
        return frames, self.draw([], rng, drift)

    def turn(self, k: int, drift: tuple[float, float] = (1.0, 0.0), *, cocked: float = 0.05):
        """A random turn: 0-6 dice (mostly 6) with random faces; returns (frame, truth)."""
        rng = np.random.default_rng([self.seed, 13, k])
        n = 6 if rng.random() < 0.75 else int(rng.integers(1, 6))
        faces = [str(rng.choice(FACES)) for _ in range(n)]
        for combo in ("pink+blue", "yellow+pink", "blue+yellow"):  # two dice carry each combo face
            while faces.count(combo) > 2:
                faces[faces.index(combo)] = "blank"
        dice = self._place(rng, faces, spread=False, cocked=cocked)
        frame = self.draw(dice, rng, drift)
        return frame, [TrueDie(d["face"], *self._to_view(d["x"], d["y"]), d["cocked"]) for d in dice]

    def _place(self, rng, faces, *, spread: bool, cocked: float) -> list[dict]:
        """Dice at random places on the floor, apart from each other (``spread``: well apart, as
        the ritual asks — the gap shrinks until all of them fit)."""
        x0, y0, x1, y1 = self.floor_rect
        s = self.die
        gap = s * (0.9 if spread else 0.15)
        for _ in range(6):
            out: list[dict] = []
            for face in faces:
                for _ in range(400):
                    x, y = rng.uniform(x0 + 0.8 * s, x1 - 0.8 * s), rng.uniform(y0 + 0.8 * s, y1 - 0.8 * s)
                    if all(math.hypot(x - d["x"], y - d["y"]) > 1.45 * s + gap for d in out):
                        break
                else:
                    continue
                out.append({"face": face, "x": x, "y": y, "angle": float(rng.uniform(0, 90)),
                            "cocked": bool(rng.random() < cocked), "flip": float(rng.uniform(0, 1))})
            if len(out) == len(faces) or not spread:
                return out
            gap *= 0.6
        return out

    def _to_view(self, x: float, y: float) -> tuple[float, float]:
        p = self.tilt @ np.array([x, y, 1.0])
        return float(p[0] / p[2]), float(p[1] / p[2])

    def draw(self, dice: list[dict], rng: np.random.Generator, drift=(1.0, 0.0)) -> np.ndarray:
        w, h = self.size
        img = self.floor.copy()
        shade = np.ones((h, w), np.float32)
        s = self.die
        cx, cy = w / 2, h / 2
        for d in dice:  # soft shadows first
            dx, dy, strength = self.shadow
            c = (d["x"] + dx * s, d["y"] + dy * s)
            cv2.circle(shade, (int(c[0]), int(c[1])), int(0.62 * s), 1 - strength, -1, cv2.LINE_AA)
        k = int(s * 0.25) | 1
        shade = cv2.GaussianBlur(shade, (k, k), 0)
        img *= shade[..., None]
        for d in dice:
            self._die(img, d, (cx, cy))
        warm = WB_STEP ** drift[1]
        gains = np.array([self.wb[0] / warm, self.wb[1], self.wb[2] * warm], np.float32) * self.exposure * drift[0]
        img = cv2.multiply(img, self._lit(gains))
        if self.glare.any():  # the lamp's reflection is the lamp's light: it drifts in brightness and colour with it
            img = img + self.glare * (np.array([1 / warm, 1.0, warm], np.float32) * float(drift[0]))
        img = cv2.warpPerspective(img, self.tilt, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if self.blur > 0.3:
            img = cv2.GaussianBlur(img, (0, 0), self.blur)
        if self.motion >= 1:
            n = int(round(self.motion)) * 2 + 1
            kern = np.zeros((n, n), np.float32)
            a = rng.uniform(0, np.pi)
            c = n // 2
            cv2.line(kern, (int(c - np.cos(a) * c), int(c - np.sin(a) * c)),
                     (int(c + np.cos(a) * c), int(c + np.sin(a) * c)), 1.0, 1)
            img = cv2.filter2D(img, -1, kern / kern.sum())
        # sensor noise: a field drawn once per table, shifted per frame (drawing it afresh costs more than the rest)
        noise = self._noise()
        dy, dx = int(rng.integers(0, h)), int(rng.integers(0, w))
        noise = np.roll(noise, (dy, dx), axis=(0, 1))
        out = cv2.scaleAdd(noise, float(self.noise), img)
        out = np.clip(out, 0, 255).astype(np.uint8)
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg])
        return cv2.imdecode(enc, cv2.IMREAD_COLOR)

    def _lit(self, gains: np.ndarray) -> np.ndarray:
        key = tuple(np.round(gains, 5))
        hit = self.notes.get("lit")
        if hit is None or hit[0] != key:
            hit = self.notes["lit"] = (key, (self.light[..., None] * gains).astype(np.float32))
        return hit[1]

    def _noise(self) -> np.ndarray:
        if "noise" not in self.notes:
            rng = np.random.default_rng([self.seed, 99])
            self.notes["noise"] = rng.standard_normal((*self.size[::-1], 3), np.float32)
        return self.notes["noise"]

    def _die(self, img: np.ndarray, d: dict, centre: tuple[float, float]) -> None:
        s = self.die
        body = np.array(self.body, np.float32)
        ang = math.radians(d["angle"])
        base = np.array([d["x"], d["y"]])
        off = (base - np.array(centre)) * self.height  # the top stands out from the optical centre
        top_c = base + off
        top_s = s * (1 + self.height)
        if d["cocked"]:  # leaning on something: the top is foreshortened, one side face shows wide
            lean = 0.55 + 0.3 * d["flip"]
            top = _square(top_c, top_s, ang, squash=lean)
            side_dir = np.array([math.cos(ang), math.sin(ang)]) * top_s * (1 - lean + 0.25)
            foot = _square(top_c - side_dir, top_s, ang, squash=0.4)
            hull = cv2.convexHull(np.vstack([top, foot]).astype(np.float32))
            _fill(img, hull, body * self.wall_shade * 0.85)
        else:
            top = _square(top_c, top_s, ang)
            foot = _square(base, s, ang)
            hull = cv2.convexHull(np.vstack([top, foot]).astype(np.float32))
            _fill(img, hull, body * self.wall_shade)
        # the top face: rounded edges darker, then the face
        _fill(img, _rounded(top, 0.18), body * 0.62)
        inner = top_c + (top - top_c) * 0.9
        _fill(img, _rounded(inner, 0.14), body)
        face = d["face"]
        if face != "blank":
            self._frog(img, face, top_c, top_s * (np.linalg.norm(top[1] - top[0]) / top_s), ang,
                       lean=1.0 if not d["cocked"] else 0.55 + 0.3 * d["flip"], flip=d["flip"])

    def _frog(self, img, face, c, side, ang, *, lean, flip) -> None:
        """A frog icon: body, head, four legs, eyes, with a dark outline (a mask at 4x, area-averaged)."""
        n = int(math.ceil(side * 1.1)) | 1
        up = 4
        m = np.zeros((n * up, n * up), np.uint8)
        o = n * up / 2
        sc = side * up * math.sqrt(self.share / 0.5)
        def E(x, y, a, b, rot=0):
            cv2.ellipse(m, (int(o + x * sc), int(o + y * sc)), (max(1, int(a * sc)), max(1, int(b * sc))),
                        rot, 0, 360, 255, -1)
        E(0, 0.05, 0.27, 0.27)  # body
        E(0, -0.2, 0.2, 0.14)  # head
        for sx in (-1, 1):
            E(sx * 0.24, -0.04, 0.13, 0.07, sx * -35)  # arms
            E(sx * 0.22, 0.24, 0.15, 0.08, sx * 30)  # legs
        area = cv2.countNonZero(m) / (side * up) ** 2
        if area > 0:  # scale to the table's frog share, the icon staying inside the face
            ys, xs = np.nonzero(m)
            extent = max(xs.max() - xs.min(), ys.max() - ys.min()) / (side * up)
            k = min(math.sqrt(self.share / area), 0.86 / max(extent, 1e-6))
            M = cv2.getRotationMatrix2D((o, o), 0, k)
            m = cv2.warpAffine(m, M, (n * up, n * up), flags=cv2.INTER_NEAREST)
        eyes = np.zeros_like(m)
        for sx in (-1, 1):
            cv2.circle(eyes, (int(o + sx * 0.07 * sc), int(o - 0.22 * sc)), max(1, int(0.035 * sc)), 255, -1)
        ring = max(0, int(round(self.outline * side * up)))
        outer = cv2.dilate(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ring + 1, 2 * ring + 1))) if ring else m
        colours = face.split("+")
        cut = np.zeros_like(m)
        if len(colours) == 2:  # a combo frog: two halves along a line through its middle
            a = flip * np.pi
            yy, xx = np.mgrid[0 : n * up, 0 : n * up]
            cut = (((xx - o) * np.cos(a) + (yy - o) * np.sin(a)) > 0).astype(np.uint8) * 255
        layers = [(outer, self.outline_bgr), (m & ~cut, self.frog[colours[0]])]
        if len(colours) == 2:
            layers.append((m & cut, self.frog[colours[1]]))
        layers.append((eyes & m, self.outline_bgr))
        R = cv2.getRotationMatrix2D((n / 2, n / 2), -math.degrees(ang), 1.0)
        R[1] *= 1.0
        S = np.array([[1, 0, 0], [0, lean, n / 2 * (1 - lean)]], np.float64)  # foreshortened when leaning
        A = np.vstack([R, [0, 0, 1]]) @ np.vstack([S, [0, 0, 1]])
        x0, y0 = int(round(c[0] - n / 2)), int(round(c[1] - n / 2))
        H, W = img.shape[:2]
        if x0 < 0 or y0 < 0 or x0 + n > W or y0 + n > H:
            return
        roi = img[y0 : y0 + n, x0 : x0 + n]
        for mask, colour in layers:
            if not mask.any():
                continue
            small = cv2.resize(mask, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
            small = cv2.warpAffine(small, A[:2], (n, n), flags=cv2.INTER_LINEAR)
            roi += (np.array(colour, np.float32) - roi) * small[..., None]


def _rot(ax: float, ay: float) -> np.ndarray:
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    return rx @ ry


def _square(c, side: float, ang: float, squash: float = 1.0) -> np.ndarray:
    u = np.array([math.cos(ang), math.sin(ang)]) * side / 2
    v = np.array([-math.sin(ang), math.cos(ang)]) * side / 2 * squash
    c = np.asarray(c, float)
    return np.array([c - u - v, c + u - v, c + u + v, c - u + v])


def _rounded(quad: np.ndarray, r: float) -> np.ndarray:
    """A quad with its corners cut (an octagon close to a rounded square)."""
    pts = []
    for i in range(4):
        p, q, prev = quad[i], quad[(i + 1) % 4], quad[i - 1]
        pts += [p + (prev - p) * r * 0.5 + (q - p) * 0.0, p + (q - p) * r * 0.5]
    return np.array(pts)


def _fill(img: np.ndarray, poly, colour) -> None:
    pts = np.round(np.asarray(poly, np.float64).reshape(-1, 2) * 16).astype(np.int32)
    cv2.fillPoly(img, [pts], tuple(float(v) for v in colour), cv2.LINE_AA, shift=4)


def _floor_texture(kind: str, shape, base: np.ndarray, rng, data: Path | None) -> np.ndarray | None:
    h, w = shape
    if kind == "plain":
        return np.broadcast_to(base, (h, w, 3)).astype(np.float32)
    if kind == "printed":  # a printed box bottom: soft craters and specks in two tones
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        for _ in range(int(rng.integers(8, 30))):
            c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            r = int(rng.uniform(0.02, 0.12) * w)
            k = rng.uniform(0.75, 1.3)
            cv2.circle(img, c, r, tuple(float(v) for v in base * k), -1, cv2.LINE_AA)
            cv2.circle(img, c, r, tuple(float(v) for v in base * k * 0.85), max(1, r // 8), cv2.LINE_AA)
        return cv2.GaussianBlur(img, (0, 0), 1.5)
    if kind == "felt":  # fine fibrous noise
        n = rng.normal(0, 1, (h, w)).astype(np.float32)
        n = cv2.GaussianBlur(n, (0, 0), 1.2) * 0.6 + cv2.GaussianBlur(n, (0, 0), 6) * 2.0
        return (base[None, None, :] * (1 + 0.06 * n[..., None])).astype(np.float32)
    patch = photo_patch(kind, rng, data)
    if patch is None:
        return None
    patch = cv2.resize(patch, (w, h), interpolation=cv2.INTER_CUBIC).astype(np.float32)
    mean = patch.reshape(-1, 3).mean(axis=0)
    return (patch / np.maximum(mean, 1) * base).astype(np.float32)  # the photo's texture at the table's tone


def photo_patch(kind: str, rng, data: Path | None) -> np.ndarray | None:
    """A dice-free rectangle cut from a photograph: wood (pip-dice photos) or a tray (coloured dice)."""
    if data is None:
        return None
    folder = Path(data) / ("real-pip-dice" if kind == "wood" else "real-colour-dice")
    files = _TEXTURE_CACHE.get(folder)
    if files is None:
        files = _TEXTURE_CACHE[folder] = sorted(folder.glob("*.jpg")) if folder.is_dir() else []
    for _ in range(30):
        if not files:
            return None
        path = files[int(rng.integers(len(files)))]
        img = cv2.imread(str(path))
        label = path.with_suffix(".txt")
        if img is None or not label.exists():
            continue
        H, W = img.shape[:2]
        taken = np.zeros((H, W), np.uint8)
        for line in label.read_text().splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            _, cx, cy, bw, bh = (float(v) for v in parts)
            m = 0.6
            cv2.rectangle(taken, (int((cx - bw / 2 - m * bw) * W), int((cy - bh / 2 - m * bh) * H)),
                          (int((cx + bw / 2 + m * bw) * W), int((cy + bh / 2 + m * bh) * H)), 1, -1)
        for _ in range(40):
            pw, ph = int(rng.uniform(0.2, 0.4) * W), int(rng.uniform(0.15, 0.3) * H)
            x, y = int(rng.uniform(0, W - pw)), int(rng.uniform(0, H - ph))
            if not taken[y : y + ph, x : x + pw].any():
                return img[y : y + ph, x : x + pw]
    return None

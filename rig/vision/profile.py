"""The calibration profile: colour models, die size, reader thresholds, camera settings (TOML).

Colours are Gaussian models in OpenCV's 8-bit Lab (L, a, b all 0..255). A profile is made by
:func:`rig.vision.calibrate.fit_profile` and read by the dice and card readers; the camera
adapters lock exposure, gain and white balance to ``exposure_us``, ``analogue_gain`` and
``colour_gains`` (red, blue).

>>> m = ColourModel.fit([[100, 150, 90], [104, 152, 88], [98, 149, 91], [101, 151, 92]])
>>> [round(v) for v in m.mean]
[101, 150, 90]
"""

from __future__ import annotations

import dataclasses
import math
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from rig.vision.errors import ProfileError

FORMAT = 3  # 3: [floor] (the empty box as a cell grid: per-frame light correction); 2: censor_level, ambiguity
# older formats still load: without a floor grid each frame is evened against its own floor, as before
COLOURS = ("blue", "pink", "yellow")
#: the set of colour dice the profile calibrates: its faces (a colour, blank, or two colours), how many
#: dice the box holds and how many of them carry each two-colour face (the game's rules say the same,
#: and the game's tests check them against each other)
FACE_NAMES = ("blue", "pink", "yellow", "blank", "pink+blue", "yellow+pink", "blue+yellow")
DICE_IN_SET = 6
DICE_PER_COMBO = 2


@dataclass(frozen=True)
class ColourModel:
    """A Gaussian colour in Lab: mean and 3x3 covariance."""

    mean: tuple[float, float, float]
    cov: tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

    @classmethod
    def fit(cls, samples, *, floor: float = 9.0, l_floor: float = 64.0, trim: float = 0.0) -> ColourModel:
        """Fit to Lab samples (N x 3); ``floor`` is the least variance of a and b, ``l_floor`` of L
        (light varies more than hue), ``trim`` drops that fraction of the farthest samples and
        refits (outliers: edges, glare)."""
        import numpy as np

        floor = np.diag([l_floor, floor, floor])
        x = np.asarray(samples, np.float64).reshape(-1, 3)
        if len(x) < 3:
            raise ProfileError("too few pixels to fit a colour model")
        for _ in range(2 if trim else 1):
            mean = x.mean(axis=0)
            cov = np.cov(x.T) + floor
            if trim:
                d = np.einsum("ij,jk,ik->i", x - mean, np.linalg.inv(cov), x - mean)
                x = x[d <= np.quantile(d, 1.0 - trim)]
                trim = 0.0
        mean = x.mean(axis=0)
        cov = np.cov(x.T) + floor
        return cls(tuple(float(v) for v in mean), tuple(tuple(float(v) for v in row) for row in cov))

    def separation(self, other: ColourModel) -> float:
        """Mahalanobis distance between the means under the pooled covariance (≥ ~4: well apart)."""
        import numpy as np

        d = np.subtract(self.mean, other.mean)
        pooled = (np.array(self.cov) + np.array(other.cov)) / 2
        return float(math.sqrt(d @ np.linalg.solve(pooled, d)))

    def __repr__(self) -> str:
        sd = [math.sqrt(self.cov[i][i]) for i in range(3)]
        return "ColourModel(Lab=({:.0f}, {:.0f}, {:.0f}), sd=({:.1f}, {:.1f}, {:.1f}))".format(*self.mean, *sd)


@dataclass(frozen=True)
class Thresholds:
    """The dice/card readers' decision thresholds (all in the profile, none in code)."""

    class_distance: float = 4.5  # Mahalanobis; a pixel farther than this from every class is unknown
    colour_present: float = 0.07  # fraction of a die's top face: at least this much colour = a frog of it
    colour_absent: float = 0.03  # at most this much = no frog of it; in between = uncertain
    single_share: tuple[float, float] = (0.75, 1.3)  # a one-colour frog's share, in calibrated frog sizes
    combo_share: tuple[float, float] = (0.3, 0.7)  # each half of a two-colour frog, likewise
    cocked_aspect: float = 0.84  # top face narrower than this (short/long side) = leaning die
    flank_area: float = 0.6  # shaded die body around a die (in die sides squared) above which it leans
    flank_moment: float = 0.1  # ... or that much of it lopsided to one side (die sides cubed)
    fragment_area: float = 0.1  # die-coloured specks smaller than this (in die tops) are ignored, larger flagged
    die_area_min: float = 0.6  # top face area, in expected top faces, below which a die is partly hidden
    die_area_max: float = 1.45  # above: two dice touching (split) or something else
    unknown_max: float = 0.22  # unknown/clipped pixels on a die, as a fraction of its top face
    shade_area: float = 0.45  # a blob of die body in shade this big (in die top faces) = a die we cannot read
    foreign_area: float = 0.4  # an unknown blob this big (in die top faces) = hand or object in view
    card_area: float = 4.0  # a one-colour blob this big (in die top faces) = a card
    clip_level: int = 250  # a channel at or above this is clipped (overexposed)
    glare_min: int = 255  # a die-coloured pixel whose darkest channel exceeds this is glare
    glare_flag: int = 128  # a die where the profile's fixed glare is this strong (grey levels) is uncertain
    censor_level: int = 244  # under known glare, a channel this bright is clipped: only a lower bound after removal
    ambiguity: float = 4.0  # ... and die colours scoring within this (-2 log likelihood) of each other: unreadable
    glare_pink: int = 10  # ... a die's unreadable pixel this much redder than its own body (90th pct) is pink frog
    work_die_px: float = 26.0  # dice are read at a scale where a die is about this many px wide


@dataclass(frozen=True)
class Profile:
    """Everything the readers need about one table under one lighting."""

    name: str
    frame_size: tuple[int, int]
    die_side: float  # die side as a fraction of the frame width
    top_area: float  # die top-face pixels (body + frog colours) / die_side**2
    background: tuple[ColourModel, ...]
    body: ColourModel
    edge: ColourModel  # the die body in shade: bevels, a leaning die's side
    blue: ColourModel
    pink: ColourModel
    yellow: ColourModel
    frog_fraction: dict = field(default_factory=dict)  # colour -> fraction of the top face a frog covers
    # what perspective shows of flat dice's side walls at offset r from the centre: shaded flank a0 + a1 r,
    # its moment k (rx, ry), and the top's aspect lowered by squash r
    walls: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)  # and (fifth) how far flat ritual dice's moments stray from k r
    thresholds: Thresholds = field(default_factory=Thresholds)
    exposure_us: int | None = None
    analogue_gain: float | None = None
    colour_gains: tuple[float, float] | None = None  # (red, blue), as libcamera's ColourGains
    lens_position: float | None = None  # libcamera's LensPosition (dioptres) calibration focused at
    separation: dict = field(default_factory=dict)  # "blue/pink" -> separation, from calibration
    created: str = ""
    glare: object = None  # fixed lamp reflections seen in the empty box: rows x cols x BGR grey levels, or None
    floor: object = None  # the empty box bottom, 12 x 16 cells of B, G, R (glare taken off), or None
    floor_cells: object = None  # which of those cells are box floor (12 x 16 bools)
    floor_lamp: object = None  # the lamp's relative brightness on that grid, from the dice bodies (or None)
    spots: object = None  # where the empty box itself shows die colours: rows x cols bools, or None
    sheen: object = None  # where the lamp's mirror image paled a ritual die's top, read wrong: rows x cols bools, or None
    prints: object = None  # where the reader reads the empty box itself as a die in shade: rows x cols bools, or None
    shade: object = None  # deep shade in the empty box (walls): rows x cols x BGR per cent of the open floor's light, or None
    format: int = FORMAT

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def colour(self, name: str) -> ColourModel:
        return getattr(self, name)

    def die_px(self, width: int) -> float:
        return self.die_side * width

    def __repr__(self) -> str:
        w, h = self.frame_size
        return f"<Profile {self.name!r} {w}x{h} die {self.die_side * w:.0f}px format {self.format}>"

    # ------------------------------------------------------------------ TOML

    @classmethod
    def load(cls, path: str | Path) -> Profile:
        from rig.textfile import read_text_limited

        path = Path(path)
        if not os.path.lexists(path):
            raise ProfileError(f"profile not found: {path} (make one with `rig calibrate`)")
        text = read_text_limited(path, what="calibration profile", error=ProfileError)
        return cls.parse(text, source=str(path))

    @classmethod
    def parse(cls, text: str, *, source: str = "<profile>") -> Profile:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ProfileError(f"profile {source} is not valid TOML: {exc}") from None
        fmt = data.get("format")
        if not isinstance(fmt, int):
            raise ProfileError(f"profile {source} has no integer 'format' key; is it a calibration profile?")
        if fmt > FORMAT:
            raise ProfileError(
                f"profile {source} has format {fmt}, newer than this rig reads ({FORMAT}); update the rig"
                " or recalibrate with this version"
            )
        try:
            return cls._from_dict(data)
        except KeyError as exc:
            raise ProfileError(f"profile {source}: missing key {exc.args[0]!r}") from None
        except (TypeError, ValueError, IndexError) as exc:
            raise ProfileError(f"profile {source}: bad value ({exc})") from None

    @classmethod
    def _from_dict(cls, d: dict) -> Profile:
        def model(m: dict) -> ColourModel:
            mean = tuple(float(v) for v in m["mean"])
            cov = tuple(tuple(float(v) for v in row) for row in m["cov"])
            if len(mean) != 3 or len(cov) != 3 or any(len(r) != 3 for r in cov):
                raise ValueError("a colour model needs a 3-vector mean and a 3x3 cov")
            return ColourModel(mean, cov)

        colours = d["colours"]
        cam = d.get("camera", {})
        known = {f.name for f in dataclasses.fields(Thresholds)}
        extra = set(d.get("thresholds", {})) - known
        if extra:
            raise ValueError(f"unknown threshold(s) {', '.join(sorted(extra))}")
        gains = cam.get("colour_gains")
        return cls(
            name=str(d.get("name", "")),
            frame_size=(int(d["frame"]["width"]), int(d["frame"]["height"])),
            die_side=float(d["die"]["side"]),
            top_area=float(d["die"]["top_area"]),
            background=tuple(model(m) for m in d["background"]),
            body=model(colours["body"]),
            edge=model(colours["edge"]),
            blue=model(colours["blue"]),
            pink=model(colours["pink"]),
            yellow=model(colours["yellow"]),
            frog_fraction={k: float(v) for k, v in d.get("die", {}).get("frog_fraction", {}).items()},
            walls=_walls(d["die"].get("walls", (0.0, 0.0, 0.0, 0.0))),
            thresholds=Thresholds(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.get("thresholds", {}).items()}),
            exposure_us=int(cam["exposure_us"]) if "exposure_us" in cam else None,
            analogue_gain=float(cam["analogue_gain"]) if "analogue_gain" in cam else None,
            colour_gains=(float(gains[0]), float(gains[1])) if gains else None,
            lens_position=float(cam["lens_position"]) if "lens_position" in cam else None,
            separation={k: float(v) for k, v in d.get("separation", {}).items()},
            created=str(d.get("created", "")),
            glare=_glare(d["glare"]["bgr"]) if "glare" in d else None,
            floor=_floor(d["floor"]["bgr"]) if "floor" in d else None,
            floor_cells=_cells(d["floor"]["cells"]) if "floor" in d else None,
            floor_lamp=_lamp(d["floor"]["lamp"]) if "lamp" in d.get("floor", {}) else None,
            shade=_shade(d["shade"]["light"]) if "shade" in d else None,
            spots=_grid(d["spots"]["cells"], "spots") if "spots" in d else None,
            sheen=_grid(d["sheen"]["cells"], "sheen") if "sheen" in d else None,
            prints=_grid(d["prints"]["cells"], "prints") if "prints" in d else None,
            format=int(d["format"]),
        )

    def to_toml(self) -> str:
        def num(v: float) -> str:
            return repr(round(float(v), 6))

        def arr(vs) -> str:
            return "[" + ", ".join(num(v) for v in vs) + "]"

        def model(name: str, m: ColourModel) -> list[str]:
            return [f"[{name}]", f"mean = {arr(m.mean)}", "cov = [" + ", ".join(arr(r) for r in m.cov) + "]", ""]

        w, h = self.frame_size
        lines = [
            "# rig calibration profile: colour models in OpenCV 8-bit Lab (L, a, b in 0..255)",
            f"format = {FORMAT}",
            f"name = {_q(self.name)}",
            f"created = {_q(self.created)}",
            "",
            "[frame]",
            f"width = {w}",
            f"height = {h}",
            "",
            "[die]",
            f"side = {num(self.die_side)}  # fraction of the frame width",
            f"top_area = {num(self.top_area)}  # top-face pixels / side^2",
            "frog_fraction = { " + ", ".join(f"{k} = {num(v)}" for k, v in self.frog_fraction.items()) + " }",
            f"walls = {arr(self.walls)}  # perspective: flank a0 + a1 r, its moment k r, aspect - squash r, moment spread",
            "",
            "[camera]",
        ]
        if self.exposure_us is not None:
            lines.append(f"exposure_us = {int(self.exposure_us)}")
        if self.analogue_gain is not None:
            lines.append(f"analogue_gain = {num(self.analogue_gain)}")
        if self.colour_gains is not None:
            lines.append(f"colour_gains = {arr(self.colour_gains)}  # red, blue")
        if self.lens_position is not None:
            lines.append(f"lens_position = {num(self.lens_position)}  # dioptres (1 / metres), Camera Module 3")
        lines += ["", "[thresholds]"]
        for f in dataclasses.fields(Thresholds):
            v = getattr(self.thresholds, f.name)
            lines.append(f"{f.name} = {arr(v) if isinstance(v, tuple) else v if isinstance(v, int) else num(v)}")
        lines += ["", "[separation]  # Mahalanobis distance between class means (calibration report)"]
        lines += [f"{_q(k)} = {num(v)}" for k, v in self.separation.items()]
        lines.append("")
        for name in ("body", "edge", *COLOURS):
            lines += model(f"colours.{name}", getattr(self, name))
        if self.glare is not None:
            lines += ["[glare]  # fixed lamp reflections (additive B, G, R grey levels) on a coarse grid over the frame",
                      "bgr = ["]
            lines += ["  [" + ", ".join("[" + ", ".join(str(int(v)) for v in px) + "]" for px in row) + "],"
                      for row in self.glare]
            lines += ["]", ""]
        if self.floor is not None:
            lines += ["[floor]  # the empty box bottom on a 12 x 16 grid: B, G, R per cell, and which cells are floor",
                      "cells = ["]
            lines += [f'  "{"".join("1" if v else "0" for v in row)}",' for row in self.floor_cells]
            if self.floor_lamp is not None:
                lines += ["]", "lamp = ["]
                lines += ["  [" + ", ".join(f"{float(v):.3f}" for v in row) + "]," for row in self.floor_lamp]
            lines += ["]", "bgr = ["]
            lines += ["  [" + ", ".join("[" + ", ".join(f"{float(v):.1f}" for v in px) + "]" for px in row) + "],"
                      for row in self.floor]
            lines += ["]", ""]
        if self.shade is not None:
            lines += ["[shade]  # deep shade in the empty box (a wall's shadow): per cent of the open floor's light",
                      "light = ["]
            lines += ["  [" + ", ".join("[" + ", ".join(str(int(v)) for v in px) + "]" for px in row) + "],"
                      for row in self.shade]
            lines += ["]", ""]
        for table, grid, said in (("spots", self.spots, "where the empty box itself shows die colours (print, things "
                                   "beyond the box)"),
                                  ("sheen", self.sheen, "where the lamp's mirror image paled a ritual die's top (dice "
                                   "read unsure there: asked)"),
                                  ("prints", self.prints, "where the empty box itself reads as a die in shade (the box's "
                                   "print: no die in shade taken there)")):
            if grid is not None:
                lines += [f"[{table}]  # {said}", "cells = ["]
                lines += [f'  "{"".join("1" if v else "0" for v in row)}",' for row in grid]
                lines += ["]", ""]
        for m in self.background:
            lines += ["[[background]]", f"mean = {arr(m.mean)}", "cov = [" + ", ".join(arr(r) for r in m.cov) + "]", ""]
        return "\n".join(lines)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(self.to_toml(), encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            raise ProfileError(f"cannot write profile {path}: {exc}") from None
        return path


def _glare(rows) -> tuple:
    grid = tuple(tuple(tuple(int(v) for v in px) for px in row) for row in rows)
    if not grid or any(len(row) != len(grid[0]) or any(len(px) != 3 for px in row) for row in grid):
        raise ValueError("glare.bgr must be rows of equal length of [B, G, R] triplets")
    return grid


def _shade(rows) -> tuple:
    grid = tuple(tuple(tuple(int(v) for v in px) for px in row) for row in rows)
    if not grid or any(len(row) != len(grid[0]) or any(len(px) != 3 or not 1 <= min(px) <= max(px) <= 100
                                                        for px in row) for row in grid):
        raise ValueError("shade.light must be rows of equal length of [B, G, R] per-cent values 1..100")
    return grid


def _grid(rows, table: str) -> tuple:
    """A ``[table]``'s ``cells``: rows of '0'/'1' of one length, as rows of bools."""
    if not rows or any(not isinstance(r, str) or len(r) != len(rows[0]) or set(r) - {"0", "1"} for r in rows):
        raise ValueError(f"{table}.cells must be strings of equal length of '0'/'1'")
    return tuple(tuple(c == "1" for c in r) for r in rows)


def _walls(v) -> tuple[float, ...]:
    out = tuple(float(x) for x in v)
    if len(out) not in (4, 5):
        raise ValueError("die.walls must be four or five numbers")
    return out


def _floor(rows) -> tuple:
    grid = tuple(tuple(tuple(float(v) for v in px) for px in row) for row in rows)
    if len(grid) != 12 or any(len(row) != 16 or any(len(px) != 3 for px in row) for row in grid):
        raise ValueError("floor.bgr must be 12 rows of 16 [B, G, R] triplets")
    return grid


def _lamp(rows) -> tuple:
    grid = tuple(tuple(float(v) for v in row) for row in rows)
    if len(grid) != 12 or any(len(row) != 16 for row in grid) or min(min(r) for r in grid) <= 0:
        raise ValueError("floor.lamp must be 12 rows of 16 positive numbers")
    return grid


def _cells(rows) -> tuple:
    if len(rows) != 12 or any(not isinstance(r, str) or len(r) != 16 or set(r) - {"0", "1"} for r in rows):
        raise ValueError("floor.cells must be 12 strings of 16 '0'/'1'")
    return tuple(tuple(c == "1" for c in r) for r in rows)


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def default_profile_path() -> Path:
    """The profile fitted on the virtual table, shipped in ``calibration/`` (simulation uses it)."""
    return Path(__file__).resolve().parents[2] / "calibration" / "virtual-table.toml"

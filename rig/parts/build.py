"""Which parts a rig needs, how many, how they print, and the poles to cut: from the config's ``[build]``.

:func:`parts_for` lists the parts (no CAD work yet); :func:`write_parts` builds each one and writes
STL, STEP (3MF on request) and a PNG preview, and a ``parts.txt`` with the counts, print settings and cut list.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from rig.config import RigConfig
from rig.parts import dims

#: the box stands with its near wall this far from the table edge the arm is clamped to (mm)
BOX_FROM_EDGE = 50.0
#: the frame's feet stand this far beside the box (from the box wall to the upright's axis, mm)
FRAME_CLEARANCE = 70.0
#: the box floor above the table top (mm)
BOX_FLOOR = 3.0

STURDY = "PETG (or PLA+), 0.2 mm layers, 5 walls, 40 % gyroid infill, no supports"
PLAIN = "PLA, 0.2 mm layers, 3 walls, 20 % infill, no supports"


@dataclass(frozen=True)
class PartSpec:
    """One part to print: its file name, what it is, how many, how to print it, and how to make it."""

    name: str
    title: str
    count: int
    settings: str
    make: Callable[[], object]
    orientation: str = ""  # how it lies on the bed
    view: tuple[float, float] = (-35.0, 28.0)  # preview azimuth, elevation


@dataclass(frozen=True)
class Cut:
    what: str
    length_mm: float
    count: int


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "seat"


class _Models:
    """:mod:`rig.parts.models` (build123d, ~2 s to import), imported at its first use."""

    def __getattr__(self, name: str):
        from rig.parts import models

        return getattr(models, name)


def parts_for(config: RigConfig) -> list[PartSpec]:
    """The parts this rig needs (camera holder, mount, a button box per button seat, beam clips, tidies)."""
    models = _Models()  # build123d is imported when a part is made, not when the list is drawn up

    b = config.build
    holder_kind = "cm3" if b.camera.startswith("cm3") else "usb"
    specs = [PartSpec("camera-holder", "Camera holder (Camera Module 3, four M2 x 10 screws and nuts)" if holder_kind == "cm3"
                      else "Camera holder (USB webcam on its 1/4\" tripod screw)", 1, PLAIN,
                      lambda: models.camera_holder(holder_kind), "as modelled: plate down, tab up")]
    if b.mount == "clamp":
        specs += [
            PartSpec("clamp", f"Table clamp (opens to {b.table_edge_mm:g} mm edges, M8 thumbscrew)", 1, STURDY,
                     lambda: models.clamp(b.table_edge_mm), "lying on its side, as modelled", (-30.0, 35.0)),
            PartSpec("arm-elbow", "Elbow: slides on the upright pole, holds the reach pole", 1, STURDY, lambda: models.elbow(),
                     "upright hole vertical"),
            PartSpec("arm-end", "Arm end with the camera's tilt fork (M4 bolt, wing nut)", 1, STURDY,
                     lambda: models.arm_end(), "block down, fork cheeks up", (-35.0, 20.0)),
        ]
    else:
        specs += [
            PartSpec("frame-foot", "Frame foot with the upright's socket", 2, STURDY, lambda: models.frame_foot(), "base down"),
            PartSpec("frame-elbow", "Frame elbow: slides on an upright, holds the crossbar", 2, STURDY, lambda: models.elbow(),
                     "upright hole vertical"),
            PartSpec("frame-tee", "Crossbar slider with the camera's tilt fork (M4 bolt, wing nut)", 1, STURDY,
                     lambda: models.arm_end(through=True), "block down, fork cheeks up", (-35.0, 20.0)),
        ]
    beams = 0
    buttons = 0
    for seat in range(config.seats):
        player = config.players[seat] if seat < len(config.players) else None
        if player is not None and player.kind == "beam":
            beams += 1
            continue
        buttons += 1
        label = f"{seat + 1} {player.name}" if player is not None else f"{seat + 1}"
        specs.append(PartSpec(f"button-box-{seat + 1}-{_slug(player.name) if player else 'seat'}",
                              f"Button box for seat {seat + 1} ({b.button_mm} mm button), label \"{label}\"", 1, PLAIN,
                              (lambda label=label: models.button_box(b.button_mm, label, wall=b.wall_mm)),
                              "top down (the button's face on the bed)", (-30.0, 25.0)))
    if buttons:
        specs.append(PartSpec("button-base", f"Button box base plate ({b.button_mm} mm box, four M3 x 10 screws)",
                              buttons, PLAIN, lambda: models.button_base(b.button_mm, wall=b.wall_mm), "flat"))
    specs.append(PartSpec("beam-clip", "Break-beam clip for the box rim (one per emitter or receiver)",
                          2 * beams, PLAIN, lambda: models.beam_clip(), "profile flat (LED hole vertical)"))
    specs.append(PartSpec("cable-tidy", "Cable tidy under the table edge (two 3 mm screws or tape)",
                          max(2, math.ceil(config.seats / 2)), PLAIN, lambda: models.cable_tidy(), "base down"))
    return specs


def cut_list(config: RigConfig) -> list[Cut]:
    """The 16 mm poles to cut, from the planned camera height and the box (see docs/building.md)."""
    from rig.parts import models

    b = config.build
    outer = dims.POLE_HOLE + 2 * models.SOCKET_WALL
    # lens below the pole's axis: the fork's bolt under the arm end, then the holder's tab
    lens_drop = outer / 2 + 22.0 - 8.0 + models.TAB_HOLE_Z
    axis = b.height_cm * 10 + BOX_FLOOR + lens_drop  # the reach pole's axis above the table top
    # at the planned height the upright would end half a socket below that axis: it is cut 30 mm longer and
    # passes through the elbow, which slides on it until the lens is where the plan wants it
    if b.mount == "clamp":
        socket_bottom = -(b.table_edge_mm + 2.0)  # the clamp's socket reaches down beside the table edge
        upright = axis - outer / 2 - socket_bottom
        upright_axis_out = models.CLAMP_BAR + outer / 2 - 1.0  # the upright's axis outside the table edge
        to_lens = upright_axis_out + BOX_FROM_EDGE + b.box[1] / 2
        reach = to_lens - outer / 2 + 34.0 - 20.0
        return [Cut("upright pole (16 mm tube or dowel)", round(upright + 30), 1),
                Cut("reach pole (16 mm tube or dowel)", round(reach), 1)]
    upright = axis - outer / 2 - 5.0  # from the foot's socket floor, 5 mm above the table
    span = b.box[0] + 2 * FRAME_CLEARANCE
    return [Cut("frame upright (16 mm tube or dowel)", round(upright + 30), 2),
            Cut("frame crossbar (16 mm tube or dowel)", round(span - outer), 1)]


def _mesh(part, tolerance: float = 0.05, angular: float = 0.3):
    import numpy as np

    vertices, triangles = part.tessellate(tolerance, angular)
    return np.array([[v.X, v.Y, v.Z] for v in vertices], dtype=float), np.array(triangles, dtype=int)


def build_part(spec: PartSpec):
    """The part's solid, lying as it prints (resting on z = 0)."""
    from rig.parts.models import on_floor

    part = spec.make()
    if spec.name in ("arm-end", "frame-tee"):
        from build123d import Rot

        part = Rot(180, 0, 0) * part  # block on the bed, the fork's cheeks standing up: no overhangs
    return on_floor(part)


def _write_3mf(mesher_class, part, path: Path) -> None:
    """Write a 3MF with build123d's Mesher (lib3mf), which switches the process to the C locale: put it back,
    or Python's default text encoding turns ASCII for the rest of the process."""
    import locale

    saved = locale.setlocale(locale.LC_ALL)
    try:
        mesher = mesher_class()
        mesher.add_shape(part, linear_deflection=0.02, angular_deflection=0.2)
        mesher.write(str(path))
    finally:
        locale.setlocale(locale.LC_ALL, saved)


@dataclass(frozen=True)
class Written:
    spec: PartSpec
    files: tuple[Path, ...]
    seconds: float
    volume_cm3: float


def write_parts(config: RigConfig, out: Path, *, png_size: int = 480, three_mf: bool = False,
                progress: Callable[[str], None] | None = None) -> tuple[list[Written], Path]:
    """Build every part and write ``NAME.stl``, ``NAME.step``, ``NAME.png`` (``NAME.3mf`` with ``three_mf``)
    and ``parts.txt``."""
    from build123d import Mesher, export_step, export_stl

    from rig.parts.render import render_mesh

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for spec in parts_for(config):
        started = time.perf_counter()
        part = build_part(spec)
        stem = out / spec.name
        files = [stem.with_suffix(".stl"), stem.with_suffix(".step")]
        export_stl(part, str(files[0]), tolerance=0.02, angular_tolerance=0.2)
        export_step(part, str(files[1]))
        if three_mf:
            _write_3mf(Mesher, part, stem.with_suffix(".3mf"))
            files.append(stem.with_suffix(".3mf"))
        vertices, faces = _mesh(part, 0.1, 0.5)
        render_mesh(vertices, faces, size=png_size, azimuth=spec.view[0], elevation=spec.view[1],
                    title=f"{spec.name} x{spec.count}").save(stem.with_suffix(".png"))
        files.append(stem.with_suffix(".png"))
        written.append(Written(spec, tuple(files), time.perf_counter() - started, part.volume / 1000))
        if progress:
            progress(f"{spec.name}: {written[-1].seconds:.1f} s")
    notes = out / "parts.txt"
    notes.write_text(parts_text(config, written), encoding="utf-8")
    return written, notes


def parts_text(config: RigConfig, written: list[Written]) -> str:
    """The list that goes beside the files: what to print, how many, how, and the poles to cut."""
    b = config.build
    lines = [f"Printed parts for a {config.seats}-seat rig: {b.mount} mount, camera {b.camera} "
             f"{b.height_cm:g} cm over a {b.box[0]:g} x {b.box[1]:g} x {b.box[2]:g} mm box, {b.button_mm} mm buttons",
             ""]
    for w in written:
        s = w.spec
        if s.count == 0:
            lines.append(f"- {s.name}: {s.title}; none needed with this config (no break-beam seats)")
            continue
        grams = w.volume_cm3 * 1.24 * 0.6  # PLA, walls and infill: roughly 60 % of the solid
        lines.append(f"- {s.name} x{s.count}: {s.title}. Print: {s.settings}; {s.orientation}. "
                     f"About {grams:.0f} g each.")
    lines += ["", "Cut list:"]
    for cut in cut_list(config):
        lines.append(f"- {cut.what}: {cut.count} x {cut.length_mm:.0f} mm")
    lines += ["", "Assembly: docs/building.md#printed-parts (the same parameters: `rig plan` for the camera)."]
    return "\n".join(lines) + "\n"

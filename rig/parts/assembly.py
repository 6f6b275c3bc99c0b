"""The clamp-mounted rig put together, for the building guide's picture: table, box, clamp, poles,
elbow, arm end and camera holder where the cut list and the plan put them.

World frame: the table top is z = 0, its edge the line x = 0 (the table towards +x), y across it.
The same numbers as :func:`rig.parts.build.cut_list`, so the picture shows what the cut list makes:
the lens ends up ``height_cm`` over the box bottom, above the box's centre.
"""

from __future__ import annotations

import numpy as np

from rig.config import RigConfig
from rig.parts import dims
from rig.parts.build import BOX_FLOOR, BOX_FROM_EDGE, cut_list

PRINTED = (64.0, 132.0, 214.0)
POLE = (190.0, 190.0, 196.0)
TABLE = (176.0, 142.0, 104.0)
BOX = (128.0, 121.0, 113.0)


def lens_position(config: RigConfig) -> tuple[float, float, float]:
    """Where the camera's lens (the holder plate's underside, at the lens opening) sits, mm."""
    return _layout(config)["lens"]


def _layout(config: RigConfig) -> dict:
    from rig.parts import models  # build123d: imported when a part is made, not with the module

    b = config.build
    outer = dims.POLE_HOLE + 2 * models.SOCKET_WALL
    t, gap = models.CLAMP_BAR, b.table_edge_mm + 2.0
    cx = -t - outer / 2 + 1.0  # the upright's axis (the clamp's socket), outside the table edge
    upright, reach = (c.length_mm for c in cut_list(config))
    socket_bottom = -gap
    axis = socket_bottom + (upright - 30) + outer / 2  # the reach pole's axis (the upright cut 30 mm long)
    reach_start = cx + outer / 2
    arm_x0 = reach_start + reach - 34.0  # the arm end's open side: the pole goes 34 mm in
    bolt = (arm_x0 + 20.0, 0.0, axis - outer / 2 - 22.0 + 8.0)
    return {"outer": outer, "t": t, "gap": gap, "cx": cx, "upright": upright, "reach": reach,
            "socket_bottom": socket_bottom, "axis": axis, "reach_start": reach_start, "arm_x0": arm_x0,
            "bolt": bolt, "lens": (bolt[0], 0.0, bolt[2] - models.TAB_HOLE_Z)}


def assembly(config: RigConfig) -> list[tuple[object, tuple[float, float, float]]]:
    """The solids of a clamp-mounted rig and their colours, placed (only ``mount = "clamp"``)."""
    from build123d import Align, Box, Cylinder, Pos, Rot

    from rig.parts import models

    b = config.build
    L = _layout(config)
    outer, t, gap, cx = L["outer"], L["t"], L["gap"], L["cx"]
    shapes = []
    table_depth = b.box[1] + 2 * BOX_FROM_EDGE + 120
    shapes.append((Pos(table_depth / 2, 0, -b.table_edge_mm / 2) * Box(table_depth, b.box[0] + 200, b.table_edge_mm),
                   TABLE))
    depth, width, wall = b.box[1], b.box[0], b.box[2]
    shell = Box(depth + 4, width + 4, wall + BOX_FLOOR) - Pos(0, 0, BOX_FLOOR) * Box(depth, width, wall + BOX_FLOOR)
    shapes.append((Pos(BOX_FROM_EDGE + depth / 2, 0, (wall + BOX_FLOOR) / 2) * shell, BOX))
    clamp = models.clamp(b.table_edge_mm)
    shapes.append((Pos(0, models.CLAMP_WIDTH / 2, -(t + gap)) * Rot(90, 0, 0) * clamp, PRINTED))
    up = (Align.CENTER, Align.CENTER, Align.MIN)
    shapes.append((Pos(cx, 0, L["socket_bottom"]) * Cylinder(dims.POLE_D / 2, L["upright"], align=up), POLE))
    elbow_bottom = L["axis"] - 35.0 - outer / 2
    shapes.append((Pos(cx, 0, elbow_bottom) * models.elbow(), PRINTED))
    shapes.append((Pos(L["reach_start"], 0, L["axis"]) * Rot(0, 90, 0) * Cylinder(dims.POLE_D / 2, L["reach"],
                                                                                   align=up), POLE))
    shapes.append((Pos(L["arm_x0"], 0, L["axis"] - outer / 2) * models.arm_end(), PRINTED))
    bx, _, bz = L["bolt"]
    tab_y = 32.0 / 2 + models.TAB_THICK / 2  # the holder's tab centre (the plate is 32 mm deep)
    shapes.append((Pos(bx, -tab_y, bz - models.TAB_HOLE_Z) * models.camera_holder(
        "cm3" if b.camera.startswith("cm3") else "usb"), PRINTED))
    return shapes


def render_assembly(config: RigConfig, *, size: int = 640):
    """A PNG (Pillow image) of :func:`assembly`, each part in its colour."""
    from rig.parts.render import render_mesh

    vertices, faces, colours = [], [], []
    offset = 0
    for shape, colour in assembly(config):
        v, f = shape.tessellate(0.2, 0.5)
        v = np.array([[p.X, p.Y, p.Z] for p in v], dtype=float)
        f = np.array(f, dtype=int) + offset
        offset += len(v)
        vertices.append(v)
        faces.append(f)
        colours.append(np.tile(colour, (len(f), 1)))
    return render_mesh(np.concatenate(vertices), np.concatenate(faces), size=size, azimuth=-60.0, elevation=18.0,
                       face_colours=np.concatenate(colours),
                       title=f"{config.build.camera} {config.build.height_cm:g} cm over the box bottom")

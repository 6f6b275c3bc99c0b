"""Every printed part is a closed manifold solid, and the parts fit what they hold (issue 30).

The fit figures are written here from the parts' own drawings, not read from rig.parts.dims: arcade
button holes 30.0 / 24.0 mm + 0.2; the Camera Module 3's board 25 x 24 mm with M2 holes (2.2 mm)
21 mm x 12.5 mm apart; the clamp takes a 40 mm table edge.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from rig.config import RigConfig
from rig.parts.build import build_part, cut_list, parts_for

# build123d (OpenCascade) takes ~2 s to import: imported when these tests run, not when pytest collects
# them (every xdist worker collects every module)
b3d = models = trimesh = manifold3d = None


@pytest.fixture(scope="module", autouse=True)
def _cad():
    global b3d, models, trimesh, manifold3d
    b3d = pytest.importorskip("build123d")
    trimesh = pytest.importorskip("trimesh")
    manifold3d = pytest.importorskip("manifold3d")
    from rig.parts import models


FIVE = RigConfig.parse('[build]\nmount = "clamp"\nbutton_mm = 30\n')
EIGHT = RigConfig.parse("\n".join(
    ['[build]\nmount = "frame"\nbutton_mm = 24\nseats = 8\ncamera = "c920"'] +
    [f'[[players]]\nname = "P{i}"\npin = "GPIO{p}"\nkind = "{"beam" if i % 3 == 0 else "button"}"'
     for i, p in enumerate((17, 27, 22, 5, 6, 26, 23, 24))]))


def _specs():
    seen = {}
    for config in (FIVE, EIGHT):
        for spec in parts_for(config):
            seen.setdefault(spec.name, spec)
    return list(seen.values())


@pytest.mark.parametrize("spec", _specs(), ids=lambda s: s.name)
def test_every_part_is_a_closed_manifold_solid(spec, tmp_path):
    part = build_part(spec)
    assert part.is_valid and len(part.solids()) == 1
    bb = part.bounding_box()
    assert abs(bb.min.Z) < 1e-6  # lies on the bed
    path = tmp_path / f"{spec.name}.stl"
    b3d.export_stl(part, str(path))
    mesh = trimesh.load(path, force="mesh")
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume
    solid = manifold3d.Manifold(manifold3d.Mesh(vert_properties=np.asarray(mesh.vertices, np.float32),
                                                tri_verts=np.asarray(mesh.faces, np.uint32)))
    assert solid.status() == manifold3d.Error.NoError and not solid.is_empty()
    assert solid.volume() == pytest.approx(part.volume, rel=0.01)


def _circle_radii(part):
    return sorted({round(e.radius, 4) for e in part.edges().filter_by(b3d.GeomType.CIRCLE)})


@pytest.mark.parametrize("button", [30, 24])
def test_button_hole_is_the_button_plus_two_tenths(button):
    part = models.button_box(button, "1 Ada")
    assert (button + 0.2) / 2 in _circle_radii(part)
    w, d, h = models.button_box_size(button)
    # a button body of the nominal size passes through the top without touching it ...
    assert (part & b3d.Cylinder(button / 2, 20)).volume == pytest.approx(0, abs=1e-6)
    # ... and the hole is no larger than nominal + 0.2 (a 0.1 mm larger body would touch)
    assert (part & b3d.Cylinder((button + 0.3) / 2, 20)).volume > 0
    # room below the top for the button's microswitch
    assert h - models.BUTTON_TOP >= {30: 33, 24: 30}[button]


def test_camera_holder_matches_the_camera_module_3_drawing():
    part = models.camera_holder("cm3")
    holes = [e for e in part.edges().filter_by(b3d.GeomType.CIRCLE) if abs(e.radius - 1.1) < 1e-6]
    centres = sorted({(round(e.arc_center.X, 3), round(e.arc_center.Y, 3)) for e in holes})
    assert len(centres) == 4  # four M2 holes (2.2 mm clearance)
    xs = sorted({x for x, _ in centres})
    ys = sorted({y for _, y in centres})
    assert xs[1] - xs[0] == pytest.approx(21.0) and ys[1] - ys[0] == pytest.approx(12.5)
    # the pattern sits on the 25 x 24 mm board: 2 mm from its side edges and from its top edge
    board_x = (sum(xs) / 2 - 12.5, sum(xs) / 2 + 12.5)
    assert xs[0] - board_x[0] == pytest.approx(2.0) and board_x[1] - xs[1] == pytest.approx(2.0)
    # an M2 screw (2.0 mm) goes through each hole without touching the holder
    for x, y in centres:
        assert (part & b3d.Pos(x, y, -5) * b3d.Cylinder(1.0, 30, align=None)).volume == pytest.approx(0, abs=1e-6)
    # the lens looks through the plate: nothing of the holder in a 10 mm cone-free column under it
    lens_y = ys[1] + 2.0 - 9.5
    assert (part & b3d.Pos(0, lens_y, -5) * b3d.Cylinder(5.0, 8.0 + 5)).volume == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("edge", [40.0, 25.0])
def test_clamp_opens_to_the_table_edge(edge):
    part = models.clamp(edge)
    x0, y0, x1, y1 = models.clamp_opening(edge)
    assert y1 - y0 >= edge
    # a table top `edge` mm thick slides between the jaws, as far as the spine, without touching
    table = b3d.Pos(0.01, y0 + 0.5, 0) * b3d.Box(models.CLAMP_REACH + 50, edge, models.CLAMP_WIDTH,
                                        align=(b3d.Align.MIN,) * 3)
    assert (part & table).volume == pytest.approx(0, abs=1e-6)
    # ... and a 6 mm thicker one does not
    thick = b3d.Pos(0.01, y0 + 0.5, 0) * b3d.Box(models.CLAMP_REACH + 50, edge + 6, models.CLAMP_WIDTH,
                                        align=(b3d.Align.MIN,) * 3)
    assert (part & thick).volume > 0


def test_parts_follow_the_config():
    five = {s.name: s for s in parts_for(FIVE)}
    assert {"clamp", "arm-elbow", "arm-end", "camera-holder"} <= set(five)
    assert sum(n.startswith("button-box-") for n in five) == 5 and five["button-base"].count == 5
    assert five["beam-clip"].count == 0
    eight = {s.name: s for s in parts_for(EIGHT)}
    assert {"frame-foot", "frame-elbow", "frame-tee"} <= set(eight) and "clamp" not in eight
    beams = sum(p.kind == "beam" for p in EIGHT.players)
    assert eight["beam-clip"].count == 2 * beams
    assert sum(n.startswith("button-box-") for n in eight) == 8 - beams
    assert "button-box-2-p1" in eight  # seat numbers and names on the boxes
    cuts = {c.what.split(" (")[0]: c for c in cut_list(EIGHT)}
    assert cuts["frame upright"].count == 2
    # the upright reaches the planned height: camera 40 cm over the box bottom
    assert cuts["frame upright"].length_mm > 400


def test_a_higher_camera_needs_a_longer_upright():
    low = RigConfig.parse("[build]\nheight_cm = 35\n")
    high = RigConfig.parse("[build]\nheight_cm = 45\n")
    assert cut_list(high)[0].length_mm - cut_list(low)[0].length_mm == pytest.approx(100, abs=1)
    assert math.isfinite(cut_list(low)[1].length_mm)


@pytest.mark.parametrize("height, edge", [(40, 40), (32, 25), (48, 40)])
def test_the_cut_list_puts_the_lens_where_the_plan_wants_it(height, edge):
    from rig.parts.assembly import lens_position
    from rig.parts.build import BOX_FLOOR, BOX_FROM_EDGE

    config = RigConfig.parse(f"[build]\nheight_cm = {height}\ntable_edge_mm = {edge}\nbox = [300, 220, 45]\n")
    x, y, z = lens_position(config)
    assert x == pytest.approx(BOX_FROM_EDGE + 220 / 2, abs=1) and y == 0  # over the box's centre
    assert z - BOX_FLOOR == pytest.approx(height * 10, abs=1)  # the planned height over the box bottom


def test_the_elbow_slides_on_the_upright():
    part = models.elbow()
    pole = b3d.Cylinder(dims_pole() / 2, 200)  # a pole through the elbow, centred on its vertical hole
    assert (part & pole).volume == pytest.approx(0, abs=1e-6)


def dims_pole():
    from rig.parts import dims

    return dims.POLE_D


def test_the_parts_modules_import_no_cad_library():
    # pytest imports every rig module for its doctests in each xdist worker; build123d costs ~2 s there
    import subprocess
    import sys
    code = ("import sys, rig.parts.assembly, rig.parts.build, rig.parts.render, rig.parts.dims; "
            "assert 'build123d' not in sys.modules and 'OCP' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

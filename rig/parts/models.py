"""The printed parts as build123d solids, each laid out the way it prints (flat face on z = 0).

Every function takes plain numbers and returns a solid; :func:`rig.parts.build.parts_for` picks the
parts and the numbers for a config. Dimensions: :mod:`rig.parts.dims`.
"""

from __future__ import annotations

from build123d import (
    Align,
    Box,
    Cylinder,
    Part,
    Plane,
    Pos,
    Rot,
    Text,
    extrude,
)

from rig.parts import dims

_MIN = (Align.MIN, Align.MIN, Align.MIN)
_CXY = (Align.CENTER, Align.CENTER, Align.MIN)


def _box(x: float, y: float, z: float, at=(0.0, 0.0, 0.0), align=_MIN) -> Part:
    return Pos(*at) * Box(x, y, z, align=align)


def _cyl(d: float, h: float, at=(0.0, 0.0, 0.0), rot=(0.0, 0.0, 0.0), align=_CXY) -> Part:
    return Pos(*at) * Rot(*rot) * Cylinder(d / 2, h, align=align)


def on_floor(part: Part) -> Part:
    """Move a part so it rests on z = 0 with its footprint centred on the origin."""
    bb = part.bounding_box()
    return Pos(-(bb.min.X + bb.max.X) / 2, -(bb.min.Y + bb.max.Y) / 2, -bb.min.Z) * part


def _engrave(part: Part, text: str, *, size: float, plane: Plane, depth: float = 0.6) -> Part:
    """Cut ``text`` ``depth`` mm into the face lying in ``plane`` (its normal pointing out of the part)."""
    try:
        sketch = plane * Text(text, size, align=(Align.CENTER, Align.CENTER))
        engraved = part - extrude(sketch, amount=-depth)
    except Exception as exc:  # noqa: BLE001 - OpenCascade's font errors have no common type
        from rig.errors import RigError

        raise RigError(f"cannot engrave the label {text!r} ({type(exc).__name__}: {exc}); is a font installed? "
                       "(Debian: apt install fonts-dejavu-core)") from None
    if not engraved.is_valid or len(engraved.solids()) != 1:
        from rig.errors import RigError

        raise RigError(f"engraving the label {text!r} broke the part; use a shorter name")
    return engraved


# --------------------------------------------------------------------------- camera holder

#: the tilt tab: a plate standing on the holder's edge with the M4 bolt hole of the tilt joint
TAB_THICK = 4.0
TAB_WIDTH = 20.0
TAB_HOLE_Z = 20.0


def camera_holder(kind: str = "cm3", *, plate: float = 3.0) -> Part:
    """A plate the camera board screws to (Camera Module 3: four M2 on standoffs, the lens through the
    plate) or a webcam stands on (its 1/4" tripod screw), with a tab for the arm's tilt joint.

    Modelled and printed with the lens side down: the camera looks through the plate. The board's top
    edge (the edge away from the ribbon connector) faces the tab; board centre at x = y = 0.
    """
    bw, bh = dims.CM3_BOARD
    px, py = 34.0, 32.0
    body = _box(px, py, plate, at=(-px / 2, -py / 2, 0))
    tab_y = py / 2
    body += _box(TAB_WIDTH, TAB_THICK, TAB_HOLE_Z + 7, at=(-TAB_WIDTH / 2, tab_y, 0))
    body += _box(TAB_WIDTH, 3, 6, at=(-TAB_WIDTH / 2, tab_y - 3, plate))  # gusset foot, clear of the board
    body -= _cyl(dims.TILT_BOLT_HOLE, TAB_THICK + 20, at=(0, tab_y - 8, TAB_HOLE_Z), rot=(-90, 0, 0))
    if kind == "cm3":
        top = bh / 2
        for x, y in camera_holes():
            body += _cyl(5.0, plate + 4.0, at=(x, y, 0))  # 4 mm standoffs for the board's back
            body -= _cyl(dims.CM3_HOLE_D, plate + 10, at=(x, y, -1), align=_CXY)
        body -= _cyl(dims.CM3_LENS_OPENING, plate + 2, at=(0, top - dims.CM3_LENS_FROM_TOP, -1))
    else:
        body -= _cyl(dims.TRIPOD_SCREW_HOLE, plate + 2, at=(0, 0, -1))
        body -= _cyl(12.0, 1.2, at=(0, 0, -0.01))  # the screw head's recess
    return body


def camera_holes() -> list[tuple[float, float]]:
    """The Camera Module 3's hole centres on the holder (board centre at the origin, top edge at +y)."""
    bw, bh = dims.CM3_BOARD
    sx, sy = dims.CM3_HOLE_PITCH
    y_top = bh / 2 - dims.CM3_HOLE_FROM_TOP
    return [(x, y) for y in (y_top, y_top - sy) for x in (-sx / 2, sx / 2)]


# --------------------------------------------------------------------------- clamp and arm

CLAMP_WIDTH = 40.0
CLAMP_BAR = 10.0
CLAMP_REACH = 55.0  # how far the jaws reach over the table
SOCKET_WALL = 4.0


def clamp(table_edge_mm: float = 40.0) -> Part:
    """A C-clamp for the table edge with a socket for the upright pole beside its spine.

    Printed on its side: the C's profile lies in x-y (x: over the table, y: up) and the part is
    ``CLAMP_WIDTH`` thick in z. The jaws open to ``table_edge_mm`` + 2 mm; an M8 thumbscrew
    through the lower jaw presses on the table's underside.
    """
    t, gap, reach = CLAMP_BAR, table_edge_mm + 2.0, CLAMP_REACH
    tall = 2 * t + gap
    body = _box(t, tall, CLAMP_WIDTH, at=(-t, 0, 0))  # spine
    body += _box(reach + t, t, CLAMP_WIDTH, at=(-t, 0, 0))  # lower jaw
    body += _box(reach + t, t, CLAMP_WIDTH, at=(-t, t + gap, 0))  # upper jaw
    # the thumbscrew through the lower jaw, near its tip
    body -= _cyl(dims.CLAMP_SCREW_HOLE, t + 2, at=(reach - 18, -1, CLAMP_WIDTH / 2), rot=(-90, 0, 0))
    # the pole socket beside the spine, open at the top (+y), its axis up
    outer = dims.POLE_HOLE + 2 * SOCKET_WALL
    cx = -t - outer / 2 + 1.0
    body += _cyl(outer, tall, at=(cx, 0, CLAMP_WIDTH / 2), rot=(-90, 0, 0))
    body += _box(outer / 2, tall, CLAMP_WIDTH, at=(cx, 0, 0))
    body -= _cyl(dims.POLE_HOLE, tall - t + 1, at=(cx, t, CLAMP_WIDTH / 2), rot=(-90, 0, 0))
    body -= _cyl(dims.SET_SCREW_HOLE, outer, at=(cx - outer / 2 - 1, tall - 12, CLAMP_WIDTH / 2), rot=(0, 90, 0))
    return body


def clamp_opening(table_edge_mm: float = 40.0) -> tuple[float, float, float, float]:
    """The jaws' free space in the clamp's own frame: (x0, y0, x1, y1)."""
    t = CLAMP_BAR
    return (0.0, t, CLAMP_REACH, t + table_edge_mm + 2.0)


def elbow() -> Part:
    """Joins the upright pole to the reach pole (socket from the side) at 90°. The upright passes right
    through, so the elbow slides on it until the lens is at the planned height; an M3 screw locks it."""
    outer = dims.POLE_HOLE + 2 * SOCKET_WALL
    depth = 35.0
    size = outer
    body = _box(size, size, depth + size, at=(-size / 2, -size / 2, 0))
    body += _box(depth, size, size, at=(size / 2, -size / 2, depth))
    body -= _cyl(dims.POLE_HOLE, depth + size + 0.02, at=(0, 0, -0.01))
    body -= _cyl(dims.POLE_HOLE, depth + 0.01, at=(size / 2 + depth + 0.01, 0, depth + size / 2), rot=(0, -90, 0),
                 align=(Align.CENTER, Align.CENTER, Align.MIN))
    body -= _cyl(dims.SET_SCREW_HOLE, size, at=(0, -size / 2 - 1, depth / 2), rot=(-90, 0, 0))
    body -= _cyl(dims.SET_SCREW_HOLE, size, at=(size / 2 + depth / 2, 0, depth + size + 1), rot=(180, 0, 0))
    return body


def arm_end(*, through: bool = False) -> Part:
    """The end of the reach pole (or, ``through``, a block sliding on a frame's crossbar) with the fork the
    camera holder's tab bolts into (M4 bolt, wing nut: the camera tilts until it looks straight down)."""
    outer = dims.POLE_HOLE + 2 * SOCKET_WALL
    length = 40.0
    body = _box(length, outer, outer, at=(0, -outer / 2, 0))
    body -= _cyl(dims.POLE_HOLE, length + 2 if through else length - 6, at=(-1, 0, outer / 2), rot=(0, 90, 0))
    body -= _cyl(dims.SET_SCREW_HOLE, outer, at=(length / 2, 0, outer + 1), rot=(180, 0, 0))
    # the fork: two cheeks hanging below the pole (printed lying on their sides with the block)
    gap = TAB_THICK + 0.6
    cheek = 4.0
    drop = 22.0
    for side in (-1, 1):
        y0 = side * (gap / 2) if side > 0 else -gap / 2 - cheek
        body += _box(TAB_WIDTH, cheek, drop + 2, at=(length / 2 - TAB_WIDTH / 2, y0, -drop))
    body -= _cyl(dims.TILT_BOLT_HOLE, gap + 2 * cheek + 2, at=(length / 2, -gap / 2 - cheek - 1, -drop + 8),
                 rot=(-90, 0, 0))
    return body


def frame_foot() -> Part:
    """A foot for the frame standing over the box: a wide base with the upright's socket."""
    outer = dims.POLE_HOLE + 2 * SOCKET_WALL
    body = _box(90, 70, 5, at=(-45, -35, 0))
    body += _cyl(outer, 40, at=(0, 0, 0))
    body -= _cyl(dims.POLE_HOLE, 40, at=(0, 0, 5))
    body -= _cyl(dims.SET_SCREW_HOLE, outer, at=(-outer / 2 - 1, 0, 28), rot=(0, 90, 0))
    for x, y in ((-36, -26), (36, -26), (-36, 26), (36, 26)):  # screw it down, or stick felt pads under it
        body -= _cyl(4.4, 7, at=(x, y, -1))
    return body


# --------------------------------------------------------------------------- button box

BUTTON_TOP = 3.0
BUTTON_POST = 7.0
BASE_THICK = 3.0
CABLE_EXIT = (9.0, 6.0)  # width, height of the notch the cable leaves through


def button_box_size(button_mm: int) -> tuple[float, float, float]:
    """Outer width, depth, height of the button box for a button of ``button_mm``."""
    side = button_mm + 34.0
    return side, side, dims.BUTTON_DEPTH[button_mm] + BUTTON_TOP


def button_box(button_mm: int = 30, label: str = "", *, wall: float = 2.4) -> Part:
    """The box a player's arcade button sits in: the button hole in the top, a label engraved in the
    front wall, a notch for the cable at the back, four posts for the base plate's M3 screws.

    Printed top down (the top on the bed, so the button hole's face is flat and smooth).
    """
    w, d, h = button_box_size(button_mm)
    body = _box(w, d, h, at=(-w / 2, -d / 2, 0))
    body -= _box(w - 2 * wall, d - 2 * wall, h - BUTTON_TOP + 0.01, at=(-w / 2 + wall, -d / 2 + wall, BUTTON_TOP))
    body -= _cyl(button_mm + dims.BUTTON_CLEARANCE, BUTTON_TOP + 2, at=(0, 0, -1))
    for x, y in _post_centres(w, d, wall):
        post = _box(BUTTON_POST, BUTTON_POST, h - BUTTON_TOP, at=(x - BUTTON_POST / 2, y - BUTTON_POST / 2, BUTTON_TOP))
        body += post - _cyl(2.5, 12.01, at=(x, y, h - 12))
    # the cable notch at the open (upper, as printed) edge of the back wall
    cw, ch = CABLE_EXIT
    body -= _box(cw, wall + BUTTON_POST, ch + 0.01, at=(-cw / 2, d / 2 - wall - 1, h - ch))
    if label:
        # the front wall (y = -d/2), read from outside with the box standing the right way up
        plane = Plane(origin=(0, -d / 2, h / 2), x_dir=(-1, 0, 0), z_dir=(0, -1, 0))
        body = _engrave(body, label, size=min(8.0, 0.6 * (w - 10) / max(3, len(label)) * 1.7), plane=plane)
    return body


def _post_centres(w: float, d: float, wall: float) -> list[tuple[float, float]]:
    o = wall + BUTTON_POST / 2
    return [(sx * (w / 2 - o), sy * (d / 2 - o)) for sx in (-1, 1) for sy in (-1, 1)]


def button_base(button_mm: int = 30, *, wall: float = 2.4) -> Part:
    """The button box's base plate: four M3 holes into the posts, rubber feet go under it."""
    w, d, _ = button_box_size(button_mm)
    body = _box(w, d, BASE_THICK, at=(-w / 2, -d / 2, 0))
    for x, y in _post_centres(w, d, wall):
        body -= _cyl(dims.SET_SCREW_HOLE, BASE_THICK + 2, at=(x, y, -1))
        body -= _cyl(6.4, 1.6, at=(x, y, -0.01))  # screw head recess
    return body


# --------------------------------------------------------------------------- beam clip and cable tidy

CLIP_WIDTH = 12.0


def beam_clip(rim_gap: float = dims.RIM_GAP, beam_height: float = 12.0) -> Part:
    """Slides onto the box rim and holds one 5 mm IR emitter or receiver ``beam_height`` mm above the
    rim, looking along it (print two per player: emitter and receiver face each other).

    Printed with the profile flat: the LED hole's axis is vertical in the print (round without supports).
    """
    leg, thick = 16.0, 2.4
    width = 2 * thick + rim_gap
    body = _box(width, leg + thick, CLIP_WIDTH, at=(-width / 2, -leg, 0))
    body -= _box(rim_gap, leg + 0.01, CLIP_WIDTH + 2, at=(-rim_gap / 2, -leg - 0.01, -1))
    tower = 10.0
    body += _box(tower, beam_height + 6, CLIP_WIDTH, at=(-tower / 2, thick, 0))
    body -= _cyl(dims.BEAM_HOLE, CLIP_WIDTH + 2, at=(0, thick + beam_height, -1))
    body += _box(1.2, 1.2, CLIP_WIDTH, at=(-rim_gap / 2, -leg, 0))  # a small barb that grips the card
    return body


def cable_tidy(bundle_d: float = 10.0) -> Part:
    """A clip screwed or stuck under the table edge that holds the bundle of button cables."""
    base_w, base_d, base_t = 34.0, 16.0, 3.0
    ring = bundle_d + 2 * 2.4
    body = _box(base_w, base_d, base_t, at=(-base_w / 2, -base_d / 2, 0))
    body += _cyl(ring, base_d, at=(0, base_d / 2, base_t + bundle_d / 2), rot=(90, 0, 0))
    body -= _cyl(bundle_d, base_d + 2, at=(0, base_d / 2 + 1, base_t + bundle_d / 2), rot=(90, 0, 0))
    body -= _box(bundle_d * 0.55, base_d + 2, ring, at=(-bundle_d * 0.275, -base_d / 2 - 1, base_t + bundle_d / 2))
    for x in (-12.0, 12.0):
        body -= _cyl(3.6, base_t + 2, at=(x, 0, -1))
    return body


__all__ = ["arm_end", "beam_clip", "button_base", "button_box", "button_box_size", "cable_tidy", "camera_holder",
           "camera_holes", "clamp", "clamp_opening", "elbow", "frame_foot", "on_floor"]

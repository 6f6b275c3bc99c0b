"""The build planner: what a camera at a height over a box bottom sees, before anything is built.

A pinhole model of the lens (rectilinear, distortion left out): a lens with horizontal field of
view F at a distance d sees a strip ``2 d tan(F/2)`` wide; a picture W px wide then spends
``W / (2 d tan(F/2))`` px on a millimetre. The picture's aspect decides how much of the sensor it
uses: a 4:3 picture from the Camera Module 3's 16:9 sensor is the middle of it (libcamera crops
the sensor to the output's aspect), so it sees 52° across, not 66°.

Standard library only (the doctor and the CLI use it; the rules, vision and engine do not).

>>> p = make_plan(box=(280, 200, 45), camera="cm3", height_cm=40, frame=(1280, 960))
>>> round(p.seen_mm[0]), round(p.seen_mm[1]), round(p.die_px)
(390, 292, 55)
>>> p.fits, p.sensor_mode
(True, '2304x1296 (2x2 binned, full field of view, up to 56 fps)')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rig.errors import RigError
from rig.i18n import N_, Translator

__all__ = ["CAMERAS", "CameraModel", "Plan", "PlanError", "make_plan", "plan_svg", "DIE_PX_RANGE"]

#: the dice reader's working range: a die's top face this many px wide (DESIGN.md)
DIE_PX_RANGE = (40.0, 100.0)
#: below this, calibration on the virtual table refused the ritual frames now and then (``rig bench plan``:
#: at 48 px 2 of 5 lightings, at 43 px all 5): the plan says so
CALIBRATION_COMFORT_PX = 50.0
#: the headline game's dice, mm
DIE_MM = 16.0


class PlanError(RigError):
    """A plan that cannot be made (unknown camera, a box or height out of range)."""


@dataclass(frozen=True)
class SensorMode:
    width: int
    height: int
    fps: float
    note: str
    scale: float = 1.0  # the share of the full sensor's width (and height) the mode sees (1: full field)


@dataclass(frozen=True)
class CameraModel:
    """A camera as the planner sees it: the full sensor's field of view and its modes."""

    name: str
    label: str
    hfov_deg: float  # across the whole sensor
    sensor_px: tuple[int, int]
    focal_mm: float | None = None
    modes: tuple[SensorMode, ...] = ()
    usb: bool = False
    source: str = ""  # where the figures come from

    @property
    def aspect(self) -> float:
        return self.sensor_px[0] / self.sensor_px[1]

    @property
    def vfov_deg(self) -> float:
        return math.degrees(2 * math.atan(math.tan(math.radians(self.hfov_deg) / 2) / self.aspect))


def _dfov_to_hfov(dfov: float, aspect: float) -> float:
    """Horizontal field of view from the diagonal one (pinhole) for a sensor of ``aspect``."""
    t = math.tan(math.radians(dfov) / 2) * aspect / math.hypot(aspect, 1.0)
    return math.degrees(2 * math.atan(t))


_IMX708_MODES = (
    SensorMode(1536, 864, 120.0, N_("2x2 binned, centre crop"), scale=2 / 3),
    SensorMode(2304, 1296, 56.0, N_("2x2 binned, full field of view")),
    SensorMode(4608, 2592, 14.0, N_("full resolution")),
)

#: The cameras ``rig plan`` knows. Camera Module 3 figures from the Raspberry Pi camera documentation
#: (IMX708, 4608x2592, 1.4 µm; standard lens 4.74 mm, 66° x 41°; wide lens 2.75 mm, 102° x 67°); webcams
#: from their makers' diagonal field of view at their 16:9 (or 4:3) sensor.
CAMERAS: dict[str, CameraModel] = {
    "cm3": CameraModel("cm3", "Raspberry Pi Camera Module 3", 66.0, (4608, 2592), 4.74, _IMX708_MODES,
                       source="Raspberry Pi camera documentation: 66° x 41°, 4.74 mm"),
    "cm3-wide": CameraModel("cm3-wide", "Raspberry Pi Camera Module 3 Wide", 102.0, (4608, 2592), 2.75,
                            _IMX708_MODES, source="Raspberry Pi camera documentation: 102° x 67°, 2.75 mm"),
    "c920": CameraModel("c920", "Logitech C920 / C922 (USB)", round(_dfov_to_hfov(78.0, 16 / 9), 1), (1920, 1080),
                        usb=True, source="Logitech: 78° diagonal, 16:9"),
    "c270": CameraModel("c270", "Logitech C270 (USB)", round(_dfov_to_hfov(55.0, 16 / 9), 1), (1280, 720),
                        usb=True, source="Logitech: 55° diagonal, 16:9"),
    "webcam-60": CameraModel("webcam-60", "USB webcam, 60° across, 4:3 sensor", 60.0, (1280, 960), usb=True,
                             source="a generic 4:3 webcam"),
}


@dataclass(frozen=True)
class Plan:
    """What the camera sees. Lengths in mm on the box bottom, unless named otherwise."""

    camera: CameraModel
    height_mm: float  # lens to the box bottom
    box: tuple[float, float, float]  # inner width, depth, wall height of the box
    frame: tuple[int, int]  # the picture the rig reads, px
    die_mm: float
    hfov_deg: float  # what the picture sees across (after the aspect crop)
    vfov_deg: float
    seen_mm: tuple[float, float]  # area seen at the box bottom
    seen_rim_mm: tuple[float, float]  # area seen at the rim's height
    px_per_mm: float  # at the box bottom
    die_px: float  # a resting die's top face, px
    die_px_floor: float  # a 16 mm square lying on the box bottom, px
    margin_mm: tuple[float, float]  # around the box at the box bottom (negative: cut off)
    rim_margin_mm: tuple[float, float]  # around the box's rim at rim height (negative: the rim is cut off)
    box_rotated: bool  # the box lies with its longer side along the picture's shorter one
    sensor_mode: str
    exposure_us: tuple[int, int]
    blur_px: float  # motion blur of a die rolling at 0.3 m/s at the shortest exposure
    notes: tuple[str, ...] = field(default=())

    @property
    def fits(self) -> bool:
        """The whole box in view and dice inside the reader's working range."""
        return min(self.rim_margin_mm) >= 0 and DIE_PX_RANGE[0] <= self.die_px <= DIE_PX_RANGE[1]

    @property
    def box_in_view(self) -> bool:
        return min(self.rim_margin_mm) >= 0

    def box_px(self) -> tuple[float, float, float, float]:
        """The box bottom's rectangle in the picture (x0, y0, x1, y1), px, the box centred."""
        bw, bd = (self.box[1], self.box[0]) if self.box_rotated else self.box[:2]
        w, h = self.frame
        k = self.px_per_mm
        return (w / 2 - bw * k / 2, h / 2 - bd * k / 2, w / 2 + bw * k / 2, h / 2 + bd * k / 2)

    def lines(self, _: Translator | None = None) -> list[str]:
        """The plan as ``rig plan`` prints it, in the language of ``_`` (English without it)."""
        from rig.i18n import by_pattern, core_patterns, format_number

        _ = _ or Translator("en")

        def num(value: float, digits: int | None = None) -> str:
            """``272.0`` / ``272,0`` (``digits=None``: as ``:g`` writes it)."""
            if _.lang == "en":
                return f"{value:g}" if digits is None else f"{value:.{digits}f}"
            return format_number(round(value, 6) if digits is None else value, _.lang, digits)

        bw, bd, bh = self.box
        w, h = self.frame
        lines = [
            _("camera: {label} ({name}), lens {height} cm above the box bottom", label=self.camera.label,
              name=self.camera.name, height=num(self.height_mm / 10)),
            _("picture: {w}x{h}, sees {hfov}° x {vfov}° (sensor {sensor_h}° x {sensor_v}°)", w=w, h=h,
              hfov=num(self.hfov_deg, 1), vfov=num(self.vfov_deg, 1), sensor_h=num(self.camera.hfov_deg),
              sensor_v=num(self.camera.vfov_deg, 0)),
            _("area seen: {w} x {d} cm at the box bottom, {rim_w} x {rim_d} cm at the rim ({up} mm up)",
              w=num(self.seen_mm[0] / 10, 1), d=num(self.seen_mm[1] / 10, 1), rim_w=num(self.seen_rim_mm[0] / 10, 1),
              rim_d=num(self.seen_rim_mm[1] / 10, 1), up=num(bh)),
            (_("box: {w} x {d} mm inside, {h} mm walls (turned: its long side along the picture's short side)",
               w=num(bw), d=num(bd), h=num(bh)) if self.box_rotated
             else _("box: {w} x {d} mm inside, {h} mm walls", w=num(bw), d=num(bd), h=num(bh))),
            _("margin around the box: {x} mm left/right, {y} mm top/bottom (at the rim {rim_x} / {rim_y} mm)",
              x=num(self.margin_mm[0], 0), y=num(self.margin_mm[1], 0), rim_x=num(self.rim_margin_mm[0], 0),
              rim_y=num(self.rim_margin_mm[1], 0)),
            _("die: {px} px wide ({mm} mm top face; {per_mm} px/mm on the bottom); the reader wants {low}-{high} px",
              px=num(self.die_px, 0), mm=num(self.die_mm), per_mm=num(self.px_per_mm, 2), low=num(DIE_PX_RANGE[0], 0),
              high=num(DIE_PX_RANGE[1], 0)),
            _("sensor mode: {mode}", mode=by_pattern(self.sensor_mode, _.lang, core_patterns())),
            _("exposure: {shortest}-{longest} µs (whole mains flicker periods within a frame; a die still rolling at "
              "0.3 m/s blurs {blur} px at the shortest, dice are read once settled)", shortest=self.exposure_us[0],
              longest=self.exposure_us[1], blur=num(self.blur_px, 0)),
        ]
        lines += [_("note: {note}", note=by_pattern(n, _.lang, core_patterns())) for n in self.notes]
        lines.append(_("verdict: fits: the whole box in view, dice in the reader's range") if self.fits
                     else _("verdict: does not fit (see the notes)"))
        return lines

    def to_dict(self) -> dict:
        return {
            "camera": self.camera.name, "height_cm": self.height_mm / 10, "box_mm": list(self.box),
            "frame": list(self.frame), "hfov_deg": round(self.hfov_deg, 2), "vfov_deg": round(self.vfov_deg, 2),
            "seen_mm": [round(v, 1) for v in self.seen_mm], "seen_rim_mm": [round(v, 1) for v in self.seen_rim_mm],
            "px_per_mm": round(self.px_per_mm, 4), "die_px": round(self.die_px, 1),
            "margin_mm": [round(v, 1) for v in self.margin_mm],
            "rim_margin_mm": [round(v, 1) for v in self.rim_margin_mm], "box_rotated": self.box_rotated,
            "sensor_mode": self.sensor_mode, "exposure_us": list(self.exposure_us), "blur_px": round(self.blur_px, 2),
            "fits": self.fits, "notes": list(self.notes),
        }


def _tangents(camera: CameraModel, frame: tuple[int, int]) -> tuple[float, float]:
    """tan(half field of view) across and down for a picture of ``frame``'s aspect, centre-cropped."""
    th = math.tan(math.radians(camera.hfov_deg) / 2)
    tv = th / camera.aspect
    out = frame[0] / frame[1]
    if out < camera.aspect:  # narrower picture: the sides are cropped
        return tv * out, tv
    return th, th / out  # wider picture: top and bottom are cropped


def said(text: str) -> str:
    """A note (or sensor mode) ``rig plan`` says as it is: a message id of its own
    (:data:`rig.i18n.extract.CORE_CALLS`), said in the command line's language by :meth:`Plan.lines`."""
    return text


def _sensor_mode(camera: CameraModel, frame: tuple[int, int], fps: float) -> tuple[str, list[str]]:
    notes = []
    if camera.usb:
        width, height, rate = frame[0], frame[1], f"{fps:g}"
        return said(f"MJPG {width}x{height} at {rate} fps (ask the webcam for exactly this size)"), notes
    out = frame[0] / frame[1]
    for mode in camera.modes:
        if mode.scale < 1.0:
            continue  # a cropped mode narrows the view the plan is made for
        used_w = mode.width if out >= camera.aspect else mode.height * out
        used_h = mode.width / out if out >= camera.aspect else mode.height
        if used_w >= frame[0] and used_h >= frame[1] and mode.fps >= fps:
            return _mode_text(mode), notes
    full = max((m for m in camera.modes if m.scale >= 1.0), key=lambda m: m.width)
    if full.fps < fps:
        width, height, most = frame[0], frame[1], f"{full.fps:g}"
        notes.append(said(f"{width}x{height} needs the full-resolution mode, which runs at {most} fps at most"))
    return _mode_text(full), notes


def _mode_text(mode: SensorMode) -> str:
    width, height, note, rate = mode.width, mode.height, mode.note, f"{mode.fps:g}"
    return said(f"{width}x{height} ({note}, up to {rate} fps)")


def make_plan(*, box: tuple[float, float, float], camera: str | CameraModel, height_cm: float,
              frame: tuple[int, int] = (1280, 960), fps: float = 30, flicker_hz: int = 50,
              die_mm: float = DIE_MM) -> Plan:
    """The plan for a camera ``height_cm`` above the box bottom (lens to bottom)."""
    cam = camera if isinstance(camera, CameraModel) else CAMERAS.get(camera)
    if cam is None:
        raise PlanError(f"{camera!r} is not a camera the planner knows (one of: {', '.join(CAMERAS)})")
    bw, bd, bh = (float(v) for v in box)
    if not (20 <= bw <= 2000 and 20 <= bd <= 2000 and 0 <= bh <= 500):
        raise PlanError(f"box {bw:g} x {bd:g} x {bh:g} mm: width and depth 20-2000 mm, walls 0-500 mm")
    height = float(height_cm) * 10
    if not 50 <= height <= 3000:
        raise PlanError(f"height {height_cm:g} cm is out of range (5 to 300 cm from the lens to the box bottom)")
    if height <= bh + 20 or height <= die_mm + 20:
        raise PlanError(f"height {height_cm:g} cm: the lens must be above the box's {bh:g} mm walls, with room")
    if frame[0] < 16 or frame[1] < 16:
        raise PlanError(f"picture {frame[0]}x{frame[1]} is too small")
    th, tv = _tangents(cam, frame)
    seen = (2 * height * th, 2 * height * tv)
    seen_rim = (2 * (height - bh) * th, 2 * (height - bh) * tv)
    rotated = (bw >= bd) != (seen[0] >= seen[1])
    across, down = (bd, bw) if rotated else (bw, bd)
    margin = ((seen[0] - across) / 2, (seen[1] - down) / 2)
    rim_margin = ((seen_rim[0] - across) / 2, (seen_rim[1] - down) / 2)
    focal_px = frame[0] / (2 * th)  # the pinhole's focal length in px
    px_per_mm = focal_px / height
    die_px = die_mm * focal_px / (height - die_mm)  # the top face is a die's height nearer the lens
    notes: list[str] = []
    mode, mode_notes = _sensor_mode(cam, frame, fps)
    notes += mode_notes
    period = 1_000_000 // (2 * flicker_hz) if flicker_hz else 0  # lamps flicker at twice the mains
    frame_us = int(1_000_000 / fps)
    if period and period <= frame_us:
        exposure = (period, (frame_us // period) * period)
    else:
        exposure = (min(4000, frame_us), frame_us)
    blur = 300.0 * exposure[0] / 1e6 * px_per_mm  # a die at 0.3 m/s while the shutter is open
    if min(rim_margin) < 0:
        cut, raise_to = f"{-min(rim_margin):.0f}", math.ceil(_height_for_box(across, down, bh, th, tv) / 10)
        notes.append(said(f"the box's rim is cut off ({cut} mm): raise the camera to {raise_to} cm or more, "
                          "or use a wider lens"))
    elif min(rim_margin) < 10:
        notes.append(said("less than 1 cm around the box at the rim: a slightly crooked mount cuts it off"))
    px = f"{die_px:.0f}"
    if die_px < DIE_PX_RANGE[0]:
        lower_to = math.floor((die_mm * focal_px / DIE_PX_RANGE[0] + die_mm) / 10)
        notes.append(said(f"dice {px} px are too small to read: lower the camera to {lower_to} cm or less, "
                          "or ask for a bigger picture ([camera] width/height)"))
    elif die_px < CALIBRATION_COMFORT_PX:
        comfort, lower_to = f"{CALIBRATION_COMFORT_PX:.0f}", math.floor((die_mm * focal_px / CALIBRATION_COMFORT_PX + die_mm) / 10)
        notes.append(said(f"dice {px} px are readable, but calibration may refuse dice under {comfort} px (it must "
                          f"find all six): {lower_to} cm or lower is safer"))
    elif die_px > DIE_PX_RANGE[1]:
        raise_to = math.ceil((die_mm * focal_px / DIE_PX_RANGE[1] + die_mm) / 10)
        notes.append(said(f"dice {px} px are larger than the reader needs: raise the camera to {raise_to} cm or more, "
                          "or ask for a smaller picture"))
    if cam.usb and abs(frame[0] / frame[1] - cam.aspect) > 0.01:
        picture, sensor = f"{frame[0]}x{frame[1]}", f"{cam.sensor_px[0]}x{cam.sensor_px[1]}"
        notes.append(said(f"{picture} does not have the webcam's own shape ({sensor}): check it delivers that size "
                          "uncropped (some webcams crop differently)"))
    if cam.name == "cm3-wide":
        notes.append(said("the wide lens bends straight lines towards the corners: the pinhole figures are for the "
                          "middle of the picture"))
    if period and period > frame_us:
        rate = f"{fps:g}"
        notes.append(said(f"at {rate} fps the exposure is shorter than one mains flicker period ({period} µs): "
                          "use flicker-free lamps"))
    return Plan(camera=cam, height_mm=height, box=(bw, bd, bh), frame=(int(frame[0]), int(frame[1])), die_mm=die_mm,
                hfov_deg=math.degrees(2 * math.atan(th)), vfov_deg=math.degrees(2 * math.atan(tv)),
                seen_mm=seen, seen_rim_mm=seen_rim, px_per_mm=px_per_mm, die_px=die_px,
                die_px_floor=die_mm * px_per_mm, margin_mm=margin, rim_margin_mm=rim_margin, box_rotated=rotated,
                sensor_mode=mode, exposure_us=exposure, blur_px=blur, notes=tuple(notes))


def _height_for_box(across: float, down: float, wall: float, th: float, tv: float) -> float:
    """The lowest lens height (mm) at which the box's rim is in view."""
    return max(across / (2 * th), down / (2 * tv)) + wall


# --------------------------------------------------------------------------- SVG


def plan_svg(plan: Plan, *, scale: float = 1.2) -> str:
    """A top view (1 mm = ``scale`` SVG units): field of view at the bottom and at the rim, the box, six dice."""
    sw, sh = plan.seen_mm
    bw, bd = (plan.box[1], plan.box[0]) if plan.box_rotated else plan.box[:2]
    pad = 40.0
    span_w = max(sw, bw) + 2 * pad
    span_h = max(sh, bd) + 2 * pad
    cx, cy = span_w / 2, span_h / 2
    s = scale
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{span_w * s:.0f}" height="{(span_h + 60) * s:.0f}" '
           f'viewBox="0 0 {span_w:.1f} {span_h + 60:.1f}" font-family="sans-serif">',
           f'<title>rig plan: {plan.camera.label} at {plan.height_mm / 10:g} cm over a {plan.box[0]:g} x '
           f'{plan.box[1]:g} mm box</title>',
           f'<rect x="0" y="0" width="{span_w:.1f}" height="{span_h + 60:.1f}" fill="#fafafa"/>']

    def rect(w, h, **attrs):
        a = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in attrs.items())
        return f'<rect x="{cx - w / 2:.1f}" y="{cy - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" {a}/>'

    out.append(rect(bw, bd, fill="#8a8378", stroke="#4a443c", stroke_width="3"))
    out.append(rect(sw, sh, fill="#3b82f6", fill_opacity="0.12", stroke="#1d4ed8", stroke_width="1.5"))
    rw, rh = plan.seen_rim_mm
    out.append(rect(rw, rh, fill="none", stroke="#1d4ed8", stroke_width="1", stroke_dasharray="4 3"))
    d = plan.die_mm
    for i in range(6):  # six dice, two rows of three, evenly over the box bottom
        x = cx + (i % 3 - 1) * bw / 4 - d / 2
        y = cy + (i // 3 - 0.5) * bd / 3 - d / 2
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{d:g}" height="{d:g}" rx="2.5" fill="#7c3aed" '
                   f'stroke="#3b0764" stroke-width="0.8"/>')
    colour = "#15803d" if plan.fits else "#b91c1c"
    texts = [
        (f"{plan.camera.label}, {plan.height_mm / 10:g} cm up, {plan.frame[0]}x{plan.frame[1]}", "#111"),
        (f"seen {sw / 10:.1f} x {sh / 10:.1f} cm (dashed: at the rim); box {plan.box[0]:g} x {plan.box[1]:g} mm; "
         f"die {plan.die_px:.0f} px", colour),
    ]
    for i, (text, fill) in enumerate(texts):
        out.append(f'<text x="{pad / 2:.0f}" y="{span_h + 22 + i * 22:.0f}" font-size="14" fill="{fill}">'
                   f'{_xml(text)}</text>')
    out.append(f'<line x1="{pad / 2:.0f}" y1="{pad / 2:.0f}" x2="{pad / 2 + 100:.0f}" y2="{pad / 2:.0f}" '
               'stroke="#111" stroke-width="2"/>')
    out.append(f'<text x="{pad / 2:.0f}" y="{pad / 2 - 5:.0f}" font-size="11">10 cm</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

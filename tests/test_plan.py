"""rig.plan against an independent pinhole projection, its checks, and its SVG."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from rig.config import BUILD_CAMERAS
from rig.plan import CAMERAS, DIE_PX_RANGE, PlanError, make_plan, plan_svg


def project(points, *, camera, frame, height_mm):
    """Project 3-D points (mm, z up from the box bottom, lens over the origin) through a pinhole camera
    built from the sensor itself: the picture is the sensor's centre cut to the picture's shape, scaled."""
    cam = CAMERAS[camera]
    sw, sh = cam.sensor_px
    out_aspect = frame[0] / frame[1]
    used_w = min(sw, sh * out_aspect)  # sensor px across the picture
    f_sensor = (sw / 2) / math.tan(math.radians(cam.hfov_deg) / 2)  # focal length in sensor px
    f = f_sensor * frame[0] / used_w
    return [(frame[0] / 2 + f * x / (height_mm - z), frame[1] / 2 + f * y / (height_mm - z)) for x, y, z in points]


@pytest.mark.parametrize("camera", sorted(CAMERAS))
@pytest.mark.parametrize("height_cm", [30, 40, 50])
@pytest.mark.parametrize("frame", [(1280, 960), (1920, 1080), (640, 480)])
def test_die_px_and_view_agree_with_a_pinhole_projection(camera, height_cm, frame):
    plan = make_plan(box=(280, 200, 45), camera=camera, height_cm=height_cm, frame=frame)
    h = height_cm * 10
    (x0, _), (x1, _) = project([(-8, 0, 16), (8, 0, 16)], camera=camera, frame=frame, height_mm=h)
    assert plan.die_px == pytest.approx(x1 - x0, rel=1e-6)
    # the box's rim corners: inside the picture exactly when the plan says the box is in view
    bw, bd = (200, 280) if plan.box_rotated else (280, 200)
    corners = project([(sx * bw / 2, sy * bd / 2, 45) for sx in (-1, 1) for sy in (-1, 1)],
                      camera=camera, frame=frame, height_mm=h)
    inside = all(0 <= u <= frame[0] and 0 <= v <= frame[1] for u, v in corners)
    assert plan.box_in_view == inside
    # the area seen at the bottom: the picture's edges projected back
    (u0, v0), (u1, v1) = project([(-plan.seen_mm[0] / 2, -plan.seen_mm[1] / 2, 0),
                                  (plan.seen_mm[0] / 2, plan.seen_mm[1] / 2, 0)], camera=camera, frame=frame, height_mm=h)
    assert (u0, v0, u1, v1) == pytest.approx((0, 0, frame[0], frame[1]), abs=1e-6)


def test_camera_module_3_field_of_view_is_the_documented_one():
    assert make_plan(box=(280, 200, 45), camera="cm3", height_cm=40, frame=(1920, 1080)).hfov_deg == pytest.approx(66)
    assert make_plan(box=(280, 200, 45), camera="cm3-wide", height_cm=40, frame=(1920, 1080)).hfov_deg == \
        pytest.approx(102)
    # a 4:3 picture is the middle of the 16:9 sensor: 52° across (docs/building.md's table)
    assert make_plan(box=(280, 200, 45), camera="cm3", height_cm=40).hfov_deg == pytest.approx(51.9, abs=0.1)


def test_verdicts_and_advice():
    ok = make_plan(box=(280, 200, 45), camera="cm3", height_cm=40)
    assert ok.fits and DIE_PX_RANGE[0] <= ok.die_px <= DIE_PX_RANGE[1] and min(ok.margin_mm) > 0
    low = make_plan(box=(280, 200, 45), camera="cm3", height_cm=25)
    assert not low.box_in_view and any("rim is cut off" in n for n in low.notes)
    # the advised height really brings the rim into view
    advised = float(next(n for n in low.notes if "rim is cut off" in n).split("raise the camera to ")[1].split(" cm")[0])
    assert make_plan(box=(280, 200, 45), camera="cm3", height_cm=advised).box_in_view
    wide = make_plan(box=(280, 200, 45), camera="cm3-wide", height_cm=40)
    assert wide.box_in_view and not wide.fits and any("too small" in n for n in wide.notes)


def test_sensor_mode_and_exposure():
    assert make_plan(box=(280, 200, 45), camera="cm3", height_cm=40).sensor_mode.startswith("2304x1296")
    big = make_plan(box=(280, 200, 45), camera="cm3", height_cm=40, frame=(1920, 1440), fps=10)
    assert big.sensor_mode.startswith("4608x2592")
    assert make_plan(box=(280, 200, 45), camera="cm3", height_cm=40, fps=30, flicker_hz=50).exposure_us == (10000, 30000)
    assert make_plan(box=(280, 200, 45), camera="cm3", height_cm=40, fps=30, flicker_hz=60).exposure_us == (8333, 33332)
    assert make_plan(box=(280, 200, 45), camera="c920", height_cm=40).sensor_mode.startswith("MJPG 1280x960")


def test_bad_input_is_refused():
    with pytest.raises(PlanError, match="not a camera"):
        make_plan(box=(280, 200, 45), camera="gopro", height_cm=40)
    with pytest.raises(PlanError, match="height"):
        make_plan(box=(280, 200, 45), camera="cm3", height_cm=4)
    with pytest.raises(PlanError, match="above the box"):
        make_plan(box=(280, 200, 450), camera="cm3", height_cm=40)


def test_config_knows_the_planners_cameras():
    assert set(BUILD_CAMERAS) == set(CAMERAS)


def test_svg_top_view_draws_box_field_and_six_dice():
    plan = make_plan(box=(280, 200, 45), camera="cm3", height_cm=40)
    root = ET.fromstring(plan_svg(plan))
    rects = root.findall("{http://www.w3.org/2000/svg}rect")
    sizes = [(float(r.get("width")), float(r.get("height"))) for r in rects]
    assert (280.0, 200.0) in sizes  # the box, 1 mm a unit
    assert (round(plan.seen_mm[0], 1), round(plan.seen_mm[1], 1)) in sizes
    assert sizes.count((16.0, 16.0)) == 6


def test_small_but_readable_dice_warn_about_calibration():
    far = make_plan(box=(280, 200, 45), camera="cm3", height_cm=48)
    assert far.fits and 40 <= far.die_px < 50
    note = next(n for n in far.notes if "calibration may refuse" in n)
    safer = float(note.split(": ")[-1].split(" cm")[0])
    assert make_plan(box=(280, 200, 45), camera="cm3", height_cm=safer).die_px >= 50
    assert not any("calibration" in n for n in make_plan(box=(280, 200, 45), camera="cm3", height_cm=40).notes)

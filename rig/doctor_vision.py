"""``rig doctor``'s checks of what the camera sees: the colour profile, the light against calibration,
the camera's height and angle against the plan (issue 29: split from :mod:`rig.doctor`).
"""

from __future__ import annotations

from rig.doctor_context import (
    FAIL,
    NA,
    PASS,
    Check,
    Context,
)
from rig.errors import RigError


def check_profile(ctx: Context) -> Check:
    name = "profile"
    if ctx.config is None:
        return Check(name, NA, "config not valid")
    path = ctx.config.profile
    if path is None:
        if ctx.config.camera.source != "virtual":
            return Check(name, FAIL, "no calibration profile configured",
                         "calibrate under the rig's own light with `rig calibrate`, then set "
                         "profile = \"...\" in the config")
        try:
            from rig.vision.profile import default_profile_path

            path = default_profile_path()
        except ImportError:
            return Check(name, NA, "the virtual camera needs no calibration")
        if not path.is_file():
            return Check(name, NA, "the virtual camera needs no calibration")
    if not path.is_file():
        return Check(name, FAIL, f"{path} does not exist",
                     "calibrate under the rig's own light: `rig calibrate` writes the profile "
                     "(docs/building.md#calibration)")
    try:
        from rig.profile_cache import load_profile

        ctx.profile = load_profile(path)  # with its colour table, kept between runs
    except (RigError, ImportError, OSError) as exc:
        return Check(name, FAIL, f"{path}: {exc}", "calibrate again: `rig calibrate` (the old file is replaced)")
    return Check(name, PASS, f"{path} loaded ({ctx.profile!r})")


#: a check frame darker than this (mean of 0..255) fails
DARK_MEAN = 40.0
#: more than this share of blown-out pixels (any channel >= 250) fails
BLOWN_SHARE = 0.02
#: more than this share of pixels the profile's colour models do not know fails: the light changed.
#: Unknown are pixels no colour model fits (UNKNOWN, CLIPPED) and those glare leaves unreadable:
#: a die colour and the floor both fit (BLOWN) or two die colours do (AMBIG).
UNKNOWN_SHARE = 0.15
_LIGHT_FIX = ("the light changed since calibration: restore it (docs/building.md#lighting) "
              "or calibrate again with `rig calibrate`")


def check_light(ctx: Context) -> Check:
    """A quick check frame: exposed sensibly, its colours known to the profile, any dice read confidently."""
    name = "light"
    if ctx.frame is None:
        return Check(name, NA, "no check frame (the camera check did not deliver one)")
    import numpy as np

    frame = np.ascontiguousarray(ctx.frame)
    mean = float(frame.mean())
    blown = float((frame.max(axis=2) >= 250).mean())
    if mean < DARK_MEAN:
        return Check(name, FAIL, f"the check frame is too dark (mean brightness {mean:.0f} of 255)",
                     "light the box bottom evenly (docs/building.md#lighting), then `rig calibrate`")
    if blown > BLOWN_SHARE:
        return Check(name, FAIL, f"{blown:.0%} of the check frame is blown out (glare or too much light)",
                     "diffuse the light or move it sideways so it does not reflect off the dice "
                     "(docs/building.md#lighting)")
    if ctx.profile is None:
        return Check(name, NA, f"brightness {mean:.0f} of 255; no profile to compare the colours with")
    try:
        from rig.vision.dice import AMBIG, BLOWN, CLIPPED, UNKNOWN, prepare, read_dice
    except ImportError as exc:
        return Check(name, NA, f"brightness {mean:.0f} of 255; the dice reader is not available ({exc})")
    try:  # the reader's own view: glare taken off and the light evened out before the colours are labelled
        labels = prepare(frame, ctx.profile).labels
    except RigError as exc:
        return Check(name, FAIL, f"preparing the check frame failed: {exc}", "calibrate again: `rig calibrate`")
    unknown = float(np.isin(labels, (UNKNOWN, CLIPPED, BLOWN, AMBIG)).mean())
    if unknown > UNKNOWN_SHARE:
        return Check(name, FAIL, f"{unknown:.0%} of the check frame has colours the profile does not know "
                                 f"(at most {UNKNOWN_SHARE:.0%} expected)", _LIGHT_FIX)
    try:
        reading = read_dice(frame, ctx.profile)
    except RigError as exc:
        return Check(name, FAIL, f"reading the check frame failed: {exc}", "calibrate again: `rig calibrate`")
    known = f"brightness {mean:.0f} of 255, {1 - unknown:.0%} of the pixels match the profile"
    light = reading.light  # exposure and white balance against the calibrated empty box
    if light is not None and light.reliable and not light.correctable:
        from rig.vision.light import drift_text

        return Check(name, FAIL, f"{drift_text(light)}: beyond what the reader corrects", _LIGHT_FIX)
    if light is not None:
        known += f", light x{light.exposure:.2f} and white balance x{light.warm:.2f} of the calibrated (corrected)"
    if not reading.dice:
        return Check(name, PASS, f"{known}; no dice in view (put dice in the box for a reading check too)")
    if reading.status != "ok":
        reasons = "; ".join(reading.reasons) or "low confidence"
        return Check(name, FAIL, f"{len(reading.dice)} dice seen, reading uncertain: {reasons}", _LIGHT_FIX)
    low = min(d.confidence for d in reading.dice)
    return Check(name, PASS, f"{known}; {len(reading.dice)} dice read (lowest confidence {low:.2f})")


#: the calibrated die size may differ this much from the plan's before the check fails (mounting
#: tolerance: 10 % is 4 cm of height at 40 cm)
PLAN_DIE_TOLERANCE = 0.10


def check_plan(ctx: Context) -> Check:
    """The camera as planned (`rig plan`, the config's [build]): dice the planned size, the box bottom in view."""
    name = "plan"
    if ctx.config is None:
        return Check(name, NA, "config not valid")
    if ctx.config.camera.source == "virtual":
        return Check(name, NA, "the virtual table has no lens to plan (`rig plan` plans a real camera)")
    if ctx.frame is None:
        return Check(name, NA, "no check frame (the camera check did not deliver one)")
    from rig.plan import PlanError, make_plan

    b, cam = ctx.config.build, ctx.config.camera
    h, w = ctx.frame.shape[:2]
    full = (w, h) if cam.crop is None else (round(w / cam.crop[2]), round(h / cam.crop[3]))  # before the crop
    try:
        plan = make_plan(box=b.box, camera=b.camera, height_cm=b.height_cm, frame=full, fps=cam.fps,
                         flicker_hz=cam.flicker_hz)
    except PlanError as exc:
        return Check(name, FAIL, str(exc), "fix [build] in the config (docs/config.md#build)")
    planned = f"{b.camera} at {b.height_cm:g} cm plans dice {plan.die_px:.0f} px"
    if not plan.fits:
        return Check(name, FAIL, f"{planned}: {'; '.join(plan.notes) or 'the plan does not fit'}",
                     "run `rig plan` and change the camera height, lens or picture size")
    problems, fixes = [], []
    measured = ctx.profile.die_px(w) if ctx.profile is not None else None  # a crop leaves the die size alone
    off = measured / plan.die_px - 1 if measured else 0.0
    if measured and abs(off) > PLAN_DIE_TOLERANCE:
        focal_px = plan.die_px * (plan.height_mm - plan.die_mm) / plan.die_mm
        actual_cm = (plan.die_mm * focal_px / measured + plan.die_mm) / 10
        problems.append(f"dice are {measured:.0f} px, {off:+.0%} off the plan's {plan.die_px:.0f} px "
                        f"(the lens looks about {actual_cm:.0f} cm above the box bottom)")
        fixes.append(f"move the camera to {b.height_cm:g} cm above the box bottom, or set [build] height_cm = "
                     f"{actual_cm:.0f} (or camera) to what is built, then calibrate again")
    seen = ""
    try:
        from rig.vision.boxview import find_box_floor

        floor = find_box_floor(ctx.frame)
    except ImportError:
        floor = None
    if floor is not None and floor.touches:
        problems.append(f"the box bottom seems to run off the {' and '.join(floor.touches)} edge of the picture "
                        "(or the light falls off so much there that the wall looks like the floor)")
        fixes.append("centre the camera over the box (or raise it) and light the box evenly, then calibrate again")
    elif floor is not None and cam.crop is not None:
        seen = ", the box bottom in view of the crop"
    elif floor is not None:
        px = plan.box_px()
        seen = (f", the box bottom in view ({floor.size[0]:.0f} x {floor.size[1]:.0f} px; planned "
                f"{px[2] - px[0]:.0f} x {px[3] - px[1]:.0f})")
    if problems:
        return Check(name, FAIL, f"{planned}: " + "; ".join(problems), "; ".join(fixes))
    if measured is None:
        return Check(name, PASS, f"{planned}{seen}; no calibration profile yet to measure the dice with")
    return Check(name, PASS, f"{planned}; calibrated {measured:.0f} px ({off:+.0%}){seen}")

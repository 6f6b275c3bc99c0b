"""``rig doctor``: check a rig's setup, one small check at a time.

Each check is a function ``check_*(ctx) -> Check`` that passes, fails (with the fix) or
does not apply here (a laptop has no GPIO header; a virtual camera needs no libcamera).
:func:`run_checks` runs them in order; the rig is healthy when none failed::

    >>> ctx = Context.create(RigConfig.default(), on_pi=False, systemctl=None, env={})
    >>> check_python(ctx).status
    'pass'
    >>> result = check_gpio(ctx)
    >>> result.status, result.detail
    ('n/a', 'not a Raspberry Pi (GPIOZERO_PIN_FACTORY=mock checks the pin map with simulated pins)')
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rig.config import RigConfig
from rig.errors import RigError

__all__ = ["CHECKS", "Check", "Context", "FAIL", "NA", "PASS", "run_checks", "format_report", "pi_model"]

PASS, FAIL, NA = "pass", "fail", "n/a"
PI_MODEL_FILES = (Path("/proc/device-tree/model"), Path("/sys/firmware/devicetree/base/model"))
SERVICE = "rig"

#: releases known broken for the rig (gpiozero 2.0.1.post1/.post2: pyproject.toml excludes them)
BAD_RELEASES = {"gpiozero": ("2.0.1.post1", "2.0.1.post2")}

#: distribution name -> (import name, minimum version) of what the rig needs
PACKAGES = {
    "numpy": ("numpy", "1.24"),
    "opencv-python-headless": ("cv2", "4.8"),
    "gpiozero": ("gpiozero", "2.0"),
    "starlette": ("starlette", "0.37"),
    "uvicorn": ("uvicorn", "0.29"),
    "sdnotify": ("sdnotify", "0.3"),
}


@dataclass(frozen=True)
class Check:
    """One line of the report: ``status`` is ``"pass"``, ``"fail"`` or ``"n/a"``; a failure has a fix."""

    name: str
    status: str
    detail: str
    fix: str = ""

    @property
    def ok(self) -> bool:
        return self.status != FAIL

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "detail": self.detail, "fix": self.fix}


def pi_model(files: tuple[Path, ...] = PI_MODEL_FILES) -> str | None:
    """The board's model ("Raspberry Pi 4 Model B Rev 1.4") on a Raspberry Pi, else None."""
    for path in files:
        try:
            model = path.read_bytes().decode("ascii", "replace").strip("\x00 \n")
        except OSError:
            continue
        if "raspberry pi" in model.lower():
            return model
    return None


def _run(argv: list[str]) -> tuple[int, str, str]:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, "", str(exc)
    return done.returncode, done.stdout.strip(), done.stderr.strip()


@dataclass
class Context:
    """What the checks look at, and what they learn from each other (the camera's frame, ...)."""

    config: RigConfig | None
    config_error: str | None = None
    config_path: Path | None = None
    on_pi: bool = False
    model: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    pin_factory: Any = None
    data_dir: Path | None = None
    systemctl: str | None = None
    run: Callable[[list[str]], tuple[int, str, str]] = _run
    camera_timeout_s: float = 15.0
    # learnt on the way
    service_active: bool = False
    frame: Any = None
    profile: Any = None
    input_stats: dict[str, Any] | None = None

    @classmethod
    def create(
        cls,
        config: RigConfig | None,
        *,
        config_error: str | None = None,
        config_path: Path | None = None,
        on_pi: bool | None = None,
        env: Mapping[str, str] | None = None,
        pin_factory: Any = None,
        data_dir: Path | None = None,
        systemctl: str | None | bool = True,
        run: Callable[[list[str]], tuple[int, str, str]] = _run,
        camera_timeout_s: float = 15.0,
    ) -> Context:
        """``on_pi=None`` asks the device tree; ``systemctl=True`` looks for it on the PATH."""
        model = pi_model() if on_pi is None else ("Raspberry Pi" if on_pi else None)
        if systemctl is True:
            systemctl = shutil.which("systemctl")
        return cls(config=config, config_error=config_error, config_path=config_path, on_pi=model is not None,
                   model=model, env=dict(os.environ) if env is None else dict(env), pin_factory=pin_factory,
                   data_dir=data_dir, systemctl=systemctl or None, run=run, camera_timeout_s=camera_timeout_s)


# --------------------------------------------------------------------------- the checks


def check_python(ctx: Context) -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info < (3, 11):
        return Check("python", FAIL, f"Python {version}; the rig needs 3.11 or newer",
                     "use Raspberry Pi OS Bookworm or newer (Python 3.11), and make the venv with it")
    return Check("python", PASS, f"Python {version} ({sys.executable})")


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split("."):
        digits = "".join(ch for ch in piece if "0" <= ch <= "9") if piece else ""
        if not digits:
            break
        parts.append(int(digits))
        if not (piece.isascii() and piece.isdigit()):
            break
    return tuple(parts)


def check_packages(ctx: Context) -> Check:
    found, problems = [], []
    for dist, (module, minimum) in PACKAGES.items():
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            version = None
            if dist == "opencv-python-headless":  # any OpenCV build will do
                for other in ("opencv-python", "opencv-contrib-python", "opencv-contrib-python-headless"):
                    try:
                        version = importlib.metadata.version(other)
                        break
                    except importlib.metadata.PackageNotFoundError:
                        pass
        if version is None and importlib.util.find_spec(module) is None:
            problems.append(f"{dist} missing")
        elif version is not None and _version_tuple(version) < _version_tuple(minimum):
            problems.append(f"{dist} {version} is older than {minimum}")
        elif version in BAD_RELEASES.get(dist, ()):
            problems.append(f"{dist} {version} is a release the rig excludes (pip install '{dist}!={version}')")
        else:
            found.append(f"{dist} {version or '(system)'}")
    rig_version = _rig_version()
    if problems:
        return Check("packages", FAIL, "; ".join(problems),
                     "reinstall the rig's dependencies: .venv/bin/pip install -e .  (or `make run` in the source tree)")
    return Check("packages", PASS, f"rig {rig_version}; " + ", ".join(found))


def _rig_version() -> str:
    from rig import __version__

    return __version__


def check_config(ctx: Context) -> Check:
    if ctx.config_error:
        return Check("config", FAIL, ctx.config_error,
                     "correct that line (every key: docs/config.md); `rig config check FILE` checks it again")
    config = ctx.config
    where = str(ctx.config_path) if ctx.config_path else "no config file: the built-in default"
    detail = (f"{where}: {len(config.players)} players, camera {config.camera.source} "
              f"{config.camera.width}x{config.camera.height}")
    warnings = config.warnings()
    if warnings:
        detail += "; warning: " + "; ".join(warnings)
    return Check("config", PASS, detail)


def check_service(ctx: Context) -> Check:
    name = "service"
    if not ctx.systemctl:
        return Check(name, NA, "no systemd here (the service runs the rig on the Pi; `rig run` by hand elsewhere)")
    rc, state, err = ctx.run([ctx.systemctl, "is-active", SERVICE])
    if not state:
        first = err.splitlines()[0] if err else f"systemctl exited {rc}"
        return Check(name, NA, f"systemd is not running here ({first})")
    _, load, _ = ctx.run([ctx.systemctl, "show", "-p", "LoadState", "--value", SERVICE])
    if load == "not-found":
        return Check(name, NA, f"{SERVICE}.service is not installed (on the Pi: `make install` installs it)")
    _, enabled, _ = ctx.run([ctx.systemctl, "is-enabled", SERVICE])
    if state == "active":
        ctx.service_active = True
    if state == "failed":
        return Check(name, FAIL, f"{SERVICE}.service has failed",
                     f"see why: journalctl -u {SERVICE} -e; then: sudo systemctl restart {SERVICE}")
    if enabled not in ("enabled", "enabled-runtime", "static", "alias"):
        return Check(name, FAIL, f"{SERVICE}.service is {state} and {enabled or 'not enabled'}: it will not start at boot",
                     f"sudo systemctl enable --now {SERVICE}")
    return Check(name, PASS, f"{SERVICE}.service is {state} ({enabled})")


def _busy_with_service(ctx: Context, what: str) -> Check | None:
    if ctx.service_active:
        return Check(what, NA, f"the running {SERVICE} service holds the camera and pins; to check them: "
                               f"sudo systemctl stop {SERVICE}, rig doctor, sudo systemctl start {SERVICE}")
    return None


def check_picamera2(ctx: Context) -> Check:
    name = "picamera2"
    if ctx.config is None:
        return Check(name, NA, "config not valid")
    if ctx.config.camera.source != "picamera2":
        return Check(name, NA, f"the camera is {ctx.config.camera.source}")
    if not ctx.on_pi:
        return Check(name, NA, "not a Raspberry Pi")
    missing = [module for module in ("picamera2", "libcamera") if importlib.util.find_spec(module) is None]
    if missing:
        return Check(name, FAIL, f"{' and '.join(missing)} not importable from this Python",
                     "sudo apt install --no-install-recommends python3-picamera2, and make the venv with "
                     "--system-site-packages (python3 -m venv --system-site-packages .venv)")
    from rig.hardware.picamera import import_picamera2

    try:  # really import it: with NumPy 2 in the venv picamera2 is found but fails to import
        import_picamera2()
    except RigError as exc:
        return Check(name, FAIL, str(exc).removeprefix("camera picamera2: "),
                     "make install (it pins numpy<2 on the Pi with constraints-pi.txt), or "
                     ".venv/bin/pip install -c constraints-pi.txt -e '.[pi]'")
    try:
        version = importlib.metadata.version("picamera2")
    except importlib.metadata.PackageNotFoundError:
        version = "(system)"
    import numpy

    return Check(name, PASS, f"picamera2 {version} imports (numpy {numpy.__version__}, libcamera)")


def _read_one_frame(source, timeout_s: float) -> tuple[Any, float]:
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            start = time.monotonic()
            source.start()
            item = source.read()
            result["item"] = item
            result["seconds"] = time.monotonic() - start
        except BaseException as exc:  # noqa: BLE001 - reported by the caller
            result["error"] = exc

    worker = threading.Thread(target=work, name="rig-doctor-camera", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if worker.is_alive():
        raise TimeoutError(f"no frame within {timeout_s:g} s")
    if "error" in result:
        raise result["error"]
    if result.get("item") is None:
        raise EOFError("the source gave no frame (an empty recording?)")
    return result["item"][1], result["seconds"]


def check_camera(ctx: Context) -> Check:
    name = "camera"
    if ctx.config is None:
        return Check(name, NA, "config not valid")
    cam = ctx.config.camera
    if cam.source == "picamera2" and not ctx.on_pi:
        return Check(name, NA, "not a Raspberry Pi (the virtual camera, camera.source = \"virtual\", works anywhere)")
    if cam.source in ("picamera2",) or cam.source.startswith("usb:"):
        busy = _busy_with_service(ctx, name)
        if busy:
            return busy
    fix = {
        "picamera2": "check the ribbon cable (contacts towards the board on a Pi 4) and `rpicam-hello --list-cameras`; "
                     "reboot after connecting the camera",
        "usb": "plug the webcam in and check `ls /dev/video*`; try another number in camera.source (usb:1, ...)",
        "replay": "check camera.source points at a recording made with `rig record`",
        "virtual": "reinstall the rig (.venv/bin/pip install -e .)",
    }[cam.source.split(":")[0]]
    try:
        from rig.hardware.camera import open_source

        options = dict(cam.options(), loop=False)
        source = open_source(cam.source, realtime=False, profile=ctx.profile, **options)
    except (RigError, ImportError) as exc:
        return Check(name, FAIL, f"{cam.source}: {exc}", fix)
    try:
        frame, seconds = _read_one_frame(source, ctx.camera_timeout_s)
    except (RigError, OSError, TimeoutError, EOFError, RuntimeError) as exc:
        return Check(name, FAIL, f"{cam.source}: opened but no frame: {exc}", fix)
    finally:
        try:
            source.close()
        except Exception:  # noqa: BLE001 - the check's result is what matters
            pass
    ctx.frame = frame
    shape = getattr(frame, "shape", None)
    got = f"{shape[1]}x{shape[0]}" if shape is not None and len(shape) >= 2 else "a frame"
    detail = f"{cam.source}: {got} frame in {seconds:.2f} s"
    if cam.source != "virtual" and cam.crop is None and shape is not None and (shape[1], shape[0]) != (cam.width, cam.height):
        detail += f" (asked for {cam.width}x{cam.height})"
    settings = source.settings() if callable(getattr(source, "settings", None)) else {}
    if settings.get("exposure_us"):
        detail += (f"; exposure {settings['exposure_us']} µs, gain {settings.get('analogue_gain', 1.0):g}"
                   f"{' (locked)' if getattr(source, 'locked', False) else ''}")
    if getattr(source, "focus_detail", ""):
        detail += f"; {source.focus_detail}"
    if settings.get("focus_fom") is not None:
        detail += f", FocusFoM {settings['focus_fom']}"
    return Check(name, PASS, detail)


def _pin_factory(ctx: Context) -> tuple[Any, Check | None]:
    if ctx.pin_factory is not None:
        return ctx.pin_factory, None
    if not ctx.on_pi and not ctx.env.get("GPIOZERO_PIN_FACTORY"):
        return None, Check("gpio", NA, "not a Raspberry Pi (GPIOZERO_PIN_FACTORY=mock checks the pin map "
                                       "with simulated pins)")
    from rig.hardware.tosses import resolve_pin_factory

    try:
        return resolve_pin_factory(), None
    except RigError as exc:
        fix = "sudo apt install python3-lgpio, and make the venv with --system-site-packages"
        if "lgd-nfy" in str(exc):
            fix = "run the rig from a writable folder (cd ~), or set LG_WD; the service runs in /var/lib/rig"
        elif ctx.model and "Raspberry Pi 5" in ctx.model:
            fix += ("; on a Pi 5 also update the system (sudo apt update && sudo apt full-upgrade, then reboot): "
                    "older kernels number the header's gpiochip differently and lgpio cannot find it")
        return None, Check("gpio", FAIL, str(exc), fix)


def check_gpio(ctx: Context) -> Check:
    """Every configured pin exists and is free (opened through the real gpiozero stack)."""
    name = "gpio"
    if ctx.config is None:
        return Check(name, NA, "config not valid")
    busy = _busy_with_service(ctx, name)
    if busy:
        return busy
    factory, problem = _pin_factory(ctx)
    if problem:
        return problem
    from rig.hardware.tosses import TossInputs, describe_factory

    try:
        inputs = TossInputs.from_config(ctx.config, pin_factory=factory)
    except RigError as exc:
        fix = ("another program holds that pin (is the rig already running? `sudo systemctl stop rig`), "
               "or choose another pin (docs/building.md#pin-map)")
        if ctx.model and "Raspberry Pi 5" in ctx.model and "gpiochip" in str(exc):
            fix = ("update the system (sudo apt update && sudo apt full-upgrade, then reboot): on a Pi 5 older "
                   "kernels number the header's gpiochip differently")
        return Check(name, FAIL, str(exc), fix)
    with inputs:
        inputs.flush()
        ctx.input_stats = inputs.stats()
    pins = ", ".join(f"{p.name} {p.pin}" for p in ctx.config.players)
    timing = describe_factory(factory)
    if ctx.on_pi and ctx.pin_factory is None and type(factory).__name__ != "LGPIOFactory" and "mock" not in timing:
        return Check(name, FAIL, f"{len(ctx.input_stats)} pins free ({pins}), but read with {timing}",
                     "sudo apt install python3-lgpio and set GPIOZERO_PIN_FACTORY=lgpio: toss order needs "
                     "the kernel's edge timestamps")
    return Check(name, PASS, f"{len(ctx.input_stats)} pins exist and are free ({pins}); {timing}")


def check_inputs_idle(ctx: Context) -> Check:
    """No button is pressed and no beam blocked while nobody touches them."""
    name = "inputs idle"
    if ctx.input_stats is None:
        return Check(name, NA, "the pins were not opened (see gpio above)" if ctx.config else "config not valid")
    stuck = [s for s in ctx.input_stats.values() if s.stuck]
    if not stuck:
        return Check(name, PASS, f"none of the {len(ctx.input_stats)} inputs is active")
    lines = [f"{s.player} ({s.pin}) {'beam is blocked' if s.kind == 'beam' else 'button is down'}" for s in stuck]
    fixes = []
    if any(s.kind == "beam" for s in stuck):
        fixes.append("beam: clear the slot, check the emitter has power (3V3 and ground) and faces the receiver")
    if any(s.kind != "beam" for s in stuck):
        fixes.append("button: release it; check it is wired to the NO and COM terminals, not NC")
    return Check(name, FAIL, "active while nobody touches them: " + "; ".join(lines), "; ".join(fixes))


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


#: ``vcgencmd get_throttled`` bits: now (0-3) and since boot (16-19)
_THROTTLE_BITS = {0: "under-voltage now", 1: "CPU frequency capped now", 2: "throttled now",
                  3: "soft temperature limit now", 16: "under-voltage since boot", 17: "frequency capped since boot",
                  18: "throttled since boot", 19: "soft temperature limit since boot"}


def check_power(ctx: Context) -> Check:
    """The firmware's under-voltage and throttling flags (``vcgencmd get_throttled``)."""
    name = "power"
    if not ctx.on_pi:
        return Check(name, NA, "not a Raspberry Pi")
    rc, out, err = ctx.run(["vcgencmd", "get_throttled"])
    if rc != 0 or "=" not in out:
        return Check(name, NA, f"vcgencmd get_throttled gave no answer ({err or out or f'exit {rc}'})")
    try:
        flags = int(out.split("=", 1)[1].strip(), 16)
    except ValueError:
        return Check(name, NA, f"vcgencmd get_throttled: {out!r} not understood")
    found = [words for bit, words in _THROTTLE_BITS.items() if flags & (1 << bit)]
    if not found:
        return Check(name, PASS, f"no under-voltage or throttling ({out})")
    if flags & 0x10001:
        return Check(name, FAIL, f"{', '.join(found)} ({out})",
                     "use the official power supply (5.1 V 3 A for a Pi 4, 5.1 V 5 A for a Pi 5) and a short cable: "
                     "under-voltage resets the camera and drops GPIO edges")
    return Check(name, FAIL, f"{', '.join(found)} ({out})",
                 "cool the Pi (a heatsink or the case fan; keep it out of the lamp's heat)")


def _data_dir(ctx: Context) -> Path:
    from rig.engine.paths import resolve_data_dir

    configured = ctx.config.data_dir if ctx.config is not None else None
    return resolve_data_dir(ctx.data_dir, configured=configured, env=ctx.env)


def check_data_dir(ctx: Context) -> Check:
    name = "data dir"
    folder = _data_dir(ctx)
    fix = (f"make it writable for this user (sudo chown -R $USER {folder}), or set data_dir in the config "
           "to a folder you own")
    if folder.exists() and not folder.is_dir():
        return Check(name, FAIL, f"{folder} is a file, not a folder", "set data_dir to a folder")
    existing = folder
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        return Check(name, FAIL, f"{folder} cannot be created: {existing} is a file", "set data_dir to a folder")
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".rig-doctor-", delete=True) as probe:
            probe.write(b"x")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        return Check(name, FAIL, f"{existing} is not writable ({exc.strerror})", fix)
    if existing != folder:
        return Check(name, PASS, f"{folder} (created at the first `rig run`; {existing} is writable)")
    usage = shutil.disk_usage(folder)
    if usage.free < 50 * 1024 * 1024:
        return Check(name, FAIL, f"{folder}: only {usage.free // (1024 * 1024)} MB free",
                     "free some space on the SD card (old recordings? `rig record` folders)")
    return Check(name, PASS, f"{folder} writable, {usage.free / 1e9:.1f} GB free")


def check_database(ctx: Context) -> Check:
    name = "database"
    from rig.engine.paths import database_path

    folder = _data_dir(ctx)
    path = database_path(folder)
    if not path.exists():
        return Check(name, NA, f"no event log yet at {path} (the first `rig run` creates it)")
    try:
        from rig.engine.log import open_log

        with open_log(folder, create=False) as log:
            facts = log.check()
            loss = log.loss
    except (RigError, OSError) as exc:
        return Check(name, FAIL, str(exc), "move the file away (keep it: the games are in it) and start a new log; "
                                          "`rig history` reads old logs")
    if facts.get("integrity") != "ok":
        return Check(name, FAIL, f"{path}: integrity check says {facts.get('integrity')}",
                     "move the file away (keep it for rescue) so the rig starts a new log")
    if loss:
        from rig.engine.log import loss_text

        return Check(name, FAIL, f"{path}: {loss.get('lost')} acknowledged event(s) lost (the log ends at "
                                 f"#{loss.get('found')}, the rig had acknowledged #{loss.get('acked')})",
                     loss_text(loss, path))
    if str(facts.get("journal_mode", "")).lower() != "wal":
        return Check(name, FAIL, f"{path}: journal mode {facts.get('journal_mode')}, not WAL",
                     "is the data folder on a network share? keep it on the Pi's own disk")
    return Check(name, PASS, f"{path}: {facts.get('events')} events, {facts.get('games')} games, "
                             f"schema {facts.get('schema_version')}, integrity ok")


#: the checks, in the order they run: the profile's exposure and white balance lock the camera,
#: whose frame the light check reads
CHECKS: tuple[Callable[[Context], Check], ...] = (
    check_python,
    check_packages,
    check_power,
    check_config,
    check_service,
    check_picamera2,
    check_profile,
    check_camera,
    check_light,
    check_plan,
    check_gpio,
    check_inputs_idle,
    check_data_dir,
    check_database,
)


def run_checks(ctx: Context, checks=CHECKS) -> list[Check]:
    """Run every check; a check that crashes is reported as failed, never stops the others."""
    results = []
    for check in checks:
        try:
            results.append(check(ctx))
        except Exception as exc:  # noqa: BLE001 - a doctor must finish its round
            label = check.__name__.removeprefix("check_").replace("_", " ")
            results.append(Check(label, FAIL, f"the check itself failed: {type(exc).__name__}: {exc}",
                                 "please report this with the output of `rig doctor`"))
    return results


def format_report(results: list[Check], *, header: str = "") -> str:
    """The pass/fail list as ``rig doctor`` prints it."""
    lines = [header] if header else []
    width = max((len(r.name) for r in results), default=8)
    marks = {PASS: "PASS", FAIL: "FAIL", NA: "n/a "}
    for r in results:
        lines.append(f"  {marks[r.status]}  {r.name:<{width}}  {r.detail}")
        if r.status == FAIL and r.fix:
            lines.append(f"        {'':<{width}}  fix: {r.fix}")
    passed = sum(r.status == PASS for r in results)
    failed = sum(r.status == FAIL for r in results)
    na = sum(r.status == NA for r in results)
    verdict = "all applicable checks pass" if not failed else f"{failed} failed"
    lines.append(f"{len(results)} checks: {passed} passed, {failed} failed, {na} not applicable here: {verdict}")
    return "\n".join(lines) + "\n"

"""``rig doctor``'s checks of the devices: picamera2 and the camera giving frames, the pin factory and
every player's input (wired, idle); busy devices are skipped while the rig's service holds them
(issue 29: split from :mod:`rig.doctor`).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import threading
import time
from typing import Any

from rig.doctor_context import (
    FAIL,
    NA,
    PASS,
    SERVICE,
    Check,
    Context,
)
from rig.errors import RigError


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

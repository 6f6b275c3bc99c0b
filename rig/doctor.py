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
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from rig.config import RigConfig  # noqa: F401 - the docstring's example uses it
from rig.errors import RigError
from rig.doctor_context import (  # noqa: F401 - moved (issue 29); the old import path works
    PASS, FAIL, NA, PI_MODEL_FILES, SERVICE, BAD_RELEASES, PACKAGES, Check, pi_model, _run, Context,
)
from rig.doctor_devices import (  # noqa: F401 - moved (issue 29); the old import path works
    _busy_with_service, check_picamera2, _read_one_frame, check_camera, _pin_factory, check_gpio,
    check_inputs_idle,
)
from rig.doctor_vision import (  # noqa: F401 - moved (issue 29); the old import path works
    check_profile, DARK_MEAN, BLOWN_SHARE, UNKNOWN_SHARE, _LIGHT_FIX, check_light, PLAN_DIE_TOLERANCE,
    check_plan,
)

__all__ = ["CHECKS", "Check", "Context", "FAIL", "NA", "PASS", "run_checks", "format_report", "pi_model"]


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


def check_die_sizes(ctx: Context) -> Check:
    """The pip dice's sizes ``rig run`` learned on this table and keeps (:mod:`rig.vision.kept_size`)."""
    name = "dice sizes"
    from rig.vision.kept_size import FILE_NAME, list_kept

    path = _data_dir(ctx) / FILE_NAME
    kept = list_kept(path) if path.exists() else []
    if not kept:
        return Check(name, NA, "none kept yet (a pip game learns its dice's size from the first sure roll)")
    return Check(name, PASS, f"{path}: " + "; ".join(kept) + " (relearned when the dice no longer fit; "
                 "delete the file to learn them afresh)")


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
    check_die_sizes,
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

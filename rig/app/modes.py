"""Which rig runs: the mode (real or simulated), the config it reads, and the seats a simulation adds."""

from __future__ import annotations

import os
from pathlib import Path

from rig.config import RigConfig, default_config_path
from rig.errors import RunError

MODES = ("sim", "real")
PI_MODEL_FILE = Path("/proc/device-tree/model")


def on_raspberry_pi(model_file: Path = PI_MODEL_FILE) -> bool:
    """True on a Raspberry Pi (its device tree says so)."""
    try:
        return "raspberry pi" in model_file.read_bytes().decode("ascii", "replace").lower()
    except OSError:
        return False


def resolve_mode(requested: str | None, config: RigConfig, *, on_pi: bool | None = None) -> str:
    """``"real"`` or ``"sim"``: as requested, else real on a Pi whose config names a real camera.

    >>> resolve_mode(None, RigConfig.default(), on_pi=True)  # the default config has the virtual camera
    'sim'
    >>> from dataclasses import replace
    >>> from rig.config import CameraConfig
    >>> resolve_mode(None, replace(RigConfig.default(), camera=CameraConfig("picamera2")), on_pi=True)
    'real'
    >>> resolve_mode(None, replace(RigConfig.default(), camera=CameraConfig("picamera2")), on_pi=False)
    'sim'
    """
    if requested is not None:
        if requested not in MODES:
            raise RunError(f"unknown mode {requested!r} (modes: {', '.join(MODES)})")
        return requested
    if on_pi is None:
        on_pi = on_raspberry_pi()
    return "real" if on_pi and config.camera.source != "virtual" else "sim"


def load_config(path: str | os.PathLike[str] | None) -> RigConfig:
    """The config file given, else ``$RIG_CONFIG``, else ``/etc/rig/rig.toml`` if installed, else the
    built-in default (five simulated players)."""
    path = path if path is not None else default_config_path()
    return RigConfig.load(path) if path is not None else RigConfig.default()


SIM_FRAME = (640, 480)
#: the most seats a game has (the largest game seats 8 players)
MAX_SEATS = 8


def sim_seats(players) -> tuple:
    """The configured inputs, then mock inputs on free pins for the seats up to :data:`MAX_SEATS`.

    >>> [(p.name, p.pin) for p in sim_seats(RigConfig.default().players)[5:]]
    [('seat 6', 'GPIO26'), ('seat 7', 'GPIO23'), ('seat 8', 'GPIO24')]
    """
    from rig.config import DEFAULT_PINS, PlayerInput

    seats = list(players)
    used = {p.pin for p in seats}
    names = {p.name for p in seats}
    free = [pin for pin in (*DEFAULT_PINS, *(f"GPIO{n}" for n in range(2, 28))) if pin not in used]
    while len(seats) < MAX_SEATS and free:
        pin = free.pop(0)
        used.add(pin)
        name = f"seat {len(seats) + 1}"
        while name in names:
            name += "'"
        names.add(name)
        seats.append(PlayerInput(name, pin, "button"))
    return tuple(seats)


#: the virtual table renders at the configured camera rate, at most this
SIM_MAX_FPS = 30.0

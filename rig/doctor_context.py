"""What every ``rig doctor`` check gets and gives: :class:`Context` (the config, the machine, how to run a
command) and :class:`Check` (pass, fail with the fix, or n/a) (issue 29: split from :mod:`rig.doctor`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rig.config import RigConfig

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

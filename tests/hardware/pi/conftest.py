"""Tests on a real Raspberry Pi: skipped unless ``RIG_HARDWARE=1``.

Run them on the Pi with ``make hardware-test`` (``RIG_HARDWARE=1 .venv/bin/python -m pytest -q
tests/hardware/pi``). While ``rig.service`` runs it holds the camera and the pins: the tests are
then skipped, saying so (``sudo systemctl stop rig`` first, ``sudo systemctl start rig`` after).
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def _service_running() -> bool:
    systemctl = shutil.which("systemctl")
    if systemctl is None:
        return False
    try:
        done = subprocess.run([systemctl, "is-active", "--quiet", "rig"], timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def pytest_collection_modifyitems(config, items):
    on_pi = os.environ.get("RIG_HARDWARE") == "1"
    skip = pytest.mark.skip(reason="needs a real Raspberry Pi: set RIG_HARDWARE=1")
    if on_pi and _service_running():
        on_pi = False
        skip = pytest.mark.skip(reason="rig.service is running and holds the camera and pins: "
                                       "sudo systemctl stop rig, make hardware-test, sudo systemctl start rig")
    for item in items:
        if HERE == Path(item.path).resolve().parent or HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.hardware)
            if not on_pi:
                item.add_marker(skip)

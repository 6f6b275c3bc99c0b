"""Tests on a real Raspberry Pi: skipped unless ``RIG_HARDWARE=1``.

Run them on the Pi with ``RIG_HARDWARE=1 .venv/bin/python -m pytest -q tests/hardware/pi``.
"""

import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    on_pi = os.environ.get("RIG_HARDWARE") == "1"
    skip = pytest.mark.skip(reason="needs a real Raspberry Pi: set RIG_HARDWARE=1")
    for item in items:
        if HERE == Path(item.path).resolve().parent or HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.hardware)
            if not on_pi:
                item.add_marker(skip)

"""Suite-wide fixtures and test ordering."""

import importlib.util
from pathlib import Path

import pytest


def pytest_collection_modifyitems(config, items):
    # Playwright's sync API keeps an event loop running on the main thread for as long as the
    # session-scoped browser lives; tests calling asyncio.run() must not come after it.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture
def no_gpio(monkeypatch):
    """This machine as one without GPIO: skipped where a pin library or a Pi device tree is present."""
    for module in ("lgpio", "RPi", "pigpio"):
        if importlib.util.find_spec(module) is not None:
            pytest.skip(f"{module} is installed: this machine may have GPIO")
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine has a device tree: gpiozero's native factory may load")
    from gpiozero import Device

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)

"""Suite-wide fixtures and test ordering."""

import importlib.util
from pathlib import Path

import pytest


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    # Playwright's sync API keeps an event loop running on the main thread for as long as the browser
    # lives (package-scoped: tests/browser/conftest.py); tests calling asyncio.run() must not run then.
    # In one process the browser tests come last; under pytest-xdist (`make test`: -n 2 --dist loadgroup)
    # they are one group, run one after another by one worker, whose browser closes when they are done.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.xdist_group("browser"))


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

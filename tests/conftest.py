"""Suite-wide fixtures and test ordering."""

import importlib.util
from pathlib import Path

import pytest


BROWSER_TESTS = "tests/browser/"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under pytest-xdist (`make test`: -n 2 --dist loadgroup) the browser tests are one group, run in
    their order by one worker: the xdist_group "browser" (pytest-xdist 3.8 marks a group in the node id,
    which pytest 9 no longer lets it change, so the group is also known here by its folder)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class BrowserGroupScheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "browser" if nodeid.startswith(BROWSER_TESTS) else super()._split_scope(nodeid)

    return BrowserGroupScheduling(config, log)


def pytest_itemcollected(item):
    if item.get_closest_marker("browser") is not None:
        assert item.nodeid.startswith(BROWSER_TESTS), f"a browser test belongs in {BROWSER_TESTS}: {item.nodeid}"
        item.add_marker(pytest.mark.xdist_group("browser"))


def pytest_collection_modifyitems(config, items):
    # Playwright's sync API keeps an event loop running on the main thread for as long as the browser
    # lives (package-scoped: tests/browser/conftest.py, so it closes once the browser tests are done);
    # tests calling asyncio.run() must not run meanwhile. In one process the browser tests come last.
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

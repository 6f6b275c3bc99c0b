"""Fixtures for hardware tests: gpiozero's real MockFactory, fresh for every test."""

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from rig.hardware.gpio_mock import TickPin


def _installed(factory):
    saved = Device.pin_factory
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def mock_factory():
    """A fresh :class:`MockFactory` (also gpiozero's default factory during the test)."""
    yield from _installed(MockFactory())


@pytest.fixture
def tick_factory():
    """A fresh :class:`MockFactory` whose pins are :class:`~rig.hardware.gpio_mock.TickPin`."""
    yield from _installed(MockFactory(pin_class=TickPin))

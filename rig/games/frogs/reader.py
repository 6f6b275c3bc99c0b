"""Lunar Laser Frogs' dice reader: the colour-calibrated die finder of :mod:`rig.vision.dice`."""

from __future__ import annotations

from typing import Any, Callable


def reader(profile: Any) -> Callable[[Any], Any]:
    """Read a frame's six frog dice with the calibration ``profile``."""
    from rig.vision.dice import read_dice

    return lambda frame: read_dice(frame, profile)

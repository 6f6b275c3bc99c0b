"""Lunar Laser Frogs' dice reader: the colour-calibrated die finder of :mod:`rig.vision.dice`."""

from __future__ import annotations

from typing import Any, Callable


def reader(profile: Any) -> Callable[[Any], Any]:
    """Read a frame's six frog dice with the calibration ``profile`` (``thrown``: how many dice were thrown,
    when the tracker knows all are in the box: a die it is short of is looked for in a wall's deep shade)."""
    from rig.vision.dice import read_dice

    return lambda frame, *, thrown=None: read_dice(frame, profile, thrown=thrown)

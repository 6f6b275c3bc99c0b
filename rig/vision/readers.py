"""What the roll tracker (:class:`rig.vision.rolls.RollTracker`) wants of a game's dice reader.

A game's reader (``rig.registry.get(name).reader(profile=..., params=...)``, built in its package
``rig.games.<name>``) is ``read(frame) -> reading`` whose reading has ``dice`` (each with
``face``, ``x``, ``y``, ``confidence``), ``status`` and ``reasons``. An empty box is a sure
reading (status ``ok``, no dice), so the tracker sees the box being cleared between throws:
:func:`empty_is_sure` makes a pip reader's reading so.

>>> from rig.vision.anydie import PipDiceReading
>>> empty_is_sure(PipDiceReading((), "uncertain", ("0 dice seen, the game has 2",))).status
'ok'
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any


def empty_is_sure(reading: Any) -> Any:
    """A reading without dice is a sure one (the box was cleared), whatever the reader thought."""
    if not reading.dice and reading.status != "ok":
        return replace(reading, status="ok", reasons=())
    return reading


def pip_params(params: Any = None) -> Any:
    """The pip reader's parameters: ``params``, or ``calibration/pips.toml``."""
    from rig.vision.pips import PipParams

    return params if params is not None else PipParams.load()

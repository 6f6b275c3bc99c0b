"""The dice reader of each game, as the roll tracker (:class:`rig.vision.rolls.RollTracker`) wants it.

``reader_for(game, profile=..., params=...)`` returns ``read(frame) -> reading`` whose
reading has ``dice`` (each with ``face``, ``x``, ``y``, ``confidence``), ``status`` and
``reasons``. An empty box is a sure reading (status ``ok``, no dice), so the tracker sees
the box being cleared between throws.

>>> from rig.vision.render_pips import render_start_roll
>>> read = reader_for("banana")
>>> frame, truth = render_start_roll(2)
>>> sorted(d.face for d in read(frame).dice) == sorted([f"white:{truth['white']}", f"black:{truth['black']}"])
True
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

GAMES = ("frogs", "blitz", "banana", "lego")
#: how many dice each game's tracker expects in the box
DICE = {"frogs": 6, "blitz": 9, "banana": 2, "lego": 1}


def _empty_is_sure(reading: Any) -> Any:
    if not reading.dice and reading.status != "ok":
        return replace(reading, status="ok", reasons=())
    return reading


def reader_for(game: str, *, profile: Any = None, params: Any = None) -> Callable[[Any], Any]:
    """The read function for ``game``'s dice (frogs needs the calibration ``profile``)."""
    if game == "frogs":
        from rig.vision.dice import read_dice

        return lambda frame: read_dice(frame, profile)
    from rig.vision.pips import PipParams

    params = params if params is not None else PipParams.load()
    if game == "blitz":
        from rig.vision.blitz import read_blitz

        return lambda frame: _empty_is_sure(read_blitz(frame, params))
    if game == "banana":
        from rig.vision.blitz import read_start_roll

        return lambda frame: _empty_is_sure(read_start_roll(frame, params))
    if game == "lego":
        from rig.vision.lego import read_lego

        return lambda frame: read_lego(frame, params)
    from rig.vision.errors import VisionError

    raise VisionError(f"no dice reader for game {game!r} (games: {', '.join(GAMES)})")

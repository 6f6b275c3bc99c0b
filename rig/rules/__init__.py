"""The shared core of the games' rules: plain standard-library Python.

No camera, GPIO, image, database or web code is imported here (or below); every other
layer imports the rules, never the reverse. Each game's own rules are its package's ``rules``
module (``rig.games.<name>.rules``, found through :mod:`rig.registry`) with a
``score_request(data) -> dict`` entry point used by ``rig score``; they import nothing of the rig
but this core and :mod:`rig.errors`. Here: the error for a game the rig does not know, and the
χ² test of :mod:`rig.rules.fairness`.
"""

from __future__ import annotations

from rig.errors import RigError


class UnknownGameError(RigError):
    """A game name the rig does not know."""

"""What the simulator and the calibration desk see of the rig they work on: small protocols, so
that neither imports :mod:`rig.app.runner` (not even for type hints: no import circle, issue 29).
:class:`rig.app.runner.Rig` has every member below."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol


class SimulatedRig(Protocol):
    """The rig as :class:`rig.app.simulator.Simulator` drives it (its mock pins, its virtual table)."""

    config: Any
    game: Any
    inputs: Any
    service: Any
    source: Any
    tracker: Any

    def input_of(self, player: str) -> str: ...

    def use_game(self, state: dict) -> None: ...


class CalibratedRig(Protocol):
    """The rig as :class:`rig.app.calibration_desk.CalibrationDesk` calibrates it (its camera, its profile)."""

    data_dir: Path
    mode: str
    profile: Any
    seed: int
    source: Any
    watcher: Any

    def read_dice(self, frame: Any) -> Any: ...

    def use_profile(self, profile: Any, name: str) -> None: ...

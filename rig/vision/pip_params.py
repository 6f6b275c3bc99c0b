"""The pip readers' parameters (``calibration/pips.toml``): how pips look (:class:`BlobParams`), how die
bodies are found (:class:`FindParams`), both together (:class:`PipParams`), loaded and checked (issue
29: split from :mod:`rig.vision.pips`, which re-exports every name).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

from rig.vision.anydie_params import AnyDieParams
from rig.vision.errors import VisionError

#: The parameter file shipped with the rig.
DEFAULT_PARAMS_PATH = Path(__file__).resolve().parents[2] / "calibration" / "pips.toml"


class PipParamsError(VisionError):
    """The pip reader's parameter file is missing, unreadable or has a wrong key/value."""


@dataclass(frozen=True)
class BlobParams:
    """How a crop is segmented into pip blobs (the ``[blobs]`` table)."""

    work_px: int = 64
    min_scale: float = 2.0
    bright_percentile: float = 90.0
    dark_ratio: float = 0.7
    min_area: float = 0.004
    max_aspect: float = 2.5
    min_fill: float = 0.4
    drop_border: bool = True
    size_ratio: float = 0.5
    max_size_ratio: float = 3.0
    margin: float = 0.1
    median_reference: bool = True
    split_merged: bool = True


#: The ``[whole_die]`` overrides used when the file has none.
_WHOLE_DIE = {"size_ratio": 0.8, "max_aspect": 1.6, "min_fill": 0.6}


@dataclass(frozen=True)
class FindParams:
    """How white dice are found and read in a whole frame (the ``[find]`` table)."""

    contrast: float = 25.0
    background: float = 0.3
    close: float = 0.019
    min_area: float = 0.0008
    max_area: float = 0.03
    max_aspect: float = 2.2
    min_fill: float = 0.5
    grow: float = 0.1
    split_area: float = 1.7
    work_px: int = 96
    dark_ratio: float = 0.7
    pip_min_px: float = 1.5
    pip_max_aspect: float = 1.6
    pip_min_fill: float = 0.5
    pip_size_ratio: float = 0.45
    pip_link: float = 4.0
    ref_pips: int = 2
    pair_max_aspect: float = 2.6
    min_pip_size: float = 0.06
    max_pip_size: float = 0.29
    pattern_tolerance: float = 0.35
    min_confidence: float = 0.6


@dataclass(frozen=True)
class PipParams:
    """All pip-reader parameters; ``whole_die`` overrides ``blobs`` for whole die bodies."""

    blobs: BlobParams = BlobParams()
    whole_die: BlobParams = BlobParams(**_WHOLE_DIE)
    find: FindParams = FindParams()
    colour: Mapping[str, Any] = field(default_factory=dict)  # coloured dice: rig.vision.coloured
    anydie: "AnyDieParams" = field(default_factory=lambda: _anydie_defaults())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "pip parameters") -> "PipParams":
        known = {"blobs", "whole_die", "find", "colour", "anydie"}
        unknown = set(data) - known
        if unknown:
            raise PipParamsError(f"{source}: unknown table(s) {sorted(unknown)} (known: {sorted(known)})")
        blobs = _section(BlobParams, data.get("blobs", {}), f"{source} [blobs]")
        whole = _section(BlobParams, {**{f.name: getattr(blobs, f.name) for f in fields(BlobParams)},
                                      **_WHOLE_DIE, **data.get("whole_die", {})}, f"{source} [whole_die]")
        find = _section(FindParams, data.get("find", {}), f"{source} [find]")
        anydie = _section(AnyDieParams, data.get("anydie", {}), f"{source} [anydie]")
        return cls(blobs, whole, find, _colour_section(data.get("colour", {}), f"{source} [colour]"), anydie)

    @classmethod
    def load(cls, path: str | Path | None = None) -> "PipParams":
        """Read a TOML parameter file (default: ``calibration/pips.toml``)."""
        path = Path(path) if path is not None else DEFAULT_PARAMS_PATH
        from rig.textfile import read_text_limited

        if not os.path.lexists(path):
            raise PipParamsError(f"pip parameter file {path} does not exist")
        try:
            data = tomllib.loads(read_text_limited(path, what="pip parameter file", error=PipParamsError))
        except (tomllib.TOMLDecodeError, RecursionError) as exc:
            raise PipParamsError(f"cannot read pip parameter file {path}: {exc}") from None
        return cls.from_dict(data, source=str(path))


def _anydie_defaults():
    return AnyDieParams()


def _section(cls, data: Any, where: str):
    if not isinstance(data, Mapping):
        raise PipParamsError(f"{where} must be a table")
    names = {f.name: f for f in fields(cls)}
    unknown = set(data) - set(names)
    if unknown:
        raise PipParamsError(f"{where}: unknown key(s) {sorted(unknown)}")
    values = {}
    for key, value in data.items():
        default = getattr(cls(), key)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        else:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
        if not ok:
            raise PipParamsError(f"{where}: {key} must be {'true/false' if isinstance(default, bool) else 'a number ≥ 0'}, not {value!r}")
        values[key] = type(default)(value)
    return cls(**values)


_COLOUR_KEYS = {"body_contrast", "dot_contrast", "dot_min_area", "min_die_area", "max_die_area"}


def _colour_section(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise PipParamsError(f"{where} must be a table")
    unknown = set(data) - _COLOUR_KEYS - {"colors"}
    if unknown:
        raise PipParamsError(f"{where}: unknown key(s) {sorted(unknown)}")
    out: dict[str, Any] = {}
    for key in _COLOUR_KEYS & set(data):
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise PipParamsError(f"{where}: {key} must be a number ≥ 0, not {value!r}")
        out[key] = float(value)
    if "colors" in data:
        colours = data["colors"]
        if not isinstance(colours, Mapping) or not colours:
            raise PipParamsError(f"{where}.colors must be a table of name = [B, G, R]")
        for name, bgr in colours.items():
            if not (isinstance(bgr, list) and len(bgr) == 3 and all(
                    isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in bgr)):
                raise PipParamsError(f"{where}.colors: {name} must be [B, G, R] with 0-255 each, not {bgr!r}")
        out["colors"] = {name: tuple(bgr) for name, bgr in colours.items()}
    return out

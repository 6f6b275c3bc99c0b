"""argparse types for number options (the commands' and the benchmarks'): a value out of range is refused
when the command line is read (``rig bench vision: error: argument --frames: ...``, exit 2, in the command
line's language), never met as a traceback or a strange result mid-run.

>>> count("3"), amount("0"), seed("7"), span("0.5"), share("1"), positive("1.2"), counts("30,35")
(3, 0, 7, 0.5, 1.0, 1.2, (30, 35))
>>> between(float, 1, 120)("30")
30.0
>>> count("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: expected a whole number of at least 1, got '0'
>>> span("nan")
Traceback (most recent call last):
argparse.ArgumentTypeError: expected a number of at least 0, got 'nan'
>>> between(int, 160, 4608)("-5")
Traceback (most recent call last):
argparse.ArgumentTypeError: expected a whole number from 160 to 4608, got '-5'
"""

from __future__ import annotations

import argparse
import math

from rig.i18n import cli_gettext as _


def _refusal(kind: type, least: float, most: float, text: str) -> str:
    shown = {"least": f"{least:g}", "most": f"{most:g}", "value": repr(text)}
    if kind is int:
        if math.isinf(most):
            return _("expected a whole number of at least {least}, got {value}", **shown)
        return _("expected a whole number from {least} to {most}, got {value}", **shown)
    if math.isinf(most):
        return _("expected a number of at least {least}, got {value}", **shown)
    return _("expected a number from {least} to {most}, got {value}", **shown)


def between(kind: type, least: float, most: float = math.inf):
    """An argparse type: a ``kind`` (int or float) from ``least`` to ``most``, finite."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or not least <= value <= most:
            raise argparse.ArgumentTypeError(_refusal(kind, least, most, text))
        return value

    return parse


#: how many of something to do: at least one
count = between(int, 1)
#: how many, where none (0) is allowed
amount = between(int, 0)
#: a random seed (numpy's generators take no negative seed)
seed = between(int, 0)
#: a time, rate or size that may be 0: 0 or more, finite
span = between(float, 0.0)
#: a share of something: 0 to 1
share = between(float, 0.0, 1.0)


def positive(text: str) -> float:
    """A number above 0, finite (a size or factor that 0 would make meaningless)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(_("expected a number above 0, got {value}", value=repr(text)))
    return value


def counts(text: str) -> tuple[int, ...]:
    """A comma-separated list of whole numbers of at least 1 (e.g. camera heights in cm)."""
    try:
        return tuple(count(part) for part in text.split(","))
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            _("expected whole numbers of at least 1 separated by commas, got {value}", value=repr(text))) from None

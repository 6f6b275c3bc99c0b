"""argparse types for number options (the benchmarks' and others): a value out of range is refused when the command line is
read (``rig bench ...: error: argument --frames: ...``, exit 2), never met as a traceback mid-run.

>>> count("3"), amount("0"), seed("7"), span("0.5"), share("1"), counts("30,35")
(3, 0, 7, 0.5, 1.0, (30, 35))
>>> count("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: expected a whole number of at least 1, got '0'
>>> span("nan")
Traceback (most recent call last):
argparse.ArgumentTypeError: expected a number of at least 0, got 'nan'
"""

from __future__ import annotations

import argparse
import math


def _number(kind: type, least: float, what: str, most: float = math.inf):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or not least <= value <= most:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    parse.__name__ = what  # argparse names the type in its own messages
    return parse


#: how many of something to do: at least one
count = _number(int, 1, "a whole number of at least 1")
#: how many, where none (0) is allowed
amount = _number(int, 0, "a whole number of at least 0")
#: a random seed (numpy's generators take no negative seed)
seed = _number(int, 0, "a seed: a whole number of at least 0")
#: a time, rate or fraction: 0 or more, finite
span = _number(float, 0.0, "a number of at least 0")
#: a share of something: 0 to 1
share = _number(float, 0.0, "a share from 0 to 1", 1.0)


def counts(text: str) -> tuple[int, ...]:
    """A comma-separated list of whole numbers of at least 1 (e.g. camera heights in cm)."""
    try:
        return tuple(count(part) for part in text.split(","))
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"expected whole numbers of at least 1 separated by commas, got {text!r}") from None

"""A reason that names a place in the frame (a die's own flag or a thing in view), with its kind and place as data.

The reader's reasons are text (``"cocked die at (312, 188)"``, ``"unclear pink on die at (90, 41)"``): they are shown,
logged and compared as text. The second look (:mod:`rig.vision.dice_second_look`) needs each reason's kind and
place to find the die it names; a :class:`Flag` is the reason's text exactly as before (a ``str``) and carries both,
set where the reason is made, so nothing has to read them back out of the text. A reason that comes from outside
(a logged reading decoded from JSON: ``scripts/train_second_look.py``) is plain text: :meth:`Flag.parse` reads its
kind and place the way the text is written.
"""

from __future__ import annotations

import re

#: a place as the reasons write it: " at (x, y)" or " on die at (x, y)", frame px rounded to whole numbers
_AT = re.compile(r" (?:on die )?at \((\d+), (\d+)\)")


class Flag(str):
    """A reason's text, ``"{kind} at (x, y)"`` or ``"{kind} on die at (x, y)"``, with ``kind`` and ``at`` (the
    place as written: frame px, whole numbers, as floats). Equal to, and hashed as, its text."""

    kind: str
    at: tuple[float, float]

    def __new__(cls, kind: str, x: float, y: float, on_die: bool = False) -> Flag:
        px, py = f"{x:.0f}", f"{y:.0f}"
        return cls._made(f"{kind}{' on die' if on_die else ''} at ({px}, {py})", kind, (float(px), float(py)))

    @classmethod
    def _made(cls, text: str, kind: str, at: tuple[float, float]) -> Flag:
        self = str.__new__(cls, text)
        self.kind, self.at = kind, at
        return self

    def __reduce__(self):
        return _flag, (str(self), self.kind, self.at)

    @classmethod
    def parse(cls, text: str) -> Flag | None:
        """``text`` as a flag: itself when it is one; else its kind and place read from the text (the first
        " at (x, y)" or " on die at (x, y)" in it, the kind what comes before), or None when it names no place."""
        if isinstance(text, Flag):
            return text
        m = _AT.search(text)
        if m is None:
            return None
        return cls._made(str(text), text[: m.start()], (float(m.group(1)), float(m.group(2))))


def _flag(text: str, kind: str, at: tuple[float, float]) -> Flag:
    """A flag unpickled (a ``str`` subclass pickles by its text: its kind and place are given back with it)."""
    return Flag._made(text, kind, at)

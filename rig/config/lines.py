"""Where each key of a config file is: its line, for error messages that name it (issue 29: split
from :mod:`rig.config`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# --------------------------------------------------------------------------- line numbers

_BARE_KEY = r"[A-Za-z0-9_-]+"
_QUOTED_KEY = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_KEY_PART = rf"(?:{_BARE_KEY}|{_QUOTED_KEY})"
_DOTTED = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_ARRAY_HEADER = re.compile(rf"\s*\[\[\s*({_DOTTED})\s*\]\]")
_TABLE_HEADER = re.compile(rf"\s*\[\s*({_DOTTED})\s*\]")
_KEY_LINE = re.compile(rf"\s*({_DOTTED})\s*=")


def _split_dotted(text: str) -> list[str]:
    parts = re.findall(_KEY_PART, text)
    return [p[1:-1] if p[:1] in "\"'" else p for p in parts]


@dataclass
class _KeyLines:
    """Where each key path (``players[2].pin``, ``camera.source``) is written; tomllib gives no positions."""

    lines: dict[str, int]

    @classmethod
    def scan(cls, text: str) -> _KeyLines:
        found: dict[str, int] = {}
        counts: dict[str, int] = {}
        table = ""
        in_multiline: str | None = None
        for number, line in enumerate(text.splitlines(), start=1):
            if in_multiline:
                if line.count(in_multiline) % 2 == 1:
                    in_multiline = None
                continue
            if match := _ARRAY_HEADER.match(line):
                name = ".".join(_split_dotted(match.group(1)))
                index = counts.get(name, 0)
                counts[name] = index + 1
                table = f"{name}[{index}]"
                found.setdefault(name, number)
                found.setdefault(table, number)
            elif match := _TABLE_HEADER.match(line):
                table = ".".join(_split_dotted(match.group(1)))
                found.setdefault(table, number)
            elif match := _KEY_LINE.match(line):
                key = ".".join(_split_dotted(match.group(1)))
                full = f"{table}.{key}" if table else key
                found.setdefault(full, number)
                rest = line[match.end():]
                for quote in ('"""', "'''"):
                    if rest.count(quote) % 2 == 1:
                        in_multiline = quote
        return cls(found)

    def find(self, key: str) -> int | None:
        """The line of ``key``, else of the nearest enclosing table or key that is written down."""
        while key:
            if key in self.lines:
                return self.lines[key]
            if key.endswith("]"):
                key = key[: key.rindex("[")]
            elif "." in key:
                key = key[: key.rindex(".")]
            else:
                return None
        return None

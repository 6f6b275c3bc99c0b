"""The rig's one strict boundary: every outside input (HTTP bodies, ``rig score`` JSON, logged
events read back) is decoded and checked here before anything else looks at it.

JSON is decoded by msgspec, which follows RFC 8259 strictly (no ``NaN``/``Infinity``, no lone
surrogates, no numbers that overflow a double); on top of that :func:`check_value` bounds what a
well-formed document may hold: integers within int64, nesting depth, string and list sizes, no
lone surrogates. Names (players) are :data:`Name`: 1 to :data:`MAX_NAME` characters, no control,
format (RTL override, zero-width) or surrogate characters. Every refusal is a :class:`BadInput`
naming the field (``$.players[2]``) and the problem.

>>> decode_json(b'{"player": "Ben", "t_us": 12}')
{'player': 'Ben', 't_us': 12}
>>> decode_json(b'{"player": NaN}')
Traceback (most recent call last):
...
rig.boundary.BadInput: not valid JSON: JSON is malformed: invalid character (byte 11)
>>> decode_json(b'{"t_us": 9223372036854775808}')
Traceback (most recent call last):
...
rig.boundary.BadInput: $.t_us: 9223372036854775808 is outside the 64-bit integer range
>>> check_name("Ada"), check_name(" Ben ")
('Ada', 'Ben')
>>> check_name("Eve\\u202e")
Traceback (most recent call last):
...
rig.boundary.BadInput: a name must not hold control or invisible formatting characters (U+202E)
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Annotated, Any

import msgspec

from rig.errors import RigError

#: the longest player name (the scoreboard's column; the config file's limit too)
MAX_NAME = 24
#: integers anywhere in an input: int64, what SQLite stores
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
#: event times: microseconds on the monotonic clock, 0 to 2^53 (285 years of uptime)
MAX_T_US = 2**53
#: nesting of objects and lists
MAX_DEPTH = 32
#: characters in one string that is not a name (a reason, a detail)
MAX_STRING = 4096
#: items in one list or object
MAX_ITEMS = 1024
#: bytes of one HTTP body or ``rig score`` document
MAX_BODY = 256 * 1024

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]


class BadInput(RigError):
    """An input that does not pass the boundary; the message names the field and the problem."""


def _where(path: str, message: str) -> str:
    return f"{path}: {message}" if path else message


def _bad_char(text: str) -> str | None:
    """The first character a name must not hold, as ``U+XXXX``, or None."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            return f"U+{ord(char):04X}"
    return None


def check_name(value: Any, path: str = "") -> str:
    """A player name, stripped; :class:`BadInput` if it is not one."""
    if not isinstance(value, str):
        raise BadInput(_where(path, f"a name must be a string, not {type(value).__name__}"))
    name = value.strip()
    if not name:
        raise BadInput(_where(path, "a name must not be empty"))
    bad = _bad_char(name)
    if bad:
        raise BadInput(_where(path, f"a name must not hold control or invisible formatting characters ({bad})"))
    if len(name) > MAX_NAME:
        raise BadInput(_where(path, f"a name has {MAX_NAME} characters at most, not {len(name)}"))
    return name


_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def _check_text(text: str, path: str) -> None:
    if len(text) > MAX_STRING:
        raise BadInput(_where(path, f"a text of {len(text)} characters (at most {MAX_STRING})"))
    bad = _NOT_TEXT.search(text)
    if bad is not None:
        char = bad.group()
        if char == "\x00":
            raise BadInput(_where(path, "a NUL character is not text"))
        raise BadInput(_where(path, f"a lone surrogate (U+{ord(char):04X}) is not text"))


def _path(where: Any) -> str:
    """A path kept as ``(parent, key)`` links (built only when a value is refused) as ``$.a[2].b``."""
    parts = []
    while isinstance(where, tuple):
        where, key = where
        parts.append(f"[{key}]" if isinstance(key, int) else f".{key[:40]}")
    return where + "".join(reversed(parts))


def check_value(value: Any, path: str = "$", *, depth: int = MAX_DEPTH) -> Any:
    """Check a decoded JSON value against the rig's bounds; return it unchanged or raise :class:`BadInput`."""
    stack: list[tuple[Any, Any, int]] = [(value, path, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        item, where, level = pop()
        kind = type(item)
        if kind is str:
            if len(item) > MAX_STRING or _NOT_TEXT.search(item) is not None:
                _check_text(item, _path(where))
        elif kind is bool or item is None:
            continue
        elif kind is int:
            if not INT_MIN <= item <= INT_MAX:
                shown = str(item) if item.bit_length() < 200 else f"a {item.bit_length()}-bit number"
                raise BadInput(_where(_path(where), f"{shown} is outside the 64-bit integer range"))
        elif kind is float:
            if not math.isfinite(item):
                raise BadInput(_where(_path(where), f"{item} is not a number JSON allows"))
        elif isinstance(item, (list, tuple, dict)):
            if level >= depth:
                raise BadInput(_where(_path(where), f"nested deeper than {depth} levels"))
            if len(item) > MAX_ITEMS:
                raise BadInput(_where(_path(where), f"{len(item)} items (at most {MAX_ITEMS})"))
            level += 1
            if isinstance(item, dict):
                for key, sub in item.items():
                    if type(key) is not str:
                        raise BadInput(_where(_path(where), f"a key must be a string, not {type(key).__name__}"))
                    if len(key) > MAX_STRING or _NOT_TEXT.search(key) is not None:
                        _check_text(key, _path(where))
                    push((sub, (where, key), level))
            else:
                for index, sub in enumerate(item):
                    push((sub, (where, index), level))
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):  # a subclass of int (an IntEnum): as an int
            push((int(item), where, level))
        elif isinstance(item, float):
            push((float(item), where, level))
        elif isinstance(item, str):
            push((str(item), where, level))
        else:
            raise BadInput(_where(_path(where), f"a {type(item).__name__} is not a JSON value"))
    return value


def decode_json(raw: bytes | str, *, max_bytes: int = MAX_BODY, what: str = "", check: bool = True) -> Any:
    """Strict JSON from bytes or text, within the bounds of :func:`check_value`.

    ``check=False``: the JSON syntax only (size, UTF-8, nesting, RFC 8259), for a body that is
    decoded into its type next (an event: :func:`rig.engine.events.decode_event`), whose one
    check bounds every value.
    """
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput(_where(what, "not valid text (a lone surrogate)")) from None
    if len(raw) > max_bytes:
        raise BadInput(_where(what, f"{len(raw)} bytes is too big (at most {max_bytes})"))
    check_utf8(raw, what=what)
    if _nesting(raw) > MAX_DEPTH:
        raise BadInput(_where(what, f"nested deeper than {MAX_DEPTH} levels"))
    try:
        value = msgspec.json.decode(raw)
    except (msgspec.DecodeError, RecursionError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        raise BadInput(_where(what, f"not valid JSON: {exc}")) from None
    return check_value(value) if check else value


def check_utf8(raw: bytes, *, what: str = "") -> str:
    """``raw`` as text, or :class:`BadInput` naming the first byte that is not UTF-8 (JSON is UTF-8 only).

    >>> check_utf8(b'{"player": "\\xff\\xfe"}')
    Traceback (most recent call last):
    ...
    rig.boundary.BadInput: not valid JSON: not UTF-8 text (byte 12 is 0xff)
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(_where(what, f"not valid JSON: not UTF-8 text (byte {exc.start} is "
                                    f"0x{raw[exc.start]:02x})")) from None


def whole_number(text: object, *, digits: int = 18) -> int | None:
    """``text`` as a non-negative whole number if it is one written in ASCII digits 0-9 (at most
    ``digits`` of them), else None. ``str.isdigit`` alone lets through "²" and "٣", which ``int()`` refuses.

    >>> whole_number("42"), whole_number("²"), whole_number("٣"), whole_number("-1"), whole_number(None)
    (42, None, None, None, None)
    """
    if not isinstance(text, str) or not text or len(text) > digits or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def _nesting(raw: bytes) -> int:
    """An upper bound of the nesting depth (brackets inside strings count too: only ever too strict
    for documents that are nested near the limit already)."""
    depth = deepest = 0
    for byte in raw.translate(None, b'"\\,:0123456789 \t\r\n'):
        if byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def convert(value: Any, kind: type, *, what: str = "") -> Any:
    """``value`` (already decoded and checked) as ``kind`` (a msgspec Struct); :class:`BadInput` naming the field."""
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as exc:
        raise BadInput(_where(what, str(exc))) from None


def sanitize(value: Any, *, depth: int = 8) -> Any:
    """A copy of any value that is safe to log and show: finite numbers, int64 integers, valid text
    (at most :data:`MAX_STRING` characters), bounded nesting; what is not becomes its short ``repr``."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if INT_MIN <= value <= INT_MAX else repr(value)[:40]
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        text = value[:MAX_STRING]
        if "\x00" in text or any("\ud800" <= c <= "\udfff" for c in text):
            text = text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")
        return text
    if depth <= 0:
        return "…"
    if isinstance(value, dict):
        return {sanitize(str(k)): sanitize(v, depth=depth - 1) for k, v in list(value.items())[:MAX_ITEMS]}
    if isinstance(value, (list, tuple)):
        return [sanitize(v, depth=depth - 1) for v in list(value)[:MAX_ITEMS]]
    return repr(value)[:200]


def encode_json(value: Any) -> bytes:
    """The rig's JSON for a response: compact UTF-8 (values are checked or sanitized before)."""
    return msgspec.json.encode(value)


class SimPress(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/sim/press``."""

    player: Name
    hold_ms: Annotated[float, msgspec.Meta(ge=0, le=60_000)] = 0

    def __post_init__(self) -> None:
        self.player = check_name(self.player, "$.player")


class SimRoll(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/sim/roll``."""

    dice: Annotated[int, msgspec.Meta(ge=1, le=6)]

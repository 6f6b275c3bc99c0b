"""Reading a small input file (a config, a profile, reader parameters, a turn) without surprises.

``read_limited(path, limit)`` reads at most ``limit`` bytes and refuses more, so ``/dev/zero``, a
huge file or a FIFO that never ends cannot fill the memory; a FIFO or pipe without a writer does
not hang (it is opened non-blocking, then read as usual); a folder, a missing file or a file that
is not UTF-8 text is a :class:`rig.errors.RigError` (or the ``error`` class given) with one line
naming the file and the problem. ``one_line(text)`` makes any message safe for a terminal: control
and invisible formatting characters (a newline, an escape sequence) are shown escaped.

>>> one_line("unknown field 'x\\n\\x1b[31mred'")
"unknown field 'x\\\\n\\\\x1b[31mred'"
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import unicodedata

from rig.errors import RigError

#: the largest config, profile or parameter file read (they are a few KiB)
MAX_TEXT_FILE = 1024 * 1024


def one_line(text: str, limit: int = 2000) -> str:
    """``text`` on one line, printable: control, format and separator characters escaped, at most ``limit`` long."""
    out = []
    for char in str(text)[:limit]:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            out.append(char.encode("unicode_escape").decode("ascii"))
        else:
            out.append(char)
    return "".join(out) + ("…" if len(str(text)) > limit else "")


def read_limited(path: str | os.PathLike[str], *, limit: int = MAX_TEXT_FILE, what: str = "file",
                 error: type[RigError] = RigError) -> bytes:
    """The bytes of ``path`` (at most ``limit``), or ``error`` with one line naming the problem."""
    shown = one_line(os.fspath(path), 200)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"{shown}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{shown}: is a folder, not a {what}") from None
    except PermissionError:
        raise error(f"{shown}: not allowed to read this {what}") from None
    except OSError as exc:
        raise error(f"{shown}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise error(f"{shown}: is a folder, not a {what}")
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise error(f"{shown}: {info.st_size} bytes is too big for a {what} (at most {limit})")
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)  # opened without waiting for a writer; now read
        chunks, size = [], 0
        while size <= limit:
            try:
                chunk = os.read(fd, min(65536, limit + 1 - size))
            except OSError as exc:
                if exc.errno == errno.EINTR:
                    continue
                raise error(f"{shown}: cannot read: {exc.strerror or exc}") from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise error(f"{shown}: more than {limit} bytes is too big for a {what}")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text_limited(path: str | os.PathLike[str], *, limit: int = MAX_TEXT_FILE, what: str = "file",
                      error: type[RigError] = RigError) -> str:
    """:func:`read_limited` as UTF-8 text (a BOM is dropped); ``error`` naming the first byte that is not text."""
    data = read_limited(path, limit=limit, what=what, error=error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{one_line(os.fspath(path), 200)}: not a text file (UTF-8): byte {exc.start} "
                    f"is 0x{data[exc.start]:02x}") from None


"""Reading an event log without touching it: ``rig history`` and its exports (issue 31).

:func:`read_log` opens the log read-only with :func:`rig.engine.log.connect_read_only` and reads
again when a rig started writing meanwhile.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Callable

from rig.engine.errors import LogError
from rig.engine.log import EventLog, _unusable


def file_stamp(path: Path) -> tuple[int, int, bool] | None:
    """What tells a file changed: size, mtime (ns), and whether a ``-wal`` is beside it."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns, path.with_name(path.name + "-wal").exists()


def read_log(path: Path, read: Callable[[EventLog], Any]) -> Any:
    """``read(log)`` on the event log at ``path`` opened read-only (:func:`connect_read_only`), for commands
    that only read (``rig history``, its exports): nothing on disk is created or changed. Read without a
    ``-wal`` (``immutable``) and the file changed meanwhile (a rig started): read again, then with the WAL."""
    for _attempt in range(3):
        before = file_stamp(path)
        try:
            with EventLog(path, create=False, read_only=True) as log:
                result = read(log)
        except sqlite3.Error as exc:  # the file changed under an immutable read (a rig started)
            if file_stamp(path) == before:
                raise _unusable(path, exc) from None
            continue
        if before is None or before[2] or file_stamp(path) == before:
            return result
    raise LogError(f"{path} kept changing while it was read; try again")

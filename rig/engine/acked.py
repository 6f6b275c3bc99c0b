"""The acknowledged mark beside the event log (``rig.sqlite3-acked``: the last sequence number the log
acknowledged, fdatasynced before anyone is told) and the record of a loss found at a start (issue
29: split from :mod:`rig.engine.log`, which re-exports every name).
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


#: the high-water file beside the database: the last sequence number the log acknowledged
ACKED_SUFFIX = "-acked"
#: the record of a loss found at a start (kept until a person deletes it)
LOSS_SUFFIX = "-loss.json"


class AckedMark:
    """The last acknowledged sequence number, kept outside the WAL: a fixed 32-byte record in
    ``<db>-acked``, rewritten in place and fsynced after every append. A log that ends before it at a
    start (a damaged or deleted ``-wal``, a truncated file, a restored old copy) lost acknowledged
    events: :meth:`compare` says so, and records the loss in ``<db>-loss.json`` (fsynced) so the
    notice stays on the scoreboard and in ``rig doctor`` until a person has looked and deletes it."""

    def __init__(self, db: Path) -> None:
        self.path = db.with_name(db.name + ACKED_SUFFIX)
        self.loss_path = db.with_name(db.name + LOSS_SUFFIX)
        self._fd: int | None = None
        self._failed = False

    def read(self) -> int | None:
        return read_acked(self.path)

    def compare(self, last_seq: int) -> dict[str, Any] | None:
        """The loss (recorded, or found now: the log ends before the mark), or None."""
        known = read_loss(self.loss_path)
        acked = self.read()
        if acked is not None and acked > last_seq:
            found = {"acked": acked, "found": last_seq, "lost": acked - last_seq, "at": _now(),
                     "log": str(self.path.with_name(self.path.name[: -len(ACKED_SUFFIX)]))}
            if known is None:
                _write_durably(self.loss_path, (json.dumps(found, indent=1) + "\n").encode())
            known = known or found
        return known

    def write(self, seq: int) -> None:
        if self._failed:
            return
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
            os.pwrite(self._fd, f"{seq:030d}\n".encode(), 0)
            os.fdatasync(self._fd)
        except OSError as exc:  # the event is logged; only the loss check of the next start is weaker
            self._failed = True
            import logging

            logging.getLogger(__name__).warning("cannot keep the acknowledged mark %s (%s): a loss of the "
                                                "log's tail would not be noticed at the next start", self.path, exc)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def read_acked(path: Path) -> int | None:
    """The sequence number in a ``-acked`` file, or None (missing, unreadable)."""
    try:
        text = path.read_bytes()[:64].decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isascii() and text.isdigit() else None


def read_loss(path: Path) -> dict[str, Any] | None:
    """A recorded loss (``-loss.json``), or None."""
    try:
        loss = json.loads(path.read_bytes()[:65536])
    except (OSError, ValueError):
        return None
    return loss if isinstance(loss, dict) and isinstance(loss.get("lost"), int) else None


def loss_text(loss: Mapping[str, Any], db: Path | str) -> str:
    """The notice for a loss, naming what to do."""
    name = Path(db).name
    return (f"The game log ends at event #{loss.get('found')} but the rig had acknowledged #{loss.get('acked')}: "
            f"{loss.get('lost')} acknowledged event(s) were lost (its -wal was damaged or removed, or an older copy "
            f"was put back). Check the scores; keep {name}, {name}-wal and a rescue copy if you have one; once "
            f"looked at, delete {name}{LOSS_SUFFIX} to clear this notice (and {name}{ACKED_SUFFIX} too if the log "
            "was replaced on purpose).")


def _write_durably(path: Path, data: bytes) -> None:
    temp = path.with_name(path.name + ".tmp")
    try:
        with open(temp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except OSError:
        pass

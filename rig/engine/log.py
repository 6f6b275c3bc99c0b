"""The durable event log: SQLite in WAL mode with ``synchronous=FULL``.

Every event is appended (and fsynced) before the engine applies it, so a power cut loses
nothing; the game state is a fold over the log. Refused events are logged too, with the
reason. The file carries a marker (``PRAGMA application_id``) and a schema version
(``PRAGMA user_version``); a file without the marker, damaged, or made by a newer rig is
refused with :class:`LogError` and never written to.

>>> with EventLog(":memory:") as log:
...     seq = log.append({"type": "toss", "t_us": 5, "source": "gpio", "player": "Ben"},
...                      status="refused", reason="no game in progress")
...     [(e.seq, e.status, e.reason) for e in log.events()]
[(1, 'refused', 'no game in progress')]
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterable, Mapping

from rig.boundary import sanitize
from rig.engine.errors import LogError, StorageFull
from rig.engine.events import Event
from rig.engine.acked import (  # noqa: F401 - moved (issue 29); the old import path works
    _now, ACKED_SUFFIX, LOSS_SUFFIX, AckedMark, read_acked, read_loss, loss_text, _write_durably,
)
from rig.engine.wal import (  # noqa: F401 - moved (issue 29); the old import path works
    RESCUE, _rescue, _wal_checksum, wal_damage, _check_wal,
)
from rig.engine.log_schema import (  # noqa: F401 - moved (issue 29); the old import path works
    MIGRATIONS, SCHEMA_VERSION, EXPECTED_COLUMNS, _check_tables, _migrate_clean_poison,
)
from rig.engine.log_rows import (  # noqa: F401 - moved (issue 29); the old import path works
    LoggedEvent, Pending, _text, _logged, _loads,
)

#: ``PRAGMA application_id`` of a rig database: "RIG!" in ASCII
APPLICATION_ID = 0x52494721
SQLITE_MAGIC = b"SQLite format 3\x00"


#: idempotency keys kept (the newest; a retry comes within seconds)
KEEP_REQUESTS = 10_000


class EventLog:
    """The SQLite event log at ``path`` (created with its parent folder if missing; ``":memory:"`` for tests)."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True, read_only: bool = False) -> None:
        self.path = path if str(path) == ":memory:" else Path(path)
        self._lock = threading.RLock()
        #: opened for reading only (``rig history``, exports): nothing of the file or beside it is
        #: created or changed — no migration, no ``-wal``/``-shm``, no loss record (:func:`connect_read_only`)
        self.read_only = read_only and isinstance(self.path, Path)
        self._conn = self._open_read_only() if self.read_only else self._open(create)
        #: the acknowledged high-water mark outside the WAL (None in memory), and a loss found at start
        self._acked: AckedMark | None = None
        self.loss: dict[str, Any] | None = None
        if isinstance(self.path, Path) and not self.read_only:
            self._acked = AckedMark(self.path)
            self.loss = self._acked.compare(self.last_seq())
        elif self.read_only:
            self.loss = read_loss(AckedMark(self.path).loss_path)

    def _open_read_only(self) -> sqlite3.Connection:
        path = self.path
        _check_file(path, create=False, write=False)
        _check_wal(path)
        conn = connect_read_only(path, strict=True)
        conn.text_factory = _text
        try:
            _verify(conn, path)
        except LogError:
            conn.close()
            raise
        return conn

    # -- opening ----------------------------------------------------------------------

    def _open(self, create: bool) -> sqlite3.Connection:
        path = self.path
        if isinstance(path, Path):
            if not _check_file(path, create):
                _create(path)  # complete (schema, marker) or not there at all: never an empty file
            _check_wal(path)
            # judged on a read-only connection first: a refused file (and its -wal) is never written,
            # not even by the checkpoint SQLite runs when a writable connection closes
            inspect = connect_read_only(path)
            try:
                _verify(inspect, path)
            finally:
                inspect.close()
        try:
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=10)
        except sqlite3.Error as exc:
            raise _unusable(path, exc) from None
        conn.text_factory = _text
        try:
            version = _verify(conn, path)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            self._migrate(conn, version)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise _unusable(path, exc) from None
        except LogError:
            conn.close()
            raise
        return conn

    @staticmethod
    def _migrate(conn: sqlite3.Connection, version: int) -> None:
        for target in range(version + 1, SCHEMA_VERSION + 1):
            conn.execute("BEGIN IMMEDIATE")
            try:
                step = MIGRATIONS[target - 1]
                if isinstance(step, str):
                    globals()[f"_migrate_{step}"](conn)
                else:
                    for statement in step:
                        conn.execute(statement)
                if target == 1:
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {target}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    @property
    def schema_version(self) -> int:
        with self._lock:
            return self._conn.execute("PRAGMA user_version").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            if self._acked is not None:
                self._acked.close()

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EventLog({str(self.path)!r})"

    # -- writing ----------------------------------------------------------------------

    def append(self, event: Mapping[str, Any], *, game_id: int | None = None, status: str = "applied",
               reason: str | None = None, new_game: bool = False, request: tuple[str, str] | None = None) -> int:
        """Append one event durably; returns its sequence number."""
        return self.append_batch([Pending(event, game_id, status, reason, new_game)], request=request)[0]

    def append_batch(self, items: Iterable[Pending], *, summaries: Iterable[Mapping[str, Any]] = (),
                     request: tuple[str, str] | None = None) -> list[int]:
        """Append events in one transaction (all or none survive a crash); returns their sequence numbers.

        ``summaries`` are game summary rows written in the same transaction (see :meth:`save_game`);
        their ``last_seq`` becomes the batch's last sequence number and an ``id`` of None the id
        of the game started in this batch. ``request`` — ``(idempotency key, outcome)`` recorded in
        the same transaction (see :meth:`request`).
        """
        items = list(items)
        summaries = list(summaries)
        seqs: list[int] = []
        logged_at = _now()
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    batch = started = None
                    for item in items:
                        event = item.event.to_dict() if isinstance(item.event, Event) else item.event
                        body = json.dumps(event, sort_keys=True, separators=(",", ":"), default=repr,
                                          allow_nan=True)
                        kind = event.get("type")
                        t_us = event.get("t_us")
                        cur = conn.execute(
                            "INSERT INTO events (game_id, batch, type, t_us, source, status, reason, logged_at, body)"
                            " VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?)",
                            (item.game_id, kind[:64] if isinstance(kind, str) else "?",
                             t_us if isinstance(t_us, int) and not isinstance(t_us, bool)
                             and 0 <= t_us < 2**63 else -1,
                             str(event.get("source", "?"))[:64], item.status,
                             None if item.reason is None else str(item.reason), logged_at, body),
                        )
                        seq = cur.lastrowid
                        batch = seq if batch is None else batch
                        game_id = seq if item.new_game else item.game_id
                        conn.execute("UPDATE events SET batch = ?, game_id = ? WHERE seq = ?", (batch, game_id, seq))
                        seqs.append(seq)
                        if item.new_game:
                            started = seq
                    for summary in summaries:
                        row = dict(summary, last_seq=seqs[-1])
                        if row.get("id") is None:
                            row["id"] = started
                        conn.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                     _game_row(row))
                    if request is not None and seqs:
                        last = items[-1]
                        conn.execute("INSERT OR IGNORE INTO requests VALUES (?, ?, ?, ?)",
                                     (request[0], seqs[-1], request[1], last.reason or None))
                        conn.execute("DELETE FROM requests WHERE seq < ?", (seqs[-1] - 50 * KEEP_REQUESTS,))
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:  # SQLite rolls back by itself on some errors (disk full)
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise LogError(f"{self.path}: cannot append to the event log: {_describe(exc)}") from None
            if self._acked is not None and seqs:
                self._acked.write(seqs[-1])  # before anyone is told: the mark never lags an acknowledgement
        return seqs

    # -- reading ----------------------------------------------------------------------

    def events(self, *, game_id: int | None = None, since: int = 0, status: str | None = None) -> list[LoggedEvent]:
        """Logged events in order; only one game's, only after ``since``, only of one status if given."""
        query = "SELECT seq, game_id, batch, status, reason, logged_at, body FROM events WHERE seq > ?"
        args: list[Any] = [since]
        if game_id is not None:
            query += " AND game_id = ?"
            args.append(game_id)
        if status is not None:
            query += " AND status = ?"
            args.append(status)
        with self._lock:
            rows = self._conn.execute(query + " ORDER BY seq", args).fetchall()
        return [_logged(*row) for row in rows]

    def request(self, key: str) -> tuple[int, str, str | None] | None:
        """``(seq, outcome, reason)`` of the request with idempotency ``key`` if it was logged, else None."""
        with self._lock:
            row = self._conn.execute("SELECT seq, status, reason FROM requests WHERE key = ?", (key,)).fetchone()
        return tuple(row) if row else None

    def last_seq(self) -> int:
        with self._lock:
            return self._conn.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0]

    def game_ids(self) -> list[int]:
        """Ids of every game ever started, oldest first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT seq FROM events WHERE type = 'game_started' AND status = 'applied' ORDER BY seq").fetchall()
        return [row[0] for row in rows]

    def game_last_seq(self, game_id: int) -> int:
        """The last applied event of a game."""
        with self._lock:
            return self._conn.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ? AND status = 'applied'",
                (game_id,)).fetchone()[0]

    def count(self) -> int:
        with self._lock:
            return self._conn.execute("SELECT count(*) FROM events").fetchone()[0]

    # -- game summaries ----------------------------------------------------------------

    def save_game(self, summary: Mapping[str, Any]) -> None:
        """Insert or replace a game's summary row (see :meth:`games` for the keys)."""
        row = _game_row(summary)
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise LogError(f"{self.path}: cannot save the game summary: {_describe(exc)}") from None

    def games(self) -> list[dict[str, Any]]:
        """Every game's summary, newest first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT game_id, game, status, players, totals, winner, turns, started_at, ended_at, last_seq"
                " FROM games ORDER BY game_id DESC").fetchall()
        return [sanitize({"id": gid, "game": game, "status": status, "players": _loads(players, list),
                          "totals": _loads(totals, dict), "winner": winner, "turns": turns,
                          "started_at": started, "ended_at": ended, "last_seq": last_seq})
                for gid, game, status, players, totals, winner, turns, started, ended, last_seq in rows]

    def game_summary_seq(self, game_id: int) -> int | None:
        with self._lock:
            row = self._conn.execute("SELECT last_seq FROM games WHERE game_id = ?", (game_id,)).fetchone()
        return row[0] if row else None

    def logged_at(self, seq: int) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT logged_at FROM events WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def check(self) -> dict[str, Any]:
        """Health facts for ``rig doctor``: schema version, journal mode, sizes, integrity."""
        with self._lock:
            conn = self._conn
            return {
                "path": str(self.path),
                "schema_version": conn.execute("PRAGMA user_version").fetchone()[0],
                "journal_mode": conn.execute("PRAGMA journal_mode").fetchone()[0],
                "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(
                    conn.execute("PRAGMA synchronous").fetchone()[0], "?"),
                "events": conn.execute("SELECT count(*) FROM events").fetchone()[0],
                "games": conn.execute("SELECT count(*) FROM games").fetchone()[0],
                "integrity": conn.execute("PRAGMA quick_check").fetchone()[0],
            }


def _verify(conn: sqlite3.Connection, path: Path | str) -> int:
    """The schema version of the database behind ``conn`` if the rig may use it, else :class:`LogError`."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        fresh = app_id == 0 and version == 0 and tables == 0
        if not fresh and app_id != APPLICATION_ID:
            raise LogError(f"{path} is a SQLite database of another program (no rig schema marker); "
                           "it was left untouched: move it away or choose another --data-dir")
        if version > SCHEMA_VERSION:
            raise LogError(f"{path} was written by a newer rig (schema {version}, this rig knows up to "
                           f"{SCHEMA_VERSION}); upgrade the rig, the file was left untouched")
        if not fresh:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise LogError(f"{path} is damaged ({' '.join(problems[0].split())[:200]}); it was left untouched: "
                               + _rescue(path))
            _check_tables(conn, path, version)
    except sqlite3.DatabaseError as exc:
        raise _unusable(path, exc) from None
    return version


def _unusable(path: Path | str, exc: sqlite3.Error) -> LogError:
    """The error for a database SQLite would not open or read: a full or failing disk is not damage."""
    if _outage(exc):
        return StorageFull(f"{path}: cannot open the event log now: {_describe(exc)}; the file itself is fine, "
                           "the rig starts again by itself once there is room")
    return LogError(f"{path} is not a usable rig database ({' '.join(str(exc).split())}); it was left untouched: "
                    + _rescue(path))


def _outage(exc: BaseException) -> bool:
    """``exc`` is a full disk or an I/O failure, not a problem of the file."""
    if isinstance(exc, OSError):
        return exc.errno in (28, 122, 5)  # ENOSPC, EDQUOT, EIO
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and (code & 0xFF) in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR):
        return True
    return "full" in str(exc)


def _create(path: Path) -> None:
    """A new, complete event log at ``path``: built under a temporary name, checkpointed, fsynced and
    renamed into place, so a full disk or a crash leaves no empty or half-made file behind."""
    temp = path.with_name(path.name + ".new")
    parts = [temp, temp.with_name(temp.name + "-wal"), temp.with_name(temp.name + "-shm")]

    def remove() -> None:
        for part in parts:
            try:
                part.unlink()
            except FileNotFoundError:
                pass
            except OSError:
                pass

    remove()  # a leftover of a start that failed
    conn = None
    try:
        conn = sqlite3.connect(str(temp), isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        EventLog._migrate(conn, 0)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        conn = None
        fd = os.open(temp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(temp, path)
        remove()
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except (sqlite3.Error, OSError) as exc:
        if conn is not None:
            conn.close()
        remove()
        if _outage(exc):
            raise StorageFull(f"{path}: cannot create the event log: {_describe(exc)}; nothing was left behind, "
                              "the rig starts again by itself once there is room") from None
        raise LogError(f"{path}: cannot create the event log: {exc}") from None


def _game_row(summary: Mapping[str, Any]) -> tuple:
    return (summary["id"], summary["game"], summary["status"], json.dumps(list(summary["players"])),
            json.dumps(dict(summary["totals"])), summary.get("winner"), summary["turns"],
            summary.get("started_at"), summary.get("ended_at"), summary["last_seq"])


def _describe(exc: sqlite3.Error | OSError) -> str:
    """The SQLite error in words a player can act on."""
    if isinstance(exc, OSError):
        return "the disk is full (free some space)" if exc.errno in (28, 122) else f"the storage failed ({exc})"
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL or "full" in str(exc):
        return "the disk is full (free some space: the rig carries on by itself)"
    if code is not None and (code & 0xFF) in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY):
        return f"the storage failed ({exc}): check the SD card or disk"
    return str(exc)


def _check_file(path: Path, create: bool, *, write: bool = True) -> bool:
    """True if a database file is there to open, False if one may be created; :class:`LogError` if neither."""
    if path.is_dir():
        raise LogError(f"{path} is a folder, not a database file")
    if path.exists():
        try:
            with open(path, "rb") as handle:
                head = handle.read(len(SQLITE_MAGIC))
        except OSError as exc:
            raise LogError(f"{path}: cannot read the database: {exc.strerror}") from None
        if not head:
            raise LogError(f"{path} is empty (0 bytes): the event log was lost or cut short, so it was left "
                           "untouched instead of starting a new one: " + _rescue(path))
        if head != SQLITE_MAGIC:
            raise LogError(f"{path} is not a SQLite database; it was left untouched: "
                           "move it away or choose another --data-dir")
        if write and not os.access(path, os.W_OK):
            raise LogError(f"{path}: not allowed to write the database (check its owner and mode)")
        return True
    if not create:
        raise LogError(f"{path}: no event log here yet")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LogError(f"cannot create the data folder {path.parent}: {exc.strerror}") from None
    if not os.access(path.parent, os.W_OK):
        raise LogError(f"not allowed to write in the data folder {path.parent}")
    return False


def connect_read_only(path: Path, *, strict: bool = False) -> sqlite3.Connection:
    """A read-only connection to the SQLite file ``path`` that creates and changes nothing on disk.

    SQLite's ``mode=ro`` alone is not enough: on a WAL database whose ``-wal`` is gone (a clean
    stop) it creates ``-wal`` and ``-shm`` and leaves them behind. So:

    - no ``-wal`` beside the file: nobody has it open in WAL mode and its whole content is in the main
      file: ``mode=ro&immutable=1`` (no lock, no ``-wal``/``-shm``, nothing read but the file). SQLite's
      documentation warns that ``immutable`` on a file that does change gives wrong results or
      SQLITE_CORRUPT; :func:`read_log` reads again when a writer came meanwhile;
    - a ``-wal`` and its ``-shm``: a rig is running (or stopped without a checkpoint); the WAL holds
      logged events, so ``immutable`` (which ignores it) would hide them: plain ``mode=ro``, which uses the
      files that are there and creates none;
    - a ``-wal`` without ``-shm``: ``mode=ro`` would create the ``-shm``: ``strict`` (read-only commands)
      refuses with :class:`LogError`, else (judging a file at start, before the rig opens it for writing
      anyway) ``mode=ro``.
    """
    wal = path.with_name(path.name + "-wal")
    shm = path.with_name(path.name + "-shm")
    uri = path.resolve().as_uri()
    if not wal.exists():
        uri += "?mode=ro&immutable=1"
    elif shm.exists() or not strict:
        uri += "?mode=ro"
    else:
        raise LogError(f"{path} has a {wal.name} but no {shm.name} (the rig stopped without closing it): reading it "
                       "would create files beside it; start the rig once (it recovers the log), then try again")
    try:
        return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=10)
    except sqlite3.Error as exc:
        raise _unusable(path, exc) from None


def open_log(data_dir: str | os.PathLike[str], *, create: bool = True) -> EventLog:
    """The event log in ``data_dir`` (see :mod:`rig.engine.paths`)."""
    from rig.engine.paths import database_path

    return EventLog(database_path(data_dir), create=create)

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
import struct
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Mapping

from rig.boundary import BadInput, check_value, sanitize
from rig.engine.errors import EventFormatError, LogError, StorageFull
from rig.engine.events import Event, decode_event_json

#: ``PRAGMA application_id`` of a rig database: "RIG!" in ASCII
APPLICATION_ID = 0x52494721
SQLITE_MAGIC = b"SQLite format 3\x00"

#: statements taking the schema from version N to N + 1 (index N)
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 0 -> 1: the event log itself
        "CREATE TABLE rig_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "INSERT INTO rig_meta (key, value) VALUES ('schema', 'rig event log')",
        """CREATE TABLE events (
            seq       INTEGER PRIMARY KEY,
            game_id   INTEGER,
            batch     INTEGER NOT NULL,
            type      TEXT NOT NULL,
            t_us      INTEGER NOT NULL,
            source    TEXT NOT NULL,
            status    TEXT NOT NULL CHECK (status IN ('applied', 'refused')),
            reason    TEXT,
            logged_at TEXT NOT NULL,
            body      TEXT NOT NULL
        )""",
        "CREATE INDEX events_by_game ON events (game_id, seq)",
    ),
    (  # 1 -> 2: a summary row per game for history (rebuilt from the events when stale)
        """CREATE TABLE games (
            game_id   INTEGER PRIMARY KEY,
            game      TEXT NOT NULL,
            status    TEXT NOT NULL,
            players   TEXT NOT NULL,
            totals    TEXT NOT NULL,
            winner    TEXT,
            turns     INTEGER NOT NULL,
            started_at TEXT,
            ended_at  TEXT,
            last_seq  INTEGER NOT NULL
        )""",
    ),
    "clean_poison",  # 2 -> 3: events logged before the strict boundary that hold poison are made safe
    (  # 3 -> 4: idempotency keys of requests, written with their events (a retry is answered, not redone)
        """CREATE TABLE requests (
            key       TEXT PRIMARY KEY,
            seq       INTEGER NOT NULL,
            status    TEXT NOT NULL,
            reason    TEXT
        )""",
    ),
    (  # 4 -> 5: the league publisher's cursor: the last seq the broker acknowledged (rig.league.publisher)
        """CREATE TABLE IF NOT EXISTS league_outbox (
            stream     TEXT PRIMARY KEY,
            acked_seq  INTEGER NOT NULL,
            updated_at TEXT NOT NULL
        )""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

#: what a refusal of a damaged database tells the user to do
RESCUE = ("stop the rig, move {name} together with {name}-wal, {name}-shm and {name}-acked (if present) into a rescue "
          "folder (never delete them), then start the rig again for a new log; see docs/engine.md 'Durability'")

#: idempotency keys kept (the newest; a retry comes within seconds)
KEEP_REQUESTS = 10_000

#: the tables and columns the rig reads
EXPECTED_COLUMNS = {
    "requests": {"key", "seq", "status", "reason"},
    "league_outbox": {"stream", "acked_seq", "updated_at"},
    "events": {"seq", "game_id", "batch", "type", "t_us", "source", "status", "reason", "logged_at", "body"},
    "games": {"game_id", "game", "status", "players", "totals", "winner", "turns", "started_at", "ended_at",
              "last_seq"},
}


@dataclass(frozen=True)
class LoggedEvent:
    """One row of the log: the event as appended plus where and how it was logged."""

    seq: int
    game_id: int | None
    batch: int
    status: str  # "applied" | "refused"
    reason: str | None
    logged_at: str
    event: Mapping[str, Any]
    damage: str | None = None  # why the stored body cannot be read back (then ``event`` is empty)

    @property
    def type(self) -> str:
        kind = self.event.get("type", "?")
        return kind if isinstance(kind, str) else "?"

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "game_id": self.game_id, "batch": self.batch, "status": self.status,
                "reason": self.reason, "logged_at": self.logged_at, "event": dict(self.event)}


@dataclass(frozen=True)
class Pending:
    """An event about to be appended. ``new_game``: it starts a game, whose id is its own ``seq``."""

    event: Mapping[str, Any]
    game_id: int | None = None
    status: str = "applied"
    reason: str | None = None
    new_game: bool = False


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class EventLog:
    """The SQLite event log at ``path`` (created with its parent folder if missing; ``":memory:"`` for tests)."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True) -> None:
        self.path = path if str(path) == ":memory:" else Path(path)
        self._lock = threading.RLock()
        self._conn = self._open(create)
        #: the acknowledged high-water mark outside the WAL (None in memory), and a loss found at start
        self._acked: AckedMark | None = None
        self.loss: dict[str, Any] | None = None
        if isinstance(self.path, Path):
            self._acked = AckedMark(self.path)
            self.loss = self._acked.compare(self.last_seq())

    # -- opening ----------------------------------------------------------------------

    def _open(self, create: bool) -> sqlite3.Connection:
        path = self.path
        if isinstance(path, Path):
            if not _check_file(path, create):
                _create(path)  # complete (schema, marker) or not there at all: never an empty file
            _check_wal(path)
            # judged on a read-only connection first: a refused file (and its -wal) is never written,
            # not even by the checkpoint SQLite runs when a writable connection closes
            try:
                inspect = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                                          check_same_thread=False, timeout=10)
            except sqlite3.Error as exc:
                raise _unusable(path, exc) from None
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


def _text(raw: bytes) -> str:
    """A TEXT value as stored: a byte that is not UTF-8 (storage damage) becomes a lone surrogate, which
    the boundary refuses (:func:`_logged` reports the event as damaged) instead of a crash on reading."""
    return raw.decode("utf-8", "surrogateescape")


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


def _rescue(path: str | Path) -> str:
    return RESCUE.format(name=Path(path).name)


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


def _logged(seq, game_id, batch, status, reason, logged_at, body) -> LoggedEvent:
    """A row as a :class:`LoggedEvent` (the log's door on replay): an applied event is decoded once
    into its type (:func:`rig.engine.events.decode_event_json`) and handed on as a plain dict; a
    refused one (it may hold anything the event's door refused) is made safe to show; a body that
    cannot be read back is reported in ``damage``."""
    reason = None if reason is None else sanitize(reason)
    logged_at = sanitize(logged_at) if isinstance(logged_at, str) else str(logged_at)
    if status == "applied":
        try:
            return LoggedEvent(seq, game_id, batch, status, reason, logged_at, decode_event_json(body).to_dict())
        except EventFormatError as exc:
            damage = exc.reason
    else:
        damage = None
    try:
        event = json.loads(body)
    except (TypeError, ValueError, RecursionError) as exc:
        return LoggedEvent(seq, game_id, batch, status, reason, logged_at, {}, f"unreadable body ({exc})")
    if not isinstance(event, dict):
        return LoggedEvent(seq, game_id, batch, status, reason, logged_at, {},
                           f"the body is a {type(event).__name__}, not an object")
    return LoggedEvent(seq, game_id, batch, status, reason, logged_at, sanitize(event, depth=64),
                       None if damage is None else f"a bad value: {damage}")


def _loads(text: Any, kind: type) -> Any:
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return kind()
    return value if isinstance(value, kind) else kind()


def _check_tables(conn: sqlite3.Connection, path: Path | str, version: int) -> None:
    """Refuse a rig database whose tables were dropped or changed."""
    for table, columns in EXPECTED_COLUMNS.items():
        if table == "games" and version < 2 or table == "requests" and version < 4 \
                or table == "league_outbox" and version < 5:
            continue
        found = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if not columns <= found:
            what = "is missing" if not found else f"lacks columns {', '.join(sorted(columns - found))}"
            raise LogError(f"{path} is damaged (its table {table!r} {what}); it was left untouched: "
                           + _rescue(path))


def _migrate_clean_poison(conn: sqlite3.Connection) -> None:
    """Schema 3: events logged before the strict boundary that hold NaN, infinities, numbers beyond
    int64, lone surrogates or NUL characters are rewritten with those values made safe (their short
    ``repr``), so the fold, the state and the history can always be sent as JSON; the game summaries
    are rebuilt from the events at the next start."""
    rows = conn.execute("SELECT seq, body FROM events").fetchall()
    for seq, body in rows:
        try:
            event = json.loads(body)
            check_value(event, depth=64)
        except BadInput:
            clean = sanitize(event, depth=64)
            kind = clean.get("type") if isinstance(clean, dict) else None
            conn.execute("UPDATE events SET body = ?, type = ?, source = ? WHERE seq = ?",
                         (json.dumps(clean, sort_keys=True, separators=(",", ":")),
                          kind if isinstance(kind, str) else "?",
                          str(clean.get("source", "?")) if isinstance(clean, dict) else "?", seq))
        except (TypeError, ValueError, RecursionError):
            continue  # unreadable: the fold skips it with a notice
    conn.execute("DELETE FROM games")


def _wal_checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum over ``data`` (a multiple of 8 bytes), continuing from ``(s0, s1)``."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_damage(wal: Path) -> str | None:
    """Why ``wal`` would make SQLite silently drop committed transactions, or None.

    SQLite replays a WAL up to its first frame whose checksum fails and ignores the rest. At the
    end of the file that is a write cut short by a crash (never acknowledged); a bad frame with
    committed frames of the same WAL generation after it means acknowledged events would vanish.
    """
    try:
        data = wal.read_bytes()
    except OSError:
        return None
    if len(data) < 32:
        return None
    magic, _version, page_size, _ckpt, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:32])
    if magic not in (0x377F0682, 0x377F0683) or not 512 <= page_size <= 65536:
        return "its header is not a WAL header" if any(data[:32]) else None
    big = magic & 1 == 1
    frame_size = 24 + page_size
    frames = [data[32 + k * frame_size: 32 + (k + 1) * frame_size] for k in range((len(data) - 32) // frame_size)]
    ours = [k for k, f in enumerate(frames) if struct.unpack(">II", f[8:16]) == (salt1, salt2)]
    s0, s1 = _wal_checksum(data[:24], big, 0, 0)
    if (s0, s1) != (c0, c1):
        commits = [k for k in ours if struct.unpack(">I", frames[k][4:8])[0]]
        return f"its header fails its checksum and {len(commits)} committed frame(s) follow" if commits else None
    for k, frame in enumerate(frames):
        if struct.unpack(">II", frame[8:16]) != (salt1, salt2):
            return None  # frames of an older generation: SQLite stops here, nothing committed is lost
        s0, s1 = _wal_checksum(frame[:8] + frame[24:], big, s0, s1)
        if (s0, s1) != struct.unpack(">II", frame[16:24]):
            later = [j for j in ours if j > k and struct.unpack(">I", frames[j][4:8])[0]]
            if later:
                return f"frame {k + 1} of {len(frames)} fails its checksum with {len(later)} committed frame(s) after it"
            return None  # the last write, cut short by a crash: it was never acknowledged
    return None


def _check_wal(path: Path) -> None:
    wal = path.with_name(path.name + "-wal")
    damage = wal_damage(wal) if wal.is_file() else None
    if damage:
        raise LogError(f"{wal} is damaged ({damage}): opening it would silently drop logged events, so "
                       f"{path.name} was left untouched: " + _rescue(path))


def _check_file(path: Path, create: bool) -> bool:
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
        if not os.access(path, os.W_OK):
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


def open_log(data_dir: str | os.PathLike[str], *, create: bool = True) -> EventLog:
    """The event log in ``data_dir`` (see :mod:`rig.engine.paths`)."""
    from rig.engine.paths import database_path

    return EventLog(database_path(data_dir), create=create)

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
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Mapping

from rig.engine.errors import LogError

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
    (  # 2 -> 3: the league publisher's cursor: the last seq the broker acknowledged (rig.league.publisher)
        """CREATE TABLE IF NOT EXISTS league_outbox (
            stream     TEXT PRIMARY KEY,
            acked_seq  INTEGER NOT NULL,
            updated_at TEXT NOT NULL
        )""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


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

    @property
    def type(self) -> str:
        return self.event.get("type", "?")

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

    # -- opening ----------------------------------------------------------------------

    def _open(self, create: bool) -> sqlite3.Connection:
        path = self.path
        if isinstance(path, Path):
            _check_file(path, create)
        try:
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=10)
        except sqlite3.Error as exc:
            raise LogError(f"{path}: cannot open the database: {exc}") from None
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
                    raise LogError(f"{path} is damaged ({problems[0]}); it was left untouched: "
                                   "move it away to start a new log, keep it for rescue")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            self._migrate(conn, version)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise LogError(f"{path} is not a usable rig database ({exc}); it was left untouched") from None
        except LogError:
            conn.close()
            raise
        return conn

    @staticmethod
    def _migrate(conn: sqlite3.Connection, version: int) -> None:
        for target in range(version + 1, SCHEMA_VERSION + 1):
            conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[target - 1]:
                    conn.execute(statement)
                if target == 1:
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {target}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    @property
    def schema_version(self) -> int:
        with self._lock:
            return self._conn.execute("PRAGMA user_version").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EventLog({str(self.path)!r})"

    # -- writing ----------------------------------------------------------------------

    def append(self, event: Mapping[str, Any], *, game_id: int | None = None, status: str = "applied",
               reason: str | None = None, new_game: bool = False) -> int:
        """Append one event durably; returns its sequence number."""
        return self.append_batch([Pending(event, game_id, status, reason, new_game)])[0]

    def append_batch(self, items: Iterable[Pending], *, summaries: Iterable[Mapping[str, Any]] = ()) -> list[int]:
        """Append events in one transaction (all or none survive a crash); returns their sequence numbers.

        ``summaries`` are game summary rows written in the same transaction (see :meth:`save_game`);
        their ``last_seq`` becomes the batch's last sequence number and an ``id`` of None the id
        of the game started in this batch.
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
                        event = item.event
                        body = json.dumps(event, sort_keys=True, separators=(",", ":"), default=repr)
                        kind = event.get("type")
                        t_us = event.get("t_us")
                        cur = conn.execute(
                            "INSERT INTO events (game_id, batch, type, t_us, source, status, reason, logged_at, body)"
                            " VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?)",
                            (item.game_id, kind if isinstance(kind, str) else "?",
                             t_us if isinstance(t_us, int) and not isinstance(t_us, bool) else -1,
                             str(event.get("source", "?")), item.status, item.reason, logged_at, body),
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
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise LogError(f"{self.path}: cannot append to the event log: {exc}") from None
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
        return [LoggedEvent(seq, gid, batch, st, reason, at, json.loads(body))
                for seq, gid, batch, st, reason, at, body in rows]

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
                raise LogError(f"{self.path}: cannot save the game summary: {exc}") from None

    def games(self) -> list[dict[str, Any]]:
        """Every game's summary, newest first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT game_id, game, status, players, totals, winner, turns, started_at, ended_at, last_seq"
                " FROM games ORDER BY game_id DESC").fetchall()
        return [{"id": gid, "game": game, "status": status, "players": json.loads(players),
                 "totals": json.loads(totals), "winner": winner, "turns": turns,
                 "started_at": started, "ended_at": ended, "last_seq": last_seq}
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


def _game_row(summary: Mapping[str, Any]) -> tuple:
    return (summary["id"], summary["game"], summary["status"], json.dumps(list(summary["players"])),
            json.dumps(dict(summary["totals"])), summary.get("winner"), summary["turns"],
            summary.get("started_at"), summary.get("ended_at"), summary["last_seq"])


def _check_file(path: Path, create: bool) -> None:
    if path.is_dir():
        raise LogError(f"{path} is a folder, not a database file")
    if path.exists():
        try:
            with open(path, "rb") as handle:
                head = handle.read(len(SQLITE_MAGIC))
        except OSError as exc:
            raise LogError(f"{path}: cannot read the database: {exc.strerror}") from None
        if head and head != SQLITE_MAGIC:
            raise LogError(f"{path} is not a SQLite database; it was left untouched: "
                           "move it away or choose another --data-dir")
        if not os.access(path, os.W_OK):
            raise LogError(f"{path}: not allowed to write the database (check its owner and mode)")
        return
    if not create:
        raise LogError(f"{path}: no event log here yet")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LogError(f"cannot create the data folder {path.parent}: {exc.strerror}") from None
    if not os.access(path.parent, os.W_OK):
        raise LogError(f"not allowed to write in the data folder {path.parent}")


def open_log(data_dir: str | os.PathLike[str], *, create: bool = True) -> EventLog:
    """The event log in ``data_dir`` (see :mod:`rig.engine.paths`)."""
    from rig.engine.paths import database_path

    return EventLog(database_path(data_dir), create=create)

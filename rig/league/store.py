"""The league's own SQLite: every table's events, de-duplicated by ``(table, seq)``, folded into games,
results and standings.

An event counts once the table's events before it have all arrived (``have``: the highest ``seq``
up to which nothing is missing); a game is folded from its events with the rig's own engine
(:func:`rig.engine.game.apply`, batches and undo as :func:`rig.engine.engine.fold` has them, so the
league's totals are the table's totals) — incrementally while it is being played — and its
players' results go into ``results``; the standings are a sum over ``results``.

>>> from rig.league.topics import EventMessage
>>> store = LeagueStore(":memory:")
>>> start = EventMessage("t1", 1, 1, 1, "applied", None, "2026-11-23T10:00:00+00:00",
...                      {"type": "game_started", "t_us": 0, "source": "sim", "players": ["Ada", "Ben", "Cleo"]})
>>> store.apply([start, start])  # the second is a duplicate
1
>>> [(g["table"], g["status"], g["players"]) for g in store.games()]
[('t1', 'playing', ['Ada', 'Ben', 'Cleo'])]
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterable

from rig.engine.errors import LogError
from rig.league import audit
from rig.league.audit import DigestMessage
from rig.league.topics import EventMessage, MessageError, StateMessage, split_topic

#: ``PRAGMA application_id`` of a league database: "RLG!"
APPLICATION_ID = 0x524C4721
SCHEMA = (
    """CREATE TABLE tables (
        name TEXT PRIMARY KEY, first_seen REAL NOT NULL, last_seen REAL NOT NULL,
        have INTEGER NOT NULL DEFAULT 0, known_last INTEGER NOT NULL DEFAULT 0,
        online INTEGER, state TEXT, state_seq INTEGER NOT NULL DEFAULT 0, rejected INTEGER NOT NULL DEFAULT 0,
        log TEXT)""",
    """CREATE TABLE events (
        table_name TEXT NOT NULL, seq INTEGER NOT NULL, game_id INTEGER, batch INTEGER NOT NULL,
        status TEXT NOT NULL, reason TEXT, logged_at TEXT NOT NULL, body TEXT NOT NULL,
        sent REAL, received REAL NOT NULL, applied REAL,
        PRIMARY KEY (table_name, seq)) WITHOUT ROWID""",
    "CREATE INDEX events_by_game ON events (table_name, game_id, seq)",
    """CREATE TABLE games (
        table_name TEXT NOT NULL, game_id INTEGER NOT NULL, game TEXT NOT NULL, status TEXT NOT NULL,
        players TEXT NOT NULL, totals TEXT NOT NULL, winner TEXT, turns INTEGER NOT NULL,
        started_at TEXT, ended_at TEXT, last_seq INTEGER NOT NULL, error TEXT,
        PRIMARY KEY (table_name, game_id))""",
    """CREATE TABLE results (
        table_name TEXT NOT NULL, game_id INTEGER NOT NULL, player TEXT NOT NULL,
        points INTEGER NOT NULL, won INTEGER NOT NULL, finished INTEGER NOT NULL,
        PRIMARY KEY (table_name, game_id, player))""",
    "CREATE TABLE rejects (id INTEGER PRIMARY KEY, at REAL NOT NULL, topic TEXT NOT NULL, reason TEXT NOT NULL)",
)
#: added after schema 1 (created in older league databases too): each table's announced whole-log digest
#: and the league's comparison (:mod:`rig.league.audit`), and the ``seq``s that arrived with other content
AUDIT_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS digests (
        table_name TEXT PRIMARY KEY, seq INTEGER NOT NULL, digest TEXT NOT NULL, block INTEGER NOT NULL,
        blocks TEXT NOT NULL, received REAL NOT NULL, checked_seq INTEGER, same INTEGER, differs TEXT,
        checked REAL)""",
    """CREATE TABLE IF NOT EXISTS conflicts (
        table_name TEXT NOT NULL, seq INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_name, seq))""",
)
#: rejected messages kept for the page
KEEP_REJECTS = 200
#: conflicting seqs listed per table
KEEP_CONFLICTS = 20


class _Fold:
    """One game folded so far, as the rig's engine folds it (:func:`rig.engine.engine.fold` over the
    effective batches: an undo drops the last batch)."""

    def __init__(self, started_at: str) -> None:
        self.batches: list[list[tuple[int, dict]]] = []
        self.batch_ids: list[int] = []
        self.game = None
        self.last_seq = 0
        self.started_at = started_at
        self.ended_at = started_at

    def add(self, seq: int, batch: int, event: dict) -> None:
        from rig.engine.engine import fold
        from rig.engine.game import apply, start_game

        self.last_seq = seq
        if event.get("type") == "correction" and event.get("what") == "undo":
            if not self.batches:
                raise ValueError("an undo with nothing to undo")
            self.batches.pop()
            self.batch_ids.pop()
            self.game = fold(self.batches)
            return
        if self.batch_ids and self.batch_ids[-1] == batch:
            self.batches[-1].append((seq, event))
        else:
            self.batches.append([(seq, event)])
            self.batch_ids.append(batch)
        self.game = start_game(event, seq) if event["type"] == "game_started" else apply(self.game, event)


class LeagueStore:
    """The league database at ``path`` (created if missing; ``":memory:"`` for tests). Thread-safe."""

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._folds: dict[tuple[str, int], _Fold] = {}  # games in progress, folded so far
        self._blocks: dict[tuple[str, int, int], str] = {}  # (table, block size, index) -> digest of a whole block
        if read_only:  # ``rig league --tables``: nothing on disk is created or changed
            from rig.engine.log import connect_read_only

            if not Path(path).is_file():
                raise LogError(f"{path}: no league database here")
            self._conn = connect_read_only(Path(path), strict=True)
            try:
                app_id = self._conn.execute("PRAGMA application_id").fetchone()[0]
            except sqlite3.DatabaseError as exc:
                raise LogError(f"{path} is not a usable league database ({exc})") from None
            if app_id != APPLICATION_ID:
                raise LogError(f"{path} is not a league database (no league marker)")
            return
        if str(path) != ":memory:":
            if Path(path).is_dir():
                raise LogError(f"{path} is a folder, not a league database")
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise LogError(f"cannot create the league's data folder {Path(path).parent}: {exc.strerror}") from None
        try:
            self._conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=10)
            self._setup()
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{path} is not a usable league database ({exc}); it was left untouched") from None

    def _setup(self) -> None:
        conn = self._conn
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables and app_id != APPLICATION_ID:
            conn.close()
            raise LogError(f"{self.path} is not a league database (no league marker); it was left untouched")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        if not tables:
            conn.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA:
                conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("PRAGMA user_version = 1")
            conn.execute("COMMIT")
        for statement in AUDIT_SCHEMA:
            conn.execute(statement)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __repr__(self) -> str:
        return f"LeagueStore({str(self.path)!r})"

    # -- writing ------------------------------------------------------------------------
    def _table(self, name: str, now: float) -> None:
        self._conn.execute("INSERT INTO tables (name, first_seen, last_seen) VALUES (?, ?, ?) "
                           "ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen", (name, now, now))

    def apply(self, messages: Iterable[EventMessage | StateMessage | DigestMessage], *,
              rejects: Iterable[tuple[str, str]] = (), online: Iterable[tuple[str, bool]] = ()) -> int:
        """Store a batch of messages in one transaction; returns how many events were new.

        ``rejects``: ``(topic, reason)`` of messages refused; ``online``: ``(table, online)`` statuses.
        """
        now = time.time()
        new = 0
        touched: set[str] = set()
        rejects = list(rejects)
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                for message in messages:
                    self._table(message.table, now)
                    if isinstance(message, StateMessage):
                        conn.execute("UPDATE tables SET state = ?, state_seq = ?, known_last = max(known_last, ?) "
                                     "WHERE name = ? AND state_seq <= ?",
                                     (json.dumps(message.state), message.seq, message.seq, message.table,
                                      message.seq))
                        continue
                    if isinstance(message, DigestMessage):
                        if self._same_log(message, rejects):
                            self._store_digest(message, now)
                            touched.add(message.table)
                        continue
                    if not self._same_log(message, rejects):
                        continue
                    cur = conn.execute(
                        "INSERT OR IGNORE INTO events (table_name, seq, game_id, batch, status, reason, logged_at,"
                        " body, sent, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (message.table, message.seq, message.game_id, message.batch, message.status, message.reason,
                         message.logged_at, json.dumps(message.event), message.sent, now))
                    if not cur.rowcount:
                        conflict = self._differs(message)
                        if conflict:  # a replay must say the same: another content is a forgery or a new log
                            rejects.append((f"rig/{message.table}/events", conflict))
                            conn.execute("INSERT OR REPLACE INTO conflicts VALUES (?, ?, ?)",
                                         (message.table, message.seq, now))
                    if cur.rowcount:
                        new += 1
                        touched.add(message.table)
                        conn.execute("UPDATE tables SET known_last = max(known_last, ?) WHERE name = ?",
                                     (message.seq, message.table))
                for table, is_online in online:
                    self._table(table, now)
                    conn.execute("UPDATE tables SET online = ? WHERE name = ?", (int(is_online), table))
                for topic, reason in rejects:
                    conn.execute("INSERT INTO rejects (at, topic, reason) VALUES (?, ?, ?)", (now, topic, reason))
                    try:
                        table = split_topic(topic)[0]
                    except MessageError:
                        continue
                    self._table(table, now)
                    conn.execute("UPDATE tables SET rejected = rejected + 1 WHERE name = ?", (table,))
                conn.execute("DELETE FROM rejects WHERE id <= (SELECT max(id) FROM rejects) - ?", (KEEP_REJECTS,))
                for table in touched:
                    self._advance(table, now)
                    self._audit(table, now)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return new

    def _differs(self, message: EventMessage) -> str | None:
        """Why ``message`` is not the event the league already holds for its ``(table, seq)``, or None."""
        row = self._conn.execute("SELECT game_id, batch, status, reason, logged_at, body FROM events "
                                 "WHERE table_name = ? AND seq = ?", (message.table, message.seq)).fetchone()
        if row is None:
            return None
        held = (row[0], row[1], row[2], row[3], row[4], json.loads(row[5]))
        sent = (message.game_id, message.batch, message.status, message.reason, message.logged_at,
                json.loads(json.dumps(message.event)))
        if held == sent:
            return None
        return (f"{message.table} event #{message.seq} arrived again with other content: the league keeps the "
                "first; one of them is forged or replaced (sign the tables' events: [league] secret)")

    def _same_log(self, message: EventMessage | DigestMessage, rejects: list[tuple[str, str]]) -> bool:
        """A table whose rig starts a new event log (a new SD card) would count from seq 1 again: its
        events are refused until the league's data for that table is archived, never mixed."""
        if message.log is None:
            return True
        (known,) = self._conn.execute("SELECT log FROM tables WHERE name = ?", (message.table,)).fetchone()
        if known is None:
            self._conn.execute("UPDATE tables SET log = ? WHERE name = ?", (message.log, message.table))
            return True
        if known == message.log:
            return True
        rejects.append((f"rig/{message.table}/events",
                        f"{message.table} publishes a new event log (begun {message.log}, the league has the one "
                        f"begun {known}): give the table a new name, or start the league with a fresh database"))
        return False

    # -- the whole log's digest (rig.league.audit) ----------------------------------------------
    def _store_digest(self, message: DigestMessage, now: float) -> None:
        self._conn.execute(
            "INSERT INTO digests (table_name, seq, digest, block, blocks, received) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_name) DO UPDATE SET seq = excluded.seq, digest = excluded.digest, "
            "block = excluded.block, blocks = excluded.blocks, received = excluded.received "
            "WHERE excluded.seq >= digests.seq",
            (message.table, message.seq, message.digest, message.block, json.dumps(list(message.blocks)), now))
        self._conn.execute("UPDATE tables SET known_last = max(known_last, ?) WHERE name = ?",
                           (message.seq, message.table))

    def _audit(self, table: str, now: float) -> None:
        """Compare the league's copy of ``table``'s log with the digest the table announced, once the league
        holds every event up to it: the blocks that differ are recorded as ``seq`` ranges."""
        conn = self._conn
        row = conn.execute("SELECT d.seq, d.digest, d.block, d.blocks, d.checked_seq, t.have FROM digests d "
                           "JOIN tables t ON t.name = d.table_name WHERE d.table_name = ?", (table,)).fetchone()
        if row is None:
            return
        seq, digest, block, blocks, checked, have = row
        if checked == seq or have < seq:
            return  # compared already, or not everything up to it is here yet
        theirs = json.loads(blocks)
        ours = [self._block(table, block, index, seq) for index in range(len(theirs))]
        differs = [] if audit.whole_digest(seq, ours) == digest else [
            (index * block + 1, min((index + 1) * block, seq))
            for index, (a, b) in enumerate(zip(ours, theirs)) if a != b] or [(1, seq)]
        runs: list[tuple[int, int]] = []
        for first, last in differs:
            if runs and runs[-1][1] == first - 1:
                runs[-1] = (runs[-1][0], last)
            else:
                runs.append((first, last))
        conn.execute("UPDATE digests SET checked_seq = ?, same = ?, differs = ?, checked = ? WHERE table_name = ?",
                     (seq, int(not runs), json.dumps(runs), now, table))

    def _block(self, table: str, size: int, index: int, upto: int) -> str:
        """The digest of the league's events of one block (cut at ``upto``); whole blocks are cached (an
        event, once stored, never changes)."""
        key = (table, size, index)
        last = min((index + 1) * size, upto)
        whole = last == (index + 1) * size
        if whole and key in self._blocks:
            return self._blocks[key]
        rows = self._conn.execute(
            "SELECT seq, game_id, batch, status, reason, logged_at, body FROM events WHERE table_name = ? "
            "AND seq BETWEEN ? AND ? ORDER BY seq", (table, index * size + 1, last)).fetchall()
        value = audit.block_digest((seq, game_id, batch, status, reason, logged_at, json.loads(body))
                                   for seq, game_id, batch, status, reason, logged_at, body in rows)
        if whole:
            self._blocks[key] = value
        return value

    def gaps(self, table: str, limit: int = 20) -> list[tuple[int, int]]:
        """The ``seq`` ranges the league lacks between what it counts and the last it knows of (at most ``limit``)."""
        with self._lock:
            row = self._conn.execute("SELECT have, known_last FROM tables WHERE name = ?", (table,)).fetchone()
            if row is None or row[1] <= row[0]:
                return []
            have, known = row
            runs: list[tuple[int, int]] = []
            expected = have + 1
            for (seq,) in self._conn.execute("SELECT seq FROM events WHERE table_name = ? AND seq > ? AND seq <= ? "
                                             "ORDER BY seq", (table, have, known)):
                if seq > expected:
                    runs.append((expected, seq - 1))
                    if len(runs) >= limit:
                        return runs
                expected = seq + 1
            if expected <= known:
                runs.append((expected, known))
            return runs[:limit]

    def _advance(self, table: str, now: float) -> None:
        """Count the events that are now contiguous and re-fold the games they belong to."""
        conn = self._conn
        have = conn.execute("SELECT have FROM tables WHERE name = ?", (table,)).fetchone()[0]
        start = have
        dirty: set[int] = set()
        while True:
            rows = conn.execute("SELECT seq, game_id FROM events WHERE table_name = ? AND seq > ? ORDER BY seq "
                                "LIMIT 1000", (table, have)).fetchall()
            for seq, game_id in rows:
                if seq != have + 1:
                    break
                have = seq
                if game_id is not None:
                    dirty.add(game_id)
            else:
                if len(rows) == 1000:
                    continue
            break
        if have == start:
            return
        conn.execute("UPDATE events SET applied = ? WHERE table_name = ? AND seq > ? AND seq <= ?",
                     (now, table, start, have))
        conn.execute("UPDATE tables SET have = ? WHERE name = ?", (have, table))
        for game_id in sorted(dirty):
            self._refold(table, game_id, have)

    def _refold(self, table: str, game_id: int, have: int) -> None:
        """Bring one game's summary and results up to ``have``: incrementally from the cached fold when
        there is one (an undo re-folds the game's remaining batches), else from its first event."""
        from rig.engine.engine import summary

        cached = self._folds.pop((table, game_id), None)
        since = cached.last_seq if cached is not None else game_id - 1
        rows = self._conn.execute(
            "SELECT seq, batch, logged_at, body FROM events WHERE table_name = ? AND game_id = ? "
            "AND status = 'applied' AND seq > ? AND seq <= ? ORDER BY seq", (table, game_id, since, have)).fetchall()
        if cached is None and (not rows or rows[0][0] != game_id):
            return  # the game's start is not here (yet)
        if not rows:
            self._folds[(table, game_id)] = cached
            return
        error = None
        try:
            fold = cached or _Fold(rows[0][2])
            for seq, batch, logged_at, body in rows:
                fold.add(seq, batch, json.loads(body))
            fold.ended_at = rows[-1][2]
            row = summary(fold.game, started_at=fold.started_at, ended_at=fold.ended_at)
        except Exception as exc:  # a table's events the engine cannot fold: shown, never a crash
            error = f"cannot fold game {game_id} of {table}: {type(exc).__name__}: {exc}"
            started = cached.started_at if cached is not None else rows[0][2]
            row = {"game": "?", "status": "unreadable", "players": [], "totals": {}, "winner": None, "turns": 0,
                   "started_at": started, "ended_at": None}
        else:
            if row["status"] == "playing":
                self._folds[(table, game_id)] = fold  # finished games leave the cache
        conn = self._conn
        conn.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (table, game_id, row["game"], row["status"], json.dumps(list(row["players"])),
                      json.dumps(dict(row["totals"])), row["winner"], row["turns"], row["started_at"],
                      row["ended_at"], rows[-1][0], error))
        conn.execute("DELETE FROM results WHERE table_name = ? AND game_id = ?", (table, game_id))
        finished = row["status"] == "over"
        conn.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)",
                         [(table, game_id, player, int(row["totals"].get(player, 0)),
                           int(finished and row["winner"] == player), int(finished)) for player in row["players"]])

    # -- reading ------------------------------------------------------------------------
    def _all(self, query: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._conn.execute(query, args).fetchall()

    def standings(self) -> list[dict[str, Any]]:
        """Per player over every table and game: games, finished, wins, points, best; best first."""
        rows = self._all("SELECT player, count(*), sum(finished), sum(won), sum(points), max(points) FROM results "
                         "GROUP BY player ORDER BY sum(won) DESC, sum(points) DESC, player")
        return [{"rank": rank, "name": name, "games": games, "finished": finished, "wins": wins, "points": points,
                 "best": best} for rank, (name, games, finished, wins, points, best) in enumerate(rows, start=1)]

    def games(self, *, status: str | None = None, limit: int = 500) -> list[dict[str, Any]]:
        """Games newest first (``status="playing"``: the games in progress)."""
        query = ("SELECT table_name, game_id, game, status, players, totals, winner, turns, started_at, ended_at,"
                 " last_seq, error FROM games")
        args: tuple = ()
        if status is not None:
            query += " WHERE status = ?"
            args = (status,)
        rows = self._all(query + " ORDER BY coalesce(ended_at, started_at) DESC, table_name LIMIT ?", (*args, limit))
        return [{"table": t, "id": gid, "game": game, "status": st, "players": json.loads(players),
                 "totals": json.loads(totals), "winner": winner, "turns": turns, "started_at": started,
                 "ended_at": ended, "last_seq": last, "error": error}
                for t, gid, game, st, players, totals, winner, turns, started, ended, last, error in rows]

    def tables(self) -> list[dict[str, Any]]:
        """Per-table health: online, last seen, events counted (``have``) and known, missing, rejected, and
        ``log``: the table's whole-log digest against the league's copy (:meth:`log_check`)."""
        rows = self._all("SELECT name, first_seen, last_seen, have, known_last, online, rejected, state_seq, "
                         "(SELECT count(*) FROM events e WHERE e.table_name = name AND e.seq > have) FROM tables "
                         "ORDER BY name")
        checks = self.log_checks()
        return [{"table": name, "first_seen": first, "last_seen": last, "have": have, "known_last": known,
                 "missing": max(0, known - have), "online": None if online is None else bool(online),
                 "rejected": rejected, "state_seq": state_seq, "waiting": waiting,
                 "log": checks.get(name, {"state": "no digest", "seq": None, "checked_seq": None, "differs": [],
                                          "conflicts": [], "text": "the table sent no digest of its log yet"})}
                for name, first, last, have, known, online, rejected, state_seq, waiting in rows]

    def log_checks(self) -> dict[str, dict[str, Any]]:
        """Per table: ``{"state": "same"|"differs"|"checking", "seq", "checked_seq", "differs": [[from, to]],
        "conflicts": [seq], "text"}`` — the league's copy against the table's whole-log digest."""
        if not self._all("SELECT 1 FROM sqlite_master WHERE name = 'digests'"):
            return {}  # a league database from before the digests (read-only: not created)
        conflicts: dict[str, list[int]] = {}
        for table, seq in self._all("SELECT table_name, seq FROM conflicts ORDER BY table_name, seq"):
            conflicts.setdefault(table, []).append(seq)
        checks = {}
        for table, seq, checked, same, differs in self._all(
                "SELECT table_name, seq, checked_seq, same, differs FROM digests"):
            runs = json.loads(differs) if differs else []
            seqs = conflicts.get(table, [])[:KEEP_CONFLICTS]
            if checked is None:
                state, text = "checking", f"waiting for events up to #{seq} to compare the whole log"
            elif same:
                state, text = "same", f"the whole log up to #{checked} is the table's"
            else:
                state = "differs"
                text = f"the league's copy differs from the table's log in events {audit.describe(runs)}"
                if seqs:
                    text += f"; arrived with other content: {audit.describe(audit.ranges(seqs))}"
            if checked is not None and checked != seq and state == "same":
                text += f" (the table's digest up to #{seq} is compared once those events are here)"
            checks[table] = {"state": state, "seq": seq, "checked_seq": checked, "differs": runs,
                             "conflicts": seqs, "text": text}
        return checks

    def table_state(self, table: str) -> dict[str, Any] | None:
        rows = self._all("SELECT state FROM tables WHERE name = ?", (table,))
        return json.loads(rows[0][0]) if rows and rows[0][0] else None

    def rejects(self, limit: int = 50) -> list[dict[str, Any]]:
        rows = self._all("SELECT at, topic, reason FROM rejects ORDER BY id DESC LIMIT ?", (limit,))
        return [{"at": at, "topic": topic, "reason": reason} for at, topic, reason in rows]

    def latencies(self) -> list[float]:
        """Seconds from publish (the table's clock) to counted (the league's), per event: for the benchmark."""
        rows = self._all("SELECT applied - sent FROM events WHERE applied IS NOT NULL AND sent IS NOT NULL")
        return [row[0] for row in rows]

    def counted(self) -> dict[str, int]:
        """Table → ``have``."""
        return dict(self._all("SELECT name, have FROM tables"))

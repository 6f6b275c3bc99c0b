"""The event log's tables: the schema migrations (version N to N + 1), the columns the rig reads, the
check that a database has them, and schema 3's clean-up of old poison (issue 29: split from
:mod:`rig.engine.log`, which re-exports every name).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from rig.boundary import BadInput, check_value, sanitize
from rig.engine.errors import LogError
from rig.engine.wal import _rescue

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

#: the tables and columns the rig reads
EXPECTED_COLUMNS = {
    "requests": {"key", "seq", "status", "reason"},
    "league_outbox": {"stream", "acked_seq", "updated_at"},
    "events": {"seq", "game_id", "batch", "type", "t_us", "source", "status", "reason", "logged_at", "body"},
    "games": {"game_id", "game", "status", "players", "totals", "winner", "turns", "started_at", "ended_at",
              "last_seq"},
}

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

"""The rig's side of the league: the event log is the outbox.

:class:`Publisher` reads the events after its cursor from the rig's own SQLite file and
publishes each one to ``rig/<table>/events`` (QoS 1, in log order); the broker's PUBACK for an
event moves the cursor — the last ``seq`` the broker has acknowledged, kept in the
``league_outbox`` table of the same file (:mod:`rig.engine.log`, schema 3). After a broker
outage, a cut cable or a power cut it starts again after the cursor: nothing is lost. An event
may be sent twice (acknowledged, but the cursor not yet saved when the power went); the league
drops a ``(table, seq)`` it already has. The current state goes to ``rig/<table>/state``,
retained, after the events; ``rig/<table>/status`` says online (the last will says offline).

The publisher never blocks the game: it runs on its own thread with its own database
connection, and only reads the log. :meth:`Publisher.link` is what the scoreboard shows.
"""

from __future__ import annotations

import collections
import logging
import sqlite3
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from rig.league import audit, topics
from rig.league.mqtt import BrokerSettings, connect_failure, make_client, reason_text
from rig.league.topics import EventMessage, StateMessage

log = logging.getLogger(__name__)

#: events in flight (published, not yet acknowledged) at most
WINDOW = 200
#: how often the cursor is written while acknowledgements stream in (seconds)
SAVE_EVERY_S = 0.2
#: after the broker refuses an event (not authorized), wait this long before trying again
REFUSED_RETRY_S = 10.0
#: the retained state is refreshed at most this often (seconds); the last one always goes out
STATE_EVERY_S = 0.5
#: keepalive: a cut cable is noticed after about 1.5 times this
KEEPALIVE_S = 10
#: the retained digest of the whole log (:mod:`rig.league.audit`) is refreshed at most this often (seconds)
DIGEST_EVERY_S = 1.0


class Publisher:
    """Publishes the event log at ``db_path`` under ``table`` through ``settings``' broker.

    ``service`` (an :class:`rig.engine.service.EngineService`, optional) supplies the state to retain
    and wakes the publisher when an event is logged (else it polls every ``poll_s``).
    ``with Publisher(...) as pub:`` starts and stops it.
    """

    def __init__(self, db_path: str | Path, table: str, settings: BrokerSettings, *, service=None,
                 window: int = WINDOW, poll_s: float = 0.25, client_id: str | None = None,
                 secret: str | None = None) -> None:
        self.db_path = Path(db_path)
        #: the table's secret: every event is signed with it (HMAC-SHA256), the league verifies
        self._secret = secret
        self.table = table
        self.settings = settings
        self.service = service
        self.window = window
        self.poll_s = poll_s
        self.client_id = client_id or f"rig-table-{table}"
        self.stream = f"{settings.host}:{settings.port}/{table}"
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._acks: collections.deque = collections.deque()
        self._lock = threading.Lock()
        self._connected = False
        self._error: str | None = None
        self._refused = False  # the error is the broker refusing a publish (cleared by the next acknowledgement)
        self._resend: list[tuple[int, int | None]] = []  # (from, to) ranges the league asked for
        self._threads: list[threading.Thread] = []
        self._client = None
        self.cursor = 0
        self.last_seq = 0
        self.published = 0
        self.resends = 0  # resend requests from the league acted on
        self.replayed = 0  # events published again on the league's request
        self.digest = audit.LogDigest()  # of the whole log, published retained (rig/<table>/digest)

    def __repr__(self) -> str:
        return f"<Publisher {self.table} -> {self.settings!r} acked {self.cursor}/{self.last_seq}>"

    # -- life cycle --------------------------------------------------------------------
    def start(self) -> Publisher:
        self._conn = self._open()
        self.cursor = self._load_cursor()
        self.last_seq = self._log_end()
        client = self._client = make_client(self.client_id, self.settings)
        client.max_inflight_messages_set(self.window)
        client.will_set(topics.topic(self.table, topics.STATUS), topics.status_payload(self.table, False),
                        qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        client.connect_async(self.settings.host, self.settings.port, keepalive=KEEPALIVE_S, clean_start=True)
        client.loop_start()
        self._threads = [threading.Thread(target=self._run, name=f"league-publisher-{self.table}", daemon=True)]
        if self.service is not None:
            self._threads.append(threading.Thread(target=self._watch, name=f"league-watch-{self.table}",
                                                  daemon=True))
        for thread in self._threads:
            thread.start()
        return self

    def close(self) -> None:
        """Stop publishing; the cursor is saved, the status says offline (safe to call twice)."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout=5)
        client = self._client
        if client is not None:
            if self._connected:
                info = client.publish(topics.topic(self.table, topics.STATUS),
                                      topics.status_payload(self.table, False), qos=1, retain=True)
                try:
                    info.wait_for_publish(timeout=1)
                except (RuntimeError, ValueError):
                    pass
            client.disconnect()
            client.loop_stop()
        if getattr(self, "_conn", None) is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Publisher:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the scoreboard shows -------------------------------------------------------
    def link(self) -> dict[str, Any]:
        """``{"table", "broker", "connected", "acked", "logged", "waiting", "error"}``."""
        with self._lock:
            return {"table": self.table, "broker": self.settings.address, "connected": self._connected,
                    "acked": self.cursor, "logged": self.last_seq, "waiting": max(0, self.last_seq - self.cursor),
                    "error": self._error}

    # -- the database --------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        from rig.engine.errors import LogError

        try:
            conn = sqlite3.connect(str(self.db_path), isolation_level=None, check_same_thread=False, timeout=10)
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("SELECT 1 FROM league_outbox LIMIT 1")
        except sqlite3.Error as exc:
            raise LogError(f"{self.db_path}: cannot use the event log as the league's outbox ({exc}); "
                           "open it with this rig first (schema 3)") from None
        return conn

    def _load_cursor(self) -> int:
        row = self._conn.execute("SELECT acked_seq FROM league_outbox WHERE stream = ?", (self.stream,)).fetchone()
        return row[0] if row else 0

    def _save_cursor(self, cursor: int) -> None:
        now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        try:
            self._conn.execute("INSERT INTO league_outbox (stream, acked_seq, updated_at) VALUES (?, ?, ?) "
                               "ON CONFLICT (stream) DO UPDATE SET acked_seq = excluded.acked_seq, "
                               "updated_at = excluded.updated_at", (self.stream, cursor, now))
        except sqlite3.Error as exc:  # the log is busy or the disk full: the next save catches up
            log.warning("league: cannot save the outbox cursor: %s", exc)

    def _rows(self, first: int, limit: int) -> list[tuple]:
        return self._conn.execute(
            "SELECT seq, game_id, batch, status, reason, logged_at, body FROM events WHERE seq >= ? "
            "ORDER BY seq LIMIT ?", (first, limit)).fetchall()

    def _log_id(self) -> str | None:
        """The log's identity: when its first event was logged (None while it is empty)."""
        row = self._conn.execute("SELECT logged_at FROM events WHERE seq = 1").fetchone()
        return row[0] if row else None

    def _log_end(self) -> int:
        return self._conn.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0]

    # -- paho callbacks (its network thread: record and wake, nothing more) --------------
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            with self._lock:
                self._error = f"the broker refused the connection: {reason_text(reason_code)}"
            log.warning("league: %s", self._error)
            return
        with self._lock:
            self._connected = True
            if not self._refused:
                self._error = None
        client.subscribe(topics.topic(self.table, topics.RESEND), qos=1)
        client.publish(topics.topic(self.table, topics.STATUS), topics.status_payload(self.table, True),
                       qos=1, retain=True)
        self._wake.set()

    def _on_connect_fail(self, client, userdata) -> None:
        with self._lock:
            self._error = connect_failure(self.settings)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._lock:
            self._connected = False
        self._wake.set()

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        self._acks.append((mid, reason_code))
        self._wake.set()

    def _on_message(self, client, userdata, message) -> None:
        try:
            wanted = audit.parse_range(message.topic, message.payload)
        except topics.MessageError as exc:
            log.warning("league: ignored: %s", exc)
            return
        with self._lock:
            if len(self._resend) < 1000:
                self._resend.append(wanted)
        self._wake.set()

    def _watch(self) -> None:
        """Wake the publisher whenever the engine logs something."""
        version = -1
        while not self._stop.is_set():
            if self.service.wait_for_change(version, 0.5):
                self._wake.set()
            try:
                version = self.service.version
            except Exception:  # the service is closing
                return

    # -- the publishing loop ---------------------------------------------------------------
    def _run(self) -> None:
        """The loop, kept alive through database trouble (a locked or full disk: try again shortly)."""
        while not self._stop.is_set():
            try:
                self._publish_loop()
                return
            except sqlite3.Error as exc:
                with self._lock:
                    self._error = f"cannot read the event log: {exc}"
                log.warning("league: %s", self._error)
                self._stop.wait(1.0)

    def _publish_loop(self) -> None:
        next_seq = self.cursor + 1
        log_id = None
        inflight: dict[int, int] = {}  # mid -> seq
        acked: set[int] = set()  # acknowledged above the cursor
        saved = self.cursor
        last_save = 0.0
        state_seq = -1
        state_at = 0.0
        digest_seq, digest_at = -1, 0.0
        replay: list[list[int]] = []  # [next, last] ranges asked for again, published beside the stream
        paused_until = 0.0
        while not self._stop.is_set():
            self._wake.wait(self.poll_s)
            self._wake.clear()
            # acknowledgements
            while self._acks:
                mid, reason = self._acks.popleft()
                seq = inflight.pop(mid, None)
                if reason.is_failure:  # with Mosquitto 2.0 + paho 2.2 the connection drops right after
                    with self._lock:
                        self._error = (f"the broker refused to take {self.table}'s messages: {reason_text(reason)} "
                                       "(check the table's account and the ACL)")
                        self._refused = True
                    log.warning("league: %s", self._error)
                    paused_until = time.monotonic() + REFUSED_RETRY_S
                    next_seq = self.cursor + 1
                    continue
                if seq is None:
                    continue
                if self._refused:
                    with self._lock:
                        self._error, self._refused = None, False
                if seq > self.cursor:
                    acked.add(seq)
            cursor = self.cursor
            while cursor + 1 in acked:
                cursor += 1
                acked.discard(cursor)
            end = self._log_end()
            with self._lock:
                self.cursor, self.last_seq = cursor, end
                resend, self._resend = self._resend, []
                connected = self._connected
            now = time.monotonic()
            with self._lock:
                if self._error and self._error.startswith("cannot read the event log"):
                    self._error = None
            if cursor != saved and (now - last_save >= SAVE_EVERY_S or not inflight):
                self._save_cursor(cursor)
                saved, last_save = cursor, now
            for first, last in resend:  # only what was published already: the stream brings the rest
                last = next_seq - 1 if last is None else min(last, next_seq - 1)
                if first <= last:
                    log.info("league: the league asked for %s #%d-%d again", self.table, first, last)
                    replay.append([first, last])
                    self.resends += 1
            if not connected or now < paused_until:
                continue
            if next_seq <= cursor and not inflight:
                next_seq = cursor + 1
            room = self.window - len(inflight)
            while replay and room > 0:
                log_id = log_id or self._log_id()
                first, last = replay[0]
                rows = self._rows(first, min(room, last - first + 1))
                for row in rows:
                    message = EventMessage.from_row(self.table, row, log=log_id)
                    info = self._client.publish(topics.topic(self.table, topics.EVENTS),
                                                message.payload(secret=self._secret), qos=1)
                    inflight[info.mid] = message.seq
                    self.replayed += 1
                    room -= 1
                replay[0][0] = rows[-1][0] + 1 if rows else last + 1
                if replay[0][0] > last:
                    replay.pop(0)
                self._wake.set()
            if room > 0 and next_seq <= end:
                log_id = log_id or self._log_id()
                for row in self._rows(next_seq, room):
                    message = EventMessage.from_row(self.table, row, log=log_id)
                    info = self._client.publish(topics.topic(self.table, topics.EVENTS), message.payload(secret=self._secret), qos=1)
                    inflight[info.mid] = message.seq
                    next_seq = message.seq + 1
                    self.published += 1
                self._wake.set()  # more may be waiting
            elif (next_seq > end and state_seq != end and self.service is not None and len(inflight) < self.window
                  and now - state_at >= STATE_EVERY_S):
                state_seq, state_at = end, now
                self._publish_state(end)
            elif next_seq > end and digest_seq != end and now - digest_at >= DIGEST_EVERY_S:
                digest_seq, digest_at = end, now
                self._publish_digest(log_id or self._log_id())
        if self.cursor != saved:
            self._save_cursor(self.cursor)

    def _publish_digest(self, log_id: str | None) -> None:
        """The retained digest of the whole log (:mod:`rig.league.audit`): the league compares its copy with it."""
        try:
            self.digest.extend(self._conn)
        except ValueError as exc:  # a log with a hole in its seqs: no digest can stand for it
            log.warning("league: no digest of %s's log: %s", self.table, exc)
            return
        if self.digest.seq == 0:
            return
        payload = self.digest.message(self.table, log_id).payload(secret=self._secret)
        self._client.publish(audit.topic(self.table), payload, qos=1, retain=True)

    def _publish_state(self, seq: int) -> None:
        try:
            state = self.service.state()
        except Exception:  # the service is closing
            return
        payload = StateMessage(self.table, max(seq, int(state.get("version") or 0)), state).payload()
        self._client.publish(topics.topic(self.table, topics.STATE), payload, qos=1, retain=True)


def publisher_for(config, db_path: str | Path, service=None) -> Publisher | None:
    """The publisher a rig's config asks for (``[league]``), or None when it has no ``[league]``."""
    if config.league is None:
        return None
    return Publisher(db_path, config.league.table, BrokerSettings.from_league(config.league), service=service,
                     secret=config.league.secret)


def wait_until(predicate: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
    """Poll ``predicate`` until it is true (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()

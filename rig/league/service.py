"""``rig league``'s engine: subscribe to every table, fold what arrives into the league's SQLite.

The league connects with a persistent MQTT 5 session (``clean_start`` off, a session expiry of a
week), so while it is down the broker keeps its QoS 1 events; it acknowledges a message only after
the message is committed to its database (paho's manual acknowledgement), so a crash of the league
loses nothing either. Subscribing again re-reads every table's retained state. When a table's
events have a hole (the broker lost some in a crash) or end before the table's retained state says
they should, the league asks the table to publish them again (``rig/<table>/resend``).
A forged or malformed message is logged, counted against its table, acknowledged and ignored.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
import time
from pathlib import Path

from rig.league import audit, topics
from rig.league.mqtt import BrokerSettings, connect_failure, make_client, reason_text
from rig.league.store import LeagueStore
from rig.league.topics import EventMessage, MessageError, StateMessage

log = logging.getLogger(__name__)

#: the broker keeps the league's session (and its queued events) this long while it is away
SESSION_EXPIRY_S = 7 * 24 * 3600
#: a table whose events lag behind what it announced for this long is asked to resend
RESEND_AFTER_S = 2.0
#: ... at most this often
RESEND_EVERY_S = 5.0
#: messages folded in one transaction at most
BATCH = 500


class League:
    """Follows every table through the broker into ``db_path``. ``with League(path, settings) as league:``."""

    def __init__(self, db_path: str | Path, settings: BrokerSettings, *, client_id: str = "rig-league",
                 secrets: dict[str, str] | None = None) -> None:
        self.db_path = db_path
        #: each table's signing secret (``rig league --secrets``): with any, every event must carry a valid
        #: HMAC of its table's secret; a forged, changed or unsigned one is rejected and counted
        self.secrets = dict(secrets or {})
        self.settings = settings
        self.client_id = client_id
        self.store: LeagueStore | None = None
        self._queue: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._client = None
        self._lock = threading.Lock()
        self.connected = False
        self.error: str | None = None
        self._asked: dict[str, float] = {}
        self._behind: dict[str, tuple[int, float]] = {}
        self._newest: dict[str, tuple[int, float]] = {}  # table -> (the newest seq it holds, since when)
        self._audited: dict[str, list[tuple[int, int]]] = {}  # table -> the differing ranges asked for again
        self.applied = 0

    def __repr__(self) -> str:
        return f"<League {self.settings!r} -> {self.db_path}>"

    def start(self) -> League:
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self.store = LeagueStore(self.db_path)
        client = self._client = make_client(self.client_id, self.settings)
        client.manual_ack_set(True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = SESSION_EXPIRY_S
        client.connect_async(self.settings.host, self.settings.port, keepalive=10, clean_start=False,
                             properties=properties)
        self._thread = threading.Thread(target=self._run, name="league-fold", daemon=True)
        self._thread.start()
        client.loop_start()
        return self

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self.store is not None:
            self.store.close()

    def __enter__(self) -> League:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def status(self) -> dict:
        with self._lock:
            return {"broker": self.settings.address, "connected": self.connected, "error": self.error}

    # -- paho callbacks -------------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            with self._lock:
                self.error = f"the broker refused the league: {reason_text(reason_code)}"
            log.warning("league: %s", self.error)
            return
        with self._lock:
            self.connected, self.error = True, None
        client.subscribe([(name, 1) for name in (*topics.SUBSCRIPTIONS, *audit.SUBSCRIPTIONS)])

    def _on_connect_fail(self, client, userdata) -> None:
        with self._lock:
            self.error = connect_failure(self.settings)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._lock:
            self.connected = False

    def _on_message(self, client, userdata, message) -> None:
        self._queue.put((message.topic, message.payload, message.mid, message.qos))

    # -- folding --------------------------------------------------------------------------
    def _run(self) -> None:
        last_check = 0.0
        while not self._stop.is_set():
            try:
                first = self._queue.get(timeout=0.2)
            except queue.Empty:
                first = None
            batch = [first] if first is not None else []
            while len(batch) < BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                if batch:
                    self._fold(batch)
                now = time.monotonic()
                if now - last_check >= 1.0:
                    last_check = now
                    self._ask_for_missing(now)
            except sqlite3.Error as exc:  # a full disk, a locked file: nothing acknowledged, try again
                with self._lock:
                    self.error = f"cannot write the league database: {exc}"
                log.warning("league: %s", self.error)
                for item in batch:
                    self._queue.put(item)
                self._stop.wait(1.0)

    def _fold(self, batch: list[tuple]) -> None:
        messages, rejects, online = [], [], []
        for name, payload, _mid, _qos in batch:
            try:
                if audit.digest_table(name) is not None:
                    messages.append(self.authentic_digest(audit.DigestMessage.parse(name, payload), name))
                    continue
                kind = topics.split_topic(name)[1]
                if kind == topics.EVENTS:
                    messages.append(self.authentic(EventMessage.parse(name, payload), name))
                elif kind == topics.STATE:
                    messages.append(StateMessage.parse(name, payload))
                elif kind == topics.STATUS:
                    online.append(topics.parse_status(name, payload))
                else:
                    raise MessageError(f"{name}: the league does not read this topic")
            except MessageError as exc:
                log.warning("league: ignored: %s", exc)
                rejects.append((name, str(exc)))
        self.applied += self.store.apply(messages, rejects=rejects, online=online)
        if self.error and self.error.startswith("cannot write"):
            with self._lock:
                self.error = None
        for _name, _payload, mid, qos in batch:  # committed: now the broker may forget them
            if qos:
                self._client.ack(mid, qos)

    def authentic(self, message: EventMessage, name: str) -> EventMessage:
        """``message`` if its table's secret signs it (or the league checks no signatures), else :class:`MessageError`."""
        if not self.secrets:
            return message
        secret = self.secrets.get(message.table)
        if secret is None:
            raise MessageError(f"{name}: the league knows no secret for table {message.table!r} (add it to --secrets)")
        if message.sig is None:
            raise MessageError(f"{name}: event #{message.seq} is not signed (forged, or the table has no "
                               "[league] secret)")
        if not topics.verify(message, secret):
            raise MessageError(f"{name}: event #{message.seq} fails its signature: forged or changed on the way")
        return message

    def authentic_digest(self, message: audit.DigestMessage, name: str) -> audit.DigestMessage:
        """As :meth:`authentic`, for a table's whole-log digest."""
        if not self.secrets:
            return message
        secret = self.secrets.get(message.table)
        if secret is None:
            raise MessageError(f"{name}: the league knows no secret for table {message.table!r} (add it to --secrets)")
        if not message.verify(secret):
            raise MessageError(f"{name}: the log digest is unsigned or fails its signature: forged or changed")
        return message

    def _ask(self, table: str, first: int, last: int | None) -> None:
        self._client.publish(topics.topic(table, topics.RESEND), audit.range_payload(first, last), qos=1)

    def _ask_for_missing(self, now: float) -> None:
        """Ask a table to resend when its events have had a hole, or stopped short of its retained state's
        ``seq``, for :data:`RESEND_AFTER_S` (at most every :data:`RESEND_EVERY_S`)."""
        if not self.connected:
            return
        for row in self.store.tables():
            table = row["table"]
            check = row["log"]
            asked = self._audited.setdefault(table, [])
            fresh = unasked(check["differs"][:20], asked) if check["state"] == "differs" else []
            if fresh:
                # the league's copy is not the table's: ask for the blocks that differ again, each event once
                # (a later digest that covers more of the log adds only what it adds); an event that comes
                # back with other content is then named (conflicts, rejects)
                asked.extend(fresh)
                log.warning("league: %s: %s: asking for those events again", table, check["text"])
                for first, last in fresh:
                    self._ask(table, first, last)
            if row["known_last"] <= row["have"]:
                self._behind.pop(table, None)
                self._newest.pop(table, None)
                continue
            gaps = self.store.gaps(table)
            tail_stalled = self._tail_stalled(table, row["known_last"], gaps, now)
            since = self._behind.setdefault(table, (row["have"], now))
            if since[0] != row["have"]:  # progress: start the clock again
                self._behind[table] = (row["have"], now)
                continue
            if now - since[1] < RESEND_AFTER_S or now - self._asked.get(table, -RESEND_EVERY_S) < RESEND_EVERY_S:
                continue
            if gaps and gaps[-1][1] == row["known_last"] and not tail_stalled:
                gaps = gaps[:-1]  # the newest events are still coming in: not missing yet
            if not gaps:
                continue
            self._asked[table] = now
            log.info("league: %s is missing events %s: asking it to resend them", table, audit.describe(gaps))
            for first, last in gaps:
                self._ask(table, first, last)

    def _tail_stalled(self, table: str, known_last: int, gaps: list[tuple[int, int]], now: float) -> bool:
        """True when the events after the newest one the league holds have not come for :data:`RESEND_AFTER_S`.

        The retained state announces a ``seq`` before its event has reached the league (the table
        publishes the state beside its stream, and a loaded league folds late): a hole older than
        that is no reason to ask for the stream's head too.
        """
        newest = gaps[-1][0] - 1 if gaps and gaps[-1][1] == known_last else known_last
        seen = self._newest.get(table)
        if seen is None or seen[0] != newest:
            self._newest[table] = (newest, now)
            return False
        return now - seen[1] >= RESEND_AFTER_S


def unasked(ranges, asked) -> list[tuple[int, int]]:
    """The parts of the ``(first, last)`` seq *ranges* outside every range in *asked*.

    >>> unasked([(1, 64)], [(1, 30)]), unasked([(1, 64)], [(1, 64)]), unasked([(1, 9), (20, 40)], [(5, 25)])
    ([(31, 64)], [], [(1, 4), (26, 40)])
    """
    out: list[tuple[int, int]] = []
    for first, last in ranges:
        parts = [(first, last)]
        for a, b in asked:
            parts = [piece for lo, hi in parts
                     for piece in ((lo, min(hi, a - 1)), (max(lo, b + 1), hi)) if piece[0] <= piece[1]]
        out += parts
    return out

"""The league's topics and messages: what a rig publishes and what the league accepts.

Topics (``<table>`` is the table's name and its broker account):

- ``rig/<table>/events`` — every logged event, QoS 1, in log order: :class:`EventMessage`;
- ``rig/<table>/state`` — retained: the table's current state and its last ``seq``: :class:`StateMessage`;
- ``rig/<table>/status`` — retained: ``{"table", "online"}``, ``online: false`` being the rig's last will;
- ``rig/<table>/resend`` — the league asks a table to publish again from a ``seq`` (``{"from": N}``).

Every message is a JSON object; :meth:`EventMessage.parse` refuses anything malformed or forged
(a payload naming another table than its topic) with :class:`MessageError` and one line saying why.

>>> msg = EventMessage.parse("rig/t1/events", b'{"v": 1, "table": "t1", "seq": 3, "game_id": 1, '
...     b'"batch": 3, "status": "applied", "logged_at": "2026-11-23T10:00:00.000+00:00", '
...     b'"event": {"type": "toss", "t_us": 5, "source": "gpio", "player": "Ben"}}')
>>> msg
EventMessage(table='t1', seq=3, game_id=1, type='toss')
>>> EventMessage.parse("rig/t2/events", msg.payload())
Traceback (most recent call last):
...
rig.league.topics.MessageError: rig/t2/events: the message names table 't1', not 't2' (forged?)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

from rig.config import TABLE_NAME
from rig.errors import RigError

#: the message format's version (``v``)
VERSION = 1
PREFIX = "rig"
EVENTS, STATE, STATUS, RESEND = "events", "state", "status", "resend"
#: what the league subscribes to
SUBSCRIPTIONS = (f"{PREFIX}/+/{EVENTS}", f"{PREFIX}/+/{STATE}", f"{PREFIX}/+/{STATUS}")
#: the largest message the league reads (a state with eight players is a few kB)
MAX_PAYLOAD = 256 * 1024


class MessageError(RigError):
    """A message the league ignores: not JSON, wrong shape, or forged."""


def topic(table: str, kind: str) -> str:
    """``topic("t1", "events") == "rig/t1/events"``."""
    return f"{PREFIX}/{table}/{kind}"


def split_topic(name: str) -> tuple[str, str]:
    """``(table, kind)`` of a topic; :class:`MessageError` for anything else.

    >>> split_topic("rig/table-3/events")
    ('table-3', 'events')
    """
    parts = name.split("/")
    if len(parts) != 3 or parts[0] != PREFIX or parts[2] not in (EVENTS, STATE, STATUS, RESEND):
        raise MessageError(f"{name}: not a league topic")
    if not TABLE_NAME.fullmatch(parts[1]):
        raise MessageError(f"{name}: {parts[1]!r} is not a table name")
    return parts[1], parts[2]


def _object(name: str, payload: bytes) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise MessageError(f"{name}: message too large ({len(payload)} bytes)")
    try:
        body = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        raise MessageError(f"{name}: not JSON") from None
    if not isinstance(body, dict):
        raise MessageError(f"{name}: not a JSON object")
    return body


def _checked(name: str, body: Mapping[str, Any], table: str) -> None:
    if body.get("v") != VERSION:
        raise MessageError(f"{name}: message version {body.get('v')!r}, this league reads {VERSION}")
    if body.get("table") != table:
        raise MessageError(f"{name}: the message names table {body.get('table')!r}, not {table!r} (forged?)")


def _whole(body: Mapping[str, Any], key: str, name: str, *, low: int = 1, optional: bool = False) -> int | None:
    value = body.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise MessageError(f"{name}: {key!r} must be a whole number from {low}, not {value!r}")
    return value


def _sent(body: Mapping[str, Any]) -> float | None:
    sent = body.get("sent")
    return float(sent) if isinstance(sent, (int, float)) and not isinstance(sent, bool) else None


def signature(message: EventMessage, secret: str) -> str:
    """HMAC-SHA256 (hex) of everything an event message says but when it was sent, under the table's
    secret (``[league] secret`` on the rig, the same in the league's ``--secrets`` file): a message
    forged or changed on the way by anyone without the secret fails :func:`verify`."""
    import hashlib
    import hmac

    canonical = json.dumps({"table": message.table, "seq": message.seq, "game_id": message.game_id,
                            "batch": message.batch, "status": message.status, "reason": message.reason,
                            "logged_at": message.logged_at, "event": message.event, "log": message.log},
                           sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hmac.new(secret.encode("utf-8"), canonical.encode("ascii"), hashlib.sha256).hexdigest()


def verify(message: EventMessage, secret: str) -> bool:
    import hmac

    return isinstance(message.sig, str) and hmac.compare_digest(message.sig, signature(message, secret))


@dataclass(frozen=True)
class EventMessage:
    """One logged event as published: ``(table, seq)`` identifies it; ``sent`` is the publisher's wall clock."""

    table: str
    seq: int
    game_id: int | None
    batch: int
    status: str
    reason: str | None
    logged_at: str
    event: Mapping[str, Any] = field(repr=False)
    sent: float | None = field(default=None, repr=False, compare=False)
    #: the table's event log: the time its first event was logged (a rig with a new log starts at seq 1 again)
    log: str | None = field(default=None, repr=False)
    #: HMAC of the message under the table's secret (:func:`signature`), or None (unsigned)
    sig: str | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        return f"EventMessage(table={self.table!r}, seq={self.seq}, game_id={self.game_id}, type={self.type!r})"

    @property
    def type(self) -> str:
        return str(self.event.get("type"))

    @classmethod
    def from_row(cls, table: str, row: tuple, *, log: str | None = None) -> EventMessage:
        """From an ``events`` row ``(seq, game_id, batch, status, reason, logged_at, body)`` of the rig's log."""
        seq, game_id, batch, status, reason, logged_at, body = row
        return cls(table, seq, game_id, batch, status, reason, logged_at, json.loads(body), log=log)

    def payload(self, *, sent: float | None = None, secret: str | None = None) -> bytes:
        body = {"v": VERSION, "table": self.table, "seq": self.seq, "game_id": self.game_id, "batch": self.batch,
                "status": self.status, "reason": self.reason, "logged_at": self.logged_at,
                "event": dict(self.event), "sent": time.time() if sent is None else sent}
        if self.log is not None:
            body["log"] = self.log
        if secret is not None:
            body["sig"] = signature(self, secret)
        return json.dumps(body, separators=(",", ":")).encode()

    @classmethod
    def parse(cls, name: str, payload: bytes) -> EventMessage:
        table, kind = split_topic(name)
        if kind != EVENTS:
            raise MessageError(f"{name}: not an events topic")
        body = _object(name, payload)
        _checked(name, body, table)
        seq = _whole(body, "seq", name)
        game_id = _whole(body, "game_id", name, optional=True)
        batch = _whole(body, "batch", name)
        if game_id is not None and game_id > seq or batch > seq:
            raise MessageError(f"{name}: game_id and batch cannot come after the event's own seq {seq}")
        status = body.get("status")
        if status not in ("applied", "refused"):
            raise MessageError(f"{name}: 'status' must be applied or refused, not {status!r}")
        reason = body.get("reason")
        logged_at = body.get("logged_at")
        event = body.get("event")
        if reason is not None and not isinstance(reason, str) or not isinstance(logged_at, str):
            raise MessageError(f"{name}: 'reason' and 'logged_at' must be strings")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise MessageError(f"{name}: 'event' must be an object with a 'type'")
        if status == "applied" and event["type"] == "game_started" and game_id != seq:
            raise MessageError(f"{name}: a game_started event starts the game with its own seq as the id")
        log = body.get("log")
        if log is not None and (not isinstance(log, str) or len(log) > 64):
            raise MessageError(f"{name}: 'log' must be a short string")
        sig = body.get("sig")
        if sig is not None and (not isinstance(sig, str) or len(sig) != 64):
            raise MessageError(f"{name}: 'sig' must be a 64-digit hex HMAC")
        return cls(table, seq, game_id, batch, status, reason, logged_at, event, _sent(body), log, sig)


@dataclass(frozen=True)
class StateMessage:
    """The retained state of a table: its last logged ``seq`` and the state the scoreboard shows."""

    table: str
    seq: int
    state: Mapping[str, Any] = field(repr=False)
    sent: float | None = field(default=None, repr=False, compare=False)

    def payload(self) -> bytes:
        body = {"v": VERSION, "table": self.table, "seq": self.seq, "state": dict(self.state),
                "sent": time.time() if self.sent is None else self.sent}
        return json.dumps(body, separators=(",", ":")).encode()

    @classmethod
    def parse(cls, name: str, payload: bytes) -> StateMessage:
        table, kind = split_topic(name)
        if kind != STATE:
            raise MessageError(f"{name}: not a state topic")
        body = _object(name, payload)
        _checked(name, body, table)
        seq = _whole(body, "seq", name, low=0)
        state = body.get("state")
        if not isinstance(state, dict):
            raise MessageError(f"{name}: 'state' must be an object")
        return cls(table, seq, state, _sent(body))


def status_payload(table: str, online: bool) -> bytes:
    return json.dumps({"v": VERSION, "table": table, "online": online}).encode()


def parse_status(name: str, payload: bytes) -> tuple[str, bool]:
    """``(table, online)`` of a status message.

    >>> parse_status("rig/t1/status", status_payload("t1", False))
    ('t1', False)
    """
    table, kind = split_topic(name)
    if kind != STATUS:
        raise MessageError(f"{name}: not a status topic")
    body = _object(name, payload)
    _checked(name, body, table)
    if not isinstance(body.get("online"), bool):
        raise MessageError(f"{name}: 'online' must be true or false")
    return table, body["online"]


def resend_payload(first: int) -> bytes:
    return json.dumps({"v": VERSION, "from": first}).encode()


def parse_resend(name: str, payload: bytes) -> int:
    """The first ``seq`` a resend request asks for.

    >>> parse_resend("rig/t1/resend", resend_payload(40))
    40
    """
    split_topic(name)
    body = _object(name, payload)
    if body.get("v") != VERSION:
        raise MessageError(f"{name}: message version {body.get('v')!r}, this rig reads {VERSION}")
    return _whole(body, "from", name)

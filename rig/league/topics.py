"""The league's topics and messages: what a rig publishes and what the league accepts.

Topics (``<table>`` is the table's name and its broker account):

- ``rig/<table>/events`` — every logged event, QoS 1, in log order: :class:`EventMessage`;
- ``rig/<table>/state`` — retained: the table's current state and its last ``seq``: :class:`StateMessage`;
- ``rig/<table>/status`` — retained: ``{"table", "online"}``, ``online: false`` being the rig's last will;
- ``rig/<table>/resend`` — the league asks a table to publish again from a ``seq`` (``{"from": N}``).

Every message is a JSON object of a ``msgspec.Struct`` type (:class:`EventWire`, :class:`StateWire`,
:class:`StatusWire`, :class:`ResendWire`; their JSON Schema: :func:`message_schema`), decoded once
where it arrives; an applied event inside is decoded into its type (:mod:`rig.engine.events`).
:meth:`EventMessage.parse` refuses anything malformed or forged (a payload naming another table than
its topic) with :class:`MessageError` and one line saying why.

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
import re
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Mapping

import msgspec

from rig.config import TABLE_NAME
from rig.engine.errors import EventFormatError
from rig.engine.events import decode_event, event_union
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


Seq = Annotated[int, msgspec.Meta(ge=1)]


class _Message(msgspec.Struct, kw_only=True):
    """What every message says: the format's version and the table it is from."""

    v: int
    table: str = ""


class EventWire(_Message, kw_only=True):
    """``rig/<table>/events``: one logged event as published (the wire format of :class:`EventMessage`;
    its JSON Schema is :func:`message_schema`). ``event`` is the logged event; an applied one is
    decoded into its type (:mod:`rig.engine.events`) by :meth:`EventMessage.parse`."""

    seq: Seq
    batch: Seq
    status: Literal["applied", "refused"] = "applied"
    logged_at: str
    event: dict[str, Any]
    game_id: Seq | None = None
    reason: str | None = None
    sent: float | None = None
    log: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    sig: Annotated[str, msgspec.Meta(min_length=64, max_length=64)] | None = None


class StateWire(_Message, kw_only=True):
    """``rig/<table>/state``: the table's retained state."""

    seq: Annotated[int, msgspec.Meta(ge=0)]
    state: dict[str, Any]
    sent: float | None = None


class StatusWire(_Message, kw_only=True):
    """``rig/<table>/status``: retained; ``online: false`` is the rig's last will."""

    online: bool


class ResendWire(_Message, kw_only=True):
    """``rig/<table>/resend``: the league asks a table to publish again from a ``seq``."""

    first: Seq = msgspec.field(name="from")


_WORDS = {"seq": "a whole number from 1", "batch": "a whole number from 1", "game_id": "a whole number from 1",
          "status": "applied or refused", "event": "an object with a 'type'", "logged_at": "a string",
          "reason": "a string", "log": "a short string", "sig": "a 64-digit hex HMAC", "state": "an object",
          "online": "true or false", "from": "a whole number from 1", "table": "a table name"}


def _decode(name: str, payload: bytes, kind: type[_Message], *, table: str | None) -> Any:
    """``payload`` decoded ONCE into ``kind`` (the league's door): :class:`MessageError` naming the field."""
    if len(payload) > MAX_PAYLOAD:
        raise MessageError(f"{name}: message too large ({len(payload)} bytes)")
    try:
        body = msgspec.json.decode(payload, type=kind)
    except msgspec.ValidationError as exc:
        text, _, path = str(exc).partition(" - at `$.")
        missing = re.fullmatch(r"Object missing required field `(\w+)`", text)
        field = missing.group(1) if missing else path.rstrip("`").split(".")[0].split("[")[0]
        if text.startswith("Expected `object`") and not path:
            raise MessageError(f"{name}: not a JSON object") from None
        if field == "v":
            raise MessageError(f"{name}: message version is not {VERSION}, the version this league reads") from None
        raise MessageError(f"{name}: {field!r} must be {_WORDS.get(field, 'valid')} ({text})") from None
    except msgspec.DecodeError:
        raise MessageError(f"{name}: not JSON") from None
    if body.v != VERSION:
        raise MessageError(f"{name}: message version {body.v!r}, this league reads {VERSION}")
    if table is not None and body.table != table:
        raise MessageError(f"{name}: the message names table {body.table!r}, not {table!r} (forged?)")
    return body


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
        """The message decoded once (:class:`EventWire`; an applied event into its type), or :class:`MessageError`."""
        table, kind = split_topic(name)
        if kind != EVENTS:
            raise MessageError(f"{name}: not an events topic")
        body: EventWire = _decode(name, payload, EventWire, table=table)
        seq, game_id, event = body.seq, body.game_id, body.event
        if game_id is not None and game_id > seq or body.batch > seq:
            raise MessageError(f"{name}: game_id and batch cannot come after the event's own seq {seq}")
        if not isinstance(event.get("type"), str):
            raise MessageError(f"{name}: 'event' must be an object with a 'type'")
        if body.status == "applied":
            if event["type"] == "game_started" and game_id != seq:
                raise MessageError(f"{name}: a game_started event starts the game with its own seq as the id")
            try:
                decode_event(event)
            except EventFormatError as exc:
                raise MessageError(f"{name}: 'event' is not an event the rig logs: {exc.reason}") from None
        return cls(table, seq, game_id, body.batch, body.status, body.reason, body.logged_at, event, body.sent,
                   body.log, body.sig)


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
        body: StateWire = _decode(name, payload, StateWire, table=table)
        return cls(table, body.seq, body.state, body.sent)


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
    return table, _decode(name, payload, StatusWire, table=table).online


def resend_payload(first: int) -> bytes:
    return json.dumps({"v": VERSION, "from": first}).encode()


def parse_resend(name: str, payload: bytes) -> int:
    """The first ``seq`` a resend request asks for.

    >>> parse_resend("rig/t1/resend", resend_payload(40))
    40
    """
    split_topic(name)
    return _decode(name, payload, ResendWire, table=None).first


def message_schema() -> dict[str, Any]:
    """The JSON Schema of the league's messages, generated from the same types that decode them (an
    events message's ``event`` as the union of the rig's event types, :func:`rig.engine.events.event_union`)."""
    fields = []
    for info in msgspec.structs.fields(EventWire):
        kind = event_union() if info.name == "event" else info.type
        fields.append((info.name, kind) if info.required else (info.name, kind, info.default))
    typed = msgspec.defstruct("EventWire", fields, kw_only=True)
    kinds = (EVENTS, STATE, STATUS, RESEND)
    schemas, components = msgspec.json.schema_components((typed, StateWire, StatusWire, ResendWire))
    return {"topics": {f"{PREFIX}/<table>/{kind}": schema for kind, schema in zip(kinds, schemas)},
            "$defs": components}

"""A row of the event log: :class:`LoggedEvent` as read back, :class:`Pending` to be appended, and
reading a stored body back (the log's door on replay: an applied event is decoded once into its type)
(issue 29: split from :mod:`rig.engine.log`, which re-exports every name).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

from rig.boundary import sanitize
from rig.engine.errors import EventFormatError
from rig.engine.events import decode_event_json


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


def _text(raw: bytes) -> str:
    """A TEXT value as stored: a byte that is not UTF-8 (storage damage) becomes a lone surrogate, which
    the boundary refuses (:func:`_logged` reports the event as damaged) instead of a crash on reading."""
    return raw.decode("utf-8", "surrogateescape")


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

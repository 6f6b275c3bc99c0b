"""The league's audit of a table's whole log, and resend requests for a range of ``seq``s.

Two message kinds beside those of :mod:`rig.league.topics` (which this module only uses):

- ``rig/<table>/digest`` — retained, QoS 1: a digest of the table's whole event log up to ``seq``
  (:class:`DigestMessage`). The log is cut into blocks of :data:`BLOCK` events; each block's digest is
  SHA-256 over its events' digests, and the whole log's digest is SHA-256 over the block digests. The
  league computes the same over its own copy and compares: a mismatch names the blocks (``seq``
  ranges) that differ, even where the high-water mark and the count agree (a forged event the table
  never re-sent, an event lost and another in its place);
- ``rig/<table>/resend`` with a ``to``: ``{"v": 1, "from": N, "to": M}`` asks for exactly the events
  ``N..M`` (the holes of the league's copy, a block that differs). A rig that knows only ``from``
  (before this module) sends from ``N`` on, which is a superset: old and new mix safely.

An event's digest is SHA-256 of ``[seq, game_id, batch, status, reason, logged_at, event]`` as compact
JSON with sorted keys: the same on the rig (from its log's row) and in the league (from what it stored).

>>> digest = LogDigest()
>>> digest.add_row((1, 1, 1, "applied", None, "2026-11-23T10:00:00+00:00", '{"type": "game_started"}'))
>>> digest.seq, len(digest.blocks), len(digest.whole())
(1, 1, 64)
>>> parse_range("rig/t1/resend", range_payload(5, 9))
(5, 9)
>>> parse_range("rig/t1/resend", b'{"v": 1, "from": 5}')
(5, None)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from rig.config import TABLE_NAME
from rig.league import topics
from rig.league.topics import MessageError

DIGEST = "digest"
#: events per block of the digest: what a mismatch can be narrowed to without asking for anything
BLOCK = 64
#: hex digits kept of each block's digest in a message (64 bits); the whole log's digest is kept whole
BLOCK_HEX = 16
#: a digest message lists at most this many blocks (a log of ~1 million events)
MAX_BLOCKS = 15_000
#: what the league subscribes to beside :data:`rig.league.topics.SUBSCRIPTIONS`
SUBSCRIPTIONS = (f"{topics.PREFIX}/+/{DIGEST}",)


def event_digest(seq: int, game_id: int | None, batch: int, status: str, reason: str | None, logged_at: str,
                 event: Any) -> bytes:
    canonical = json.dumps([seq, game_id, batch, status, reason, logged_at, event], sort_keys=True,
                           separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).digest()


def whole_digest(seq: int, blocks: Sequence[str]) -> str:
    return hashlib.sha256(f"{seq}:{','.join(blocks)}".encode("ascii")).hexdigest()


class LogDigest:
    """The digest of a log read in ``seq`` order, built one event at a time (the rig's publisher keeps one)."""

    def __init__(self, block: int = BLOCK) -> None:
        self.block = block
        self.seq = 0
        self.blocks: list[str] = []
        self._current = hashlib.sha256()

    def add_row(self, row: Sequence[Any]) -> None:
        """Add an ``events`` row ``(seq, game_id, batch, status, reason, logged_at, body)`` (the next ``seq``)."""
        seq, game_id, batch, status, reason, logged_at, body = row
        if seq != self.seq + 1:
            raise ValueError(f"the log's events are not contiguous: #{seq} after #{self.seq}")
        self._current.update(event_digest(seq, game_id, batch, status, reason, logged_at, json.loads(body)))
        self.seq = seq
        index = (seq - 1) // self.block
        if index == len(self.blocks):
            self.blocks.append("")
        self.blocks[index] = self._current.hexdigest()[:BLOCK_HEX]
        if seq % self.block == 0:
            self._current = hashlib.sha256()

    def extend(self, conn) -> None:
        """Read the rig's log (a sqlite3 connection) after what is already in."""
        while True:
            rows = conn.execute("SELECT seq, game_id, batch, status, reason, logged_at, body FROM events "
                                "WHERE seq > ? ORDER BY seq LIMIT 1000", (self.seq,)).fetchall()
            for row in rows:
                self.add_row(row)
            if len(rows) < 1000:
                return

    def whole(self) -> str:
        return whole_digest(self.seq, self.blocks)

    def message(self, table: str, log: str | None) -> DigestMessage:
        return DigestMessage(table, self.seq, self.whole(), self.block, tuple(self.blocks), log)


def block_digest(events: Iterable[tuple]) -> str:
    """One block's digest from ``(seq, game_id, batch, status, reason, logged_at, event)`` tuples."""
    current = hashlib.sha256()
    for values in events:
        current.update(event_digest(*values))
    return current.hexdigest()[:BLOCK_HEX]


def _signed_text(message: DigestMessage) -> bytes:
    return json.dumps({"table": message.table, "seq": message.seq, "digest": message.digest,
                       "block": message.block, "blocks": list(message.blocks), "log": message.log},
                      sort_keys=True, separators=(",", ":")).encode("ascii")


@dataclass(frozen=True)
class DigestMessage:
    """The digest of a table's whole log up to ``seq``."""

    table: str
    seq: int
    digest: str
    block: int
    blocks: tuple[str, ...] = field(repr=False)
    log: str | None = field(default=None, repr=False)
    sig: str | None = field(default=None, repr=False, compare=False)

    def signature(self, secret: str) -> str:
        return hmac.new(secret.encode("utf-8"), _signed_text(self), hashlib.sha256).hexdigest()

    def verify(self, secret: str) -> bool:
        return isinstance(self.sig, str) and hmac.compare_digest(self.sig, self.signature(secret))

    def payload(self, *, secret: str | None = None) -> bytes:
        body = {"v": topics.VERSION, "table": self.table, "seq": self.seq, "digest": self.digest,
                "block": self.block, "blocks": list(self.blocks), "log": self.log, "sent": time.time()}
        if secret is not None:
            body["sig"] = self.signature(secret)
        return json.dumps(body, separators=(",", ":")).encode()

    @classmethod
    def parse(cls, name: str, payload: bytes) -> DigestMessage:
        table = digest_table(name)
        if table is None:
            raise MessageError(f"{name}: not a digest topic")
        if len(payload) > topics.MAX_PAYLOAD:
            raise MessageError(f"{name}: message too large ({len(payload)} bytes)")
        try:
            body = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            raise MessageError(f"{name}: not JSON") from None
        if not isinstance(body, dict) or body.get("v") != topics.VERSION:
            raise MessageError(f"{name}: not a version {topics.VERSION} digest")
        if body.get("table") != table:
            raise MessageError(f"{name}: the message names table {body.get('table')!r}, not {table!r} (forged?)")
        seq, block, digest, blocks = body.get("seq"), body.get("block"), body.get("digest"), body.get("blocks")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
            raise MessageError(f"{name}: 'seq' must be a whole number, not {seq!r}")
        if isinstance(block, bool) or not isinstance(block, int) or not 1 <= block <= 100_000:
            raise MessageError(f"{name}: 'block' must be a whole number from 1 to 100000, not {block!r}")
        if not isinstance(digest, str) or len(digest) != 64 or not _hex(digest):
            raise MessageError(f"{name}: 'digest' must be 64 hex digits")
        if (not isinstance(blocks, list) or len(blocks) != -(-seq // block) or len(blocks) > MAX_BLOCKS
                or not all(isinstance(b, str) and len(b) == BLOCK_HEX and _hex(b) for b in blocks)):
            raise MessageError(f"{name}: 'blocks' must list one {BLOCK_HEX}-digit digest per {block} events")
        log, sig = body.get("log"), body.get("sig")
        if log is not None and (not isinstance(log, str) or len(log) > 64):
            raise MessageError(f"{name}: 'log' must be a short string")
        if sig is not None and (not isinstance(sig, str) or len(sig) != 64):
            raise MessageError(f"{name}: 'sig' must be a 64-digit hex HMAC")
        message = cls(table, seq, digest, block, tuple(blocks), log, sig)
        if whole_digest(seq, blocks) != digest:
            raise MessageError(f"{name}: the digest does not match its blocks")
        return message


def _hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def digest_table(name: str) -> str | None:
    """The table of a ``rig/<table>/digest`` topic, else None."""
    parts = name.split("/")
    if len(parts) == 3 and parts[0] == topics.PREFIX and parts[2] == DIGEST and TABLE_NAME.fullmatch(parts[1]):
        return parts[1]
    return None


def range_payload(first: int, last: int | None) -> bytes:
    body: dict[str, Any] = {"v": topics.VERSION, "from": first}
    if last is not None:
        body["to"] = last
    return json.dumps(body).encode()


def parse_range(name: str, payload: bytes) -> tuple[int, int | None]:
    """``(from, to)`` of a resend request (``to`` None: from ``from`` on); :class:`MessageError` if malformed."""
    first = topics.parse_resend(name, payload)
    last = json.loads(payload).get("to")
    if last is None:
        return first, None
    if isinstance(last, bool) or not isinstance(last, int) or last < first:
        raise MessageError(f"{name}: 'to' must be a whole number from {first}, not {last!r}")
    return first, last


def ranges(seqs: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted ``seq``s as ``(first, last)`` runs: ``ranges([1, 2, 3, 7]) == [(1, 3), (7, 7)]``."""
    runs: list[tuple[int, int]] = []
    for seq in sorted(set(seqs)):
        if runs and runs[-1][1] == seq - 1:
            runs[-1] = (runs[-1][0], seq)
        else:
            runs.append((seq, seq))
    return runs


def describe(runs: Sequence[Sequence[int]], limit: int = 4) -> str:
    """``"#1–64, #129–140"`` (and how many more)."""
    words = [f"#{a}" if a == b else f"#{a}–{b}" for a, b in runs[:limit]]
    if len(runs) > limit:
        words.append(f"and {len(runs) - limit} more")
    return ", ".join(words)


def topic(table: str) -> str:
    return topics.topic(table, DIGEST)

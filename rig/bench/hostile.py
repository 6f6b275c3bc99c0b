"""Hostile input for ``rig bench fuzz``: the values (NaN, 1e400, lone surrogates, ...), the corpus of
bodies, path segments and headers that broke a route once, and the seeded stream of requests made of
them (issue 29: split from :mod:`rig.bench.fuzz`, which re-exports every name).
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

PIN = "31415926"
POSTS = ("/api/events", "/api/games", "/api/corrections", "/api/sim/press", "/api/sim/roll", "/api/sim/knock",
         "/api/sim/card", "/api/sim/camera", "/api/pin", "/api/calibration/capture", "/api/calibration/fit",
         "/api/calibration/save", "/api/calibration/restore", "/api/calibration/lock", "/api/calibration/reset")
GETS = ("/api/state", "/api/history", "/api/display", "/api/rig", "/api/health", "/", "/calibrate",
        "/static/app.js", "/static/../../etc/passwd", "/api/calibration", "/api/calibration/preview.jpg",
        "/api/nothing", "/api/state?x=%00",
        # the referee's read-only routes (issue 19): past turns, frames, dice fairness, exports
        "/api/turns", "/api/turns?game=1", "/api/turns?game=abc", "/api/turns?game=99999999999999999999999",
        "/api/turns?game=-1", "/api/evidence/1/1/1.jpg", "/api/evidence/1/1/1.jpg?overlay=1",
        "/api/evidence/x/1/1.jpg", "/api/evidence/1/99999999999999999999/1.jpg", "/api/dice",
        "/api/export/bgstats", "/api/export/bgstats?game=%00", "/api/export/bgstats.svg?game=1",
        "/api/export/history.csv", "/api/export/history.json")
NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli")
QUERY_NAMES = ("game", "overlay", "outline", "x")

# -- hostile values -------------------------------------------------------------------------

class Raw(str):
    """JSON text put into a document verbatim (NaN, 1e400, a lone surrogate escape, ...)."""


HOSTILE = [Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("1e400"), Raw("-1e400"), Raw('"\\ud800"'),
           Raw('"a\\udfffb"'), 2**63, -(2**63) - 1, 2**64, Raw("9" * 5000), "\x00", "Eve\u202e", "\u200b",
           "x" * 300, "y" * 100_000, "", " ", None, True, False, 0, -1, 1.5, 1e308, [], {}, [1, [2, [3]]],
           "<script>alert(1)</script>", "../../etc/passwd", "🐸" * 30]


#: bodies that broke a route once (issue 31) or might: invalid UTF-8 inside a JSON string, a dict where
#: a name is hashed, bytes that are not JSON at all
CORPUS_BODIES = (b'{"player":"\xff\xfe"}', b'{"type":"game_started","game":{"a":1}}',
                 b'{"type":"game_started","game":["x"],"players":["Ada","Ben","Cleo"]}',
                 b'{"players":["Ada","\xc3"],"game":"dice"}', b'{"name":"\xed\xa0\x80"}', b'{"\xff":1}',
                 b'\xef\xbb\xbf{}', b"\xff\xfe", b'{"card":"pink\x80"}', b'{"connected":"\xe9"}',
                 b'{"what":"undo","index":"\xb2"}', b'{"dice":"\xd9\xa3"}', b"", b"null", b"[]", b'"x"',
                 b'{"type":"correction","what":{"a":1}}', b'{"type":{"a":1}}', b'{"step":["blue"]}',
                 b'{"name":{"a":1}}', b'{"locked":"yes"}', b'{"player":{"a":1},"hold_ms":"\xff"}')
#: path parameters and query values: non-ASCII digits (pass ``str.isdigit``, fail ``int()``), invalid
#: UTF-8 escapes, NUL, huge numbers, traversal
CORPUS_SEGMENTS = ("1", "\u00b2", "\u0663", "%B2", "%FF%FE", "%00", "-1", "9" * 30, "..", "%2e%2e", "1e3", " 1",
                   "\U0001d7d9", "\uff11")
#: header values (bytes: some are not text): every header the rig reads
CORPUS_HEADERS = {
    "origin": (b"http://[::1", b"http://[", b"\xff\xfe", b"http://127.0.0.1:8080\xff", b"null", b"http://evil.example",
               b"http://127.0.0.1:8080", b"", b"http://" + b"a" * 5000),
    "host": (b"[::1", b"\xff", b"127.0.0.1:\xb2", b"127.0.0.1:99999", b"", b"a" * 300, b"[", b"[]:80", b"1.2.3.4:8080:1"),
    "idempotency-key": (b"\xff" * 10, b"k" * 8, b"\xb2" * 9, b"short", b"k" * 200, b"key\x7f12345", b"\xc3\xa9" * 6),
    "x-rig-pin": (b"\xff\xfe", b"\xc2\xb2" * 8, b"\xd9\xa3" * 8, b"", b"1" * 5000, b"0000", PIN.encode()),
    "range": (b"bytes=\xc2\xb2-", b"bytes=0-0," * 500, b"bytes=-0", b"bytes=99999999999999999999-", b"bytes=5-1",
              b"items=0-1", b"bytes=\xff", b"bytes=0-", b"bytes=-99999999999999999999999999"),
    "content-length": (b"\xb2", b"\xc2\xb2", b"99999999999999999999999999", b"-1"),
    "content-type": (b"\xff", b"application/json; charset=latin-1", b"multipart/form-data; boundary=\xff"),
    # the language of an answer (rig/display/speak.py): German, and headers no browser sends
    "accept-language": (b"de-DE,de;q=0.9", b"de;q=abc", b"\xff\xfe", b"*", b"de," * 2000),
    "x-rig-lang": (b"de", b"\xff", b"xx", b"de" * 500),
    "cookie": (b"rig-lang=de", b"rig-lang=\xff; ===", b'rig-lang="de', b"a" * 5000),
}
#: the language a fuzzed request asks for (a share of them in German, so the errors are said in German too)
LANGUAGE_HEADERS = {"accept-language": ("de-DE,de;q=0.9", "de;q=abc", "é", "*"), "x-rig-lang": ("de", "xx"),
                    "cookie": ("rig-lang=de", "rig-lang=é; ===")}


def value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.35:
        return rng.choice(HOSTILE)
    if roll < 0.55:
        return rng.choice(NAMES + ("blue", "pink", "yellow", "blank", "gray", "undo", "die", "card", "toss"))
    if roll < 0.7:
        return rng.choice([0, 1, 2, 5, 6, 7, 1000, 10**6, -5, 2**53, 2**53 + 1])
    if roll < 0.8 and depth < 4:
        return [value(rng, depth + 1) for _ in range(rng.randrange(0, 8))]
    if roll < 0.88 and depth < 4:
        return {rng.choice(["type", "player", "card", "x", "index", "\ud800"]): value(rng, depth + 1)
                for _ in range(rng.randrange(0, 4))}
    return rng.choice([True, False, None, 3.25, -0.0])


def dumps(doc: Any) -> str:
    """JSON with :class:`Raw` pieces verbatim (so NaN and lone surrogates reach the server as sent)."""
    if isinstance(doc, Raw):
        return str(doc)
    if isinstance(doc, dict):
        return "{" + ",".join(f"{json.dumps(str(k))}:{dumps(v)}" for k, v in doc.items()) + "}"
    if isinstance(doc, list):
        return "[" + ",".join(dumps(v) for v in doc) + "]"
    return json.dumps(doc)


def event_body(rng: random.Random) -> dict[str, Any]:
    """A plausible event (or correction, or new game) with some fields broken."""
    from rig.engine.events import event_types

    kind = rng.choice(tuple(event_types()))  # every event the schema knows (GET /api/schema)
    body: dict[str, Any] = {"type": kind}
    if kind == "game_started":
        body["players"] = rng.sample(NAMES, rng.randrange(3, 6))
    if kind in ("turn_started", "toss", "copy_chosen", "buzz", "points_scored", "violation"):
        body["player"] = rng.choice(NAMES)
    if kind == "roll_settled":
        body["dice"] = [rng.choice(["blue", "pink", "yellow", "blank", "pink+blue"]) for _ in range(6)]
    if kind == "card_revealed":
        body["card"] = rng.choice(["blue", "pink", "yellow", "blank", "gray"])
    if kind == "correction":
        body.update(what=rng.choice(["die", "card", "toss", "undo", "dice"]), index=rng.randrange(-1, 7))
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        body[rng.choice(["type", "player", "t_us", "source", "card", "dice", "players", "index", "what", "clock",
                         "options", "confidence", "extra", "hold_ms", "dice"])] = value(rng)
    return body


def body_bytes(rng: random.Random, path: str) -> bytes:
    roll = rng.random()
    if roll < 0.05:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 64)))
    if roll < 0.08:
        depth = rng.choice([33, 100, 1000, 100_000])
        return b"[" * depth + b"]" * depth
    if roll < 0.1:
        return b'{"type": "toss", "player": "' + b"x" * 300_000 + b'"}'
    if roll < 0.13:
        return b""
    if roll < 0.16:
        return dumps(event_body(rng))[: rng.randrange(1, 40)].encode()
    if path in ("/api/events", "/api/corrections"):
        doc: Any = event_body(rng)
    elif path == "/api/games":
        doc = {"players": [rng.choice(NAMES + tuple(h for h in HOSTILE if isinstance(h, str)))
                           for _ in range(rng.randrange(0, 9))]}
        if rng.random() < 0.5:
            doc[rng.choice(["game", "turns_each", "options", "penalty_per_violation", "x"])] = value(rng)
    elif path == "/api/sim/press":
        doc = {"player": rng.choice(NAMES + (value(rng),)), **({"hold_ms": value(rng)} if rng.random() < 0.3 else {})}
    elif path == "/api/sim/roll":
        doc = {"dice": value(rng) if rng.random() < 0.5 else rng.randrange(0, 8)}
    else:
        doc = {k: value(rng) for k in rng.sample(["card", "connected", "step", "name", "locked", "x"], 2)}
    if rng.random() < 0.05:
        doc = value(rng)
    return dumps(doc).encode("utf-8", "surrogatepass")


def not_utf8(rng: random.Random, body: bytes) -> bytes:
    """``body`` with a byte that is not UTF-8 put inside it (inside a JSON string when there is one)."""
    bad = rng.choice([b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\x80", b"\xb2"])
    quotes = [i for i, byte in enumerate(body) if byte == 0x22]
    at = rng.choice(quotes) + 1 if quotes else rng.randrange(len(body) + 1)
    return body[:at] + bad + body[at:]


def requests(rng: random.Random, count: int) -> Iterator[tuple[str, str, dict[str, str], bytes, tuple]]:
    local, phone = ("127.0.0.1", 50000), ("192.168.1.23", 50000)
    for _ in range(count):
        headers = {"host": "127.0.0.1:8080"}
        client = local if rng.random() < 0.8 else phone
        if client is phone:
            headers["x-rig-pin"] = PIN if rng.random() < 0.9 else rng.choice(["0000", "", "é", "1" * 5000])
        if rng.random() < 0.03:
            headers["host"] = rng.choice(["evil.example", "", "[::1", "127.0.0.1:99999", "a" * 300])
        if rng.random() < 0.05:
            headers["origin"] = rng.choice(["http://evil.example", "null", "http://127.0.0.1:8080"])
        if rng.random() < 0.15:
            headers["idempotency-key"] = rng.choice(["k" * 8, f"key-{rng.randrange(50):08d}", "short", "k" * 200])
        if rng.random() < 0.15:  # a malformed header the rig reads: Origin, Host, Idempotency-Key, X-Rig-Pin, Range
            name = rng.choice(("origin", "host", "idempotency-key", "x-rig-pin", "range", "content-length"))
            if name != "x-rig-pin" or client is local:  # wrong PINs from the phone are counted above already
                headers[name] = rng.choice(CORPUS_HEADERS[name])
        if rng.random() < 0.3:
            name = rng.choice(sorted(LANGUAGE_HEADERS))
            headers[name] = rng.choice(LANGUAGE_HEADERS[name])
        if rng.random() < 0.7:
            path = rng.choice(POSTS)
            body = body_bytes(rng, path)
            if rng.random() < 0.15:
                body = not_utf8(rng, body)
            yield "POST", path, headers, body, client
        else:
            path = rng.choice(GETS)
            if rng.random() < 0.3:  # non-ASCII digits, invalid UTF-8 escapes, NUL in the query
                path += ("&" if "?" in path else "?") + f"{rng.choice(QUERY_NAMES)}={rng.choice(CORPUS_SEGMENTS)}"
            yield "GET", path, headers, b"", client

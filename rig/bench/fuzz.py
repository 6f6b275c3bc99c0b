"""``rig bench fuzz``: hostile and broken input at every door; count what breaks.

HTTP: ``--requests`` seeded random requests against the real app over the simulated rig (every
route, hostile JSON: NaN, Infinity, 1e400, numbers beyond int64, lone surrogates, NUL, RTL
overrides, megabyte names, deep nesting, garbage bytes, wrong types, valid events with one field
broken; foreign Host headers, wrong PINs, idempotency keys) from the rig's own display and from a
phone. Counted: 500s, tracebacks logged, poisoned states (``GET /api/state`` or the history not
answering strict JSON, checked along the way and after a restart over the same data folder).

CLI: ``--cli`` fuzzed inputs each for ``rig score -``, ``rig config check`` and ``rig read``; every
one must exit 0 or 2 with no traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import random
import struct
import tempfile
import time
import warnings
import zlib
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

from rig import argtypes
from rig.bench.hostile import (  # noqa: F401 - moved (issue 29); the old import path works
    PIN, POSTS, GETS, NAMES, QUERY_NAMES, Raw, HOSTILE, CORPUS_BODIES, CORPUS_SEGMENTS, CORPUS_HEADERS, value,
    dumps, event_body, body_bytes, not_utf8, requests,
)


def add_arguments(parser) -> None:
    parser.add_argument("--requests", type=argtypes.amount, default=10_000, help="fuzzed HTTP requests (default 10000)")
    parser.add_argument("--cli", type=argtypes.amount, default=1_000, help="fuzzed inputs per command (default 1000)")
    parser.add_argument("--seed", type=argtypes.seed, default=16)


# -- HTTP ----------------------------------------------------------------------------------------

class _Tracebacks(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.first: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.count += 1
            self.first = self.first or self.format(record)


def strict_json(response) -> bool:
    try:
        json.loads(response.content.decode("utf-8"), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        return True
    except (ValueError, UnicodeDecodeError):
        return False


def _clients(app):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    return {address: TestClient(app, client=address, base_url="http://127.0.0.1:8080",
                                raise_server_exceptions=False)
            for address in (("127.0.0.1", 50000), ("192.168.1.23", 50000))}


def state_ok(client) -> bool:
    """The state, the history and the referee's views of them still answer with strict JSON."""
    answers = [client.get(path) for path in ("/api/state", "/api/history", "/api/turns", "/api/dice")]
    state, history, turns, dice = answers
    return (state.status_code == 200 and history.status_code == 200 and strict_json(state) and strict_json(history)
            and turns.status_code in (200, 404) and dice.status_code == 200 and strict_json(dice))


#: query parameters the routes read


def route_requests(app) -> Iterator[tuple[str, str, dict[str, bytes], bytes]]:
    """Every route of ``app`` (read from its routing table, so a new route is walked too) with the corpus:
    each path parameter and query value of :data:`CORPUS_SEGMENTS`, each body of :data:`CORPUS_BODIES`
    on each ``POST``, each header of :data:`CORPUS_HEADERS`: ``(method, path, headers, body)``."""
    import re

    from starlette.routing import Mount, Route

    for route in app.routes:
        if isinstance(route, Mount):
            paths = [f"{route.path}/{tail}" for tail in ("app.js", "%2e%2e/%2e%2e/etc/passwd", "\u00b2", "%FF%FE",
                                                          "..%2F..%2Fetc%2Fpasswd", "%00")]
            methods = ["GET"]
        elif isinstance(route, Route):
            params = re.findall(r"{(\w+)(?::\w+)?}", route.path)
            if params:
                paths = [re.sub(r"{\w+(?::\w+)?}", segment, route.path) for segment in CORPUS_SEGMENTS]
                paths += [re.sub(r"{\w+(?::\w+)?}", "1", route.path, count=1).replace(
                    "{" + params[-1] + "}", segment) for segment in CORPUS_SEGMENTS if len(params) > 1]
                paths = [re.sub(r"{\w+(?::\w+)?}", "1", p) for p in paths]
            else:
                paths = [route.path]
            methods = sorted((route.methods or {"GET"}) - {"HEAD"})
        else:
            continue
        base = paths[0]
        paths += [f"{base}?{name}={value}" for name in QUERY_NAMES for value in CORPUS_SEGMENTS]
        for method in methods:
            body = b"{}" if method == "POST" else b""
            for path in paths:
                yield method, path, {}, body
            if method == "POST":
                for raw in CORPUS_BODIES:
                    yield method, base, {"content-type": b"application/json"}, raw
            for name, values in CORPUS_HEADERS.items():
                for header in values:
                    yield method, base, {name: header}, body


async def asgi_request(app, method: str, target: str, headers: dict[str, bytes], body: bytes = b"",
                       client: tuple[str, int] = ("127.0.0.1", 50000)) -> tuple[int, bytes]:
    """One request straight into the ASGI ``app`` as a server would hand it over (raw header bytes, the
    path percent-decoded like uvicorn does): ``(status, body)``. A stream (server-sent events) is cut
    after its first chunk; an app that never answers gets status 0."""
    import asyncio
    from urllib.parse import unquote

    raw_path, _, query = target.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": unquote(raw_path), "raw_path": raw_path.encode("utf-8", "surrogateescape"),
             "query_string": query.encode("utf-8", "surrogateescape"), "root_path": "",
             "headers": [(k.lower().encode("latin-1"), v) for k, v in headers.items()],
             "client": client, "server": ("127.0.0.1", 8080)}
    sent = False
    answered = asyncio.Event()
    result: dict[str, Any] = {"status": 0, "body": b""}

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            result["status"] = message["status"]
        elif message["type"] == "http.response.body":
            result["body"] += message.get("body", b"")
            if not message.get("more_body") or result["body"]:
                answered.set()

    task = asyncio.ensure_future(app(scope, receive, send))
    waiter = asyncio.ensure_future(answered.wait())
    await asyncio.wait({task, waiter}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    answered.set()
    for pending in (task, waiter):
        if not pending.done():
            pending.cancel()
    await asyncio.gather(task, waiter, return_exceptions=True)
    return result["status"], result["body"]


def _strict(body: bytes) -> bool:
    try:
        json.loads(body.decode("utf-8"), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        return True
    except (ValueError, UnicodeDecodeError):
        return False


async def _state_ok(app) -> bool:
    host = {"host": b"127.0.0.1:8080"}
    answers = [await asgi_request(app, "GET", path, host) for path in ("/api/state", "/api/history", "/api/dice")]
    return all(status == 200 and _strict(body) for status, body in answers)


def walk_routes(app, *, check_every: int = 25) -> dict[str, Any]:
    """:func:`route_requests` against ``app`` from the rig's display and from a phone with the PIN;
    the state and history checked along the way. Counts statuses, 500s, poisoned states."""
    import asyncio

    async def walk() -> dict[str, Any]:
        statuses: Counter[int] = Counter()
        failures: list[str] = []
        poisoned = checks = 0
        for n, (method, path, headers, body) in enumerate(route_requests(app)):
            phone = n % 5 == 4
            sent = {"host": b"127.0.0.1:8080", **({"x-rig-pin": PIN.encode()} if phone else {}), **headers}
            if body and "content-length" not in headers:
                sent["content-length"] = str(len(body)).encode()
            status, _ = await asgi_request(app, method, path, sent, body,
                                           ("192.168.1.23", 50000) if phone else ("127.0.0.1", 50000))
            statuses[status] += 1
            if status >= 500 and status != 503 or status == 0:
                failures.append(f"{status} {method} {path!r} {headers!r} {body[:60]!r}")
            if n % check_every == check_every - 1:
                checks += 1
                poisoned += not await _state_ok(app)
        checks += 1
        poisoned += not await _state_ok(app)
        return {"requests": sum(statuses.values()), "statuses": dict(sorted(statuses.items())),
                "failures": failures, "poisoned": poisoned, "state_checks": checks}

    return asyncio.run(walk())


def fuzz_http(data_dir: Path, count: int, seed: int, *, camera: bool = True) -> dict[str, Any]:
    """Fuzz the app of a simulated rig over ``data_dir``; returns the figures."""
    from rig.config import RigConfig
    from rig.app.runner import Rig

    rng = random.Random(seed)
    catcher = _Tracebacks()
    root = logging.getLogger()
    root.addHandler(catcher)
    statuses: Counter[int] = Counter()
    poisoned = checks = 0
    start = time.perf_counter()
    try:
        with Rig(RigConfig.default(), mode="sim", data_dir=data_dir, seed=seed, camera=camera, sim_fps=5) as rig:
            clients = _clients(rig.app(pin=PIN, lan=True))
            local = clients[("127.0.0.1", 50000)]
            for n, (method, path, headers, body, client) in enumerate(requests(rng, count)):
                web = clients[client]
                headers = {k: v if isinstance(v, bytes) else v.encode("utf-8") for k, v in headers.items()}
                if method == "POST":
                    response = web.post(path, content=body, headers={"content-type": b"application/json", **headers})
                else:
                    response = web.get(path, headers=headers)
                statuses[response.status_code] += 1
                if n % 50 == 49:
                    checks += 1
                    poisoned += not state_ok(local)
        with Rig(RigConfig.default(), mode="sim", data_dir=data_dir, seed=seed, camera=False) as rig:
            checks += 1
            poisoned += not state_ok(_clients(rig.app(pin=PIN, lan=True))[("127.0.0.1", 50000)])
    finally:
        root.removeHandler(catcher)
    return {"requests": count, "statuses": dict(sorted(statuses.items())), "500s": sum(
        v for k, v in statuses.items() if k >= 500 and k != 503), "5xx": sum(v for k, v in statuses.items() if k >= 500),
        "tracebacks": catcher.count, "first_traceback": catcher.first, "poisoned": poisoned, "state_checks": checks,
        "seconds": time.perf_counter() - start}


# -- CLI -------------------------------------------------------------------------------------------

def _run_cli(argv: list[str], stdin: bytes = b"") -> tuple[int | str, str]:
    """``rig ARGV`` in this process: (exit code, or "traceback: ..." for an exception that escaped)."""
    from rig.cli import main

    out, err = io.StringIO(), io.StringIO()
    real_stdin = __import__("sys").stdin
    __import__("sys").stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code: int | str = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException as exc:  # noqa: BLE001 - what we are counting
        code = f"traceback: {type(exc).__name__}: {str(exc)[:120]}"
    finally:
        __import__("sys").stdin = real_stdin
    return code, err.getvalue()


def score_input(rng: random.Random) -> bytes:
    from rig.cli.score import MAX_INPUT  # noqa: F401 - the limit under test

    from rig import registry

    games = list(registry.names())
    turn: dict[str, Any] = {"game": rng.choice([registry.DEFAULT, *games, value(rng)]),
                            "players": rng.sample(NAMES, rng.randrange(2, 6)), "roller": rng.choice(NAMES),
                            "dice": [rng.choice(["pink", "blue", "yellow+pink", "blank"]) for _ in range(6)],
                            "tosses": [{"player": rng.choice(NAMES), "card": rng.choice(["blue", "gray"]),
                                        "t_us": rng.randrange(10**6)} for _ in range(rng.randrange(5))],
                            "copy": rng.choice(NAMES)}
    for _ in range(rng.randrange(0, 4)):
        turn[rng.choice(list(turn) + ["violations", "options", "variant", "x"])] = value(rng)
    example = registry.get(registry.DEFAULT).example_request()
    if rng.random() < 0.3 and example is not None:
        if rng.random() < 0.5:
            example[rng.choice(list(example))] = value(rng)
        return dumps(example).encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        return rng.choice([b"[" * 5000, b"9" * 6000, bytes(rng.randrange(256) for _ in range(30)),
                           b'{"a":' * 2000, b"\xff\xfe", b""])
    return dumps(turn).encode("utf-8", "surrogatepass")


def config_input(rng: random.Random) -> str:
    from rig import registry

    lines = []
    for _ in range(rng.randrange(0, 6)):
        lines.append(rng.choice([
            '[[players]]\nname = "{}"\npin = "GPIO{}"'.format(rng.choice(NAMES + ("x" * 40, "")), rng.randrange(0, 40)),
            "[camera]\nwidth = {}".format(rng.choice(["1", "-5", "1e999", '"wide"', "inf", "nan", "99999999999999999999"])),
            'profile = "{}"'.format(rng.choice(["missing.toml", "", "/dev/null", "../../etc"])),
            "x = " + "[" * rng.choice([3, 100, 3000]) + "]" * 50,
            "[server]\nport = {}".format(rng.choice(["0", "70000", "8080", "true"])),
            '[game]\nname = "{}"'.format(rng.choice([registry.DEFAULT, "chess", ""])),
            "\x00\x01garbage = = =",
            "data_dir = 5",
        ]))
    return "\n".join(lines) + "\n"


def _png(width: int, height: int, mode: int = 2, body: bytes | None = None) -> bytes:
    """A PNG with the given header; ``body`` the compressed pixel data (a bomb: tiny data, huge header)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    if body is None:
        row = b"\x00" + bytes((i * 67) % 256 for i in range(width * 3 + 1))
        body = zlib.compress((row[: 1 + width * (3 if mode == 2 else 1)]) * height)
    header = struct.pack(">IIBBBBB", width, height, 8, mode, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def image_input(rng: random.Random) -> bytes:
    kind = rng.randrange(7)
    if kind == 0:
        return _png(rng.randrange(1, 200), rng.randrange(1, 200))
    if kind == 1:
        return _png(20000, 20000, body=zlib.compress(b"\x00" * 1000))  # a bomb: checked before decoding
    if kind == 2:
        return _png(64, 64, mode=0)  # grayscale
    if kind == 3:
        data = _png(120, 90)
        return data[: rng.randrange(8, len(data))]  # cut short
    if kind == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200)))
    if kind == 5:
        return b"\xff\xd8\xff\xe0" + bytes(rng.randrange(256) for _ in range(100))  # a broken JPEG
    data = bytearray(_png(100, 80))
    for _ in range(3):
        data[rng.randrange(8, len(data))] = rng.randrange(256)
    return bytes(data)


def fuzz_cli(work: Path, count: int, seed: int) -> dict[str, Any]:
    from rig.vision.profile import default_profile_path

    import os
    import resource

    rng = random.Random(seed)
    codes: dict[str, Counter] = {"score": Counter(), "config check": Counter(), "read": Counter(),
                                 "odd files": Counter()}
    bad: list[str] = []
    not_one_line = 0
    # files that are not what a command expects: /dev/zero, a FIFO without a writer, a sparse 2 GB file, a folder
    fifo, huge, folder = work / "fifo.toml", work / "huge.toml", work / "folder.toml"
    if not fifo.exists():
        os.mkfifo(fifo)
    with open(huge, "wb") as handle:
        handle.truncate(2 * 1024**3)
    folder.mkdir(exist_ok=True)
    odd = ["/dev/zero", str(fifo), str(huge), str(folder)]
    for n in range(count):
        data = score_input(rng)
        if rng.random() < 0.1:
            data = not_utf8(rng, data)
        code, err = _run_cli(["score", "-"], data)
        codes["score"][code] += 1
        config = work / f"rig{n % 7}.toml"
        config.write_bytes(config_input(rng).encode("utf-8", "surrogatepass") if rng.random() < 0.9
                           else not_utf8(rng, config_input(rng).encode("utf-8", "surrogatepass")))
        code2, err2 = _run_cli(["config", "check", "-q", str(config)])
        codes["config check"][code2] += 1
        image = work / f"img{n % 7}.png"
        image.write_bytes(image_input(rng))
        code3, err3 = _run_cli(["read", "--profile", str(default_profile_path()), "--json", str(image)])
        codes["read"][code3] += 1
        runs = [("score", code, err), ("config check", code2, err2), ("read", code3, err3)]
        if n % 10 == 0:
            path = odd[(n // 10) % len(odd)]
            argv = rng.choice([["config", "check", "-q", path], ["read", "--profile", path, str(image)],
                               ["read", "--game", "pips", "--params", path, str(image)], ["score", path]])
            code4, err4 = _run_cli(argv)
            codes["odd files"][code4] += 1
            runs.append((" ".join(argv[:2]) + " " + path, code4, err4))
        bad += [f"{cmd}: {c}" for cmd, c, _ in runs if c not in (0, 2)]
        not_one_line += sum(1 for _, c, e in runs if c == 2 and (e.count("\n") != 1 or "\x1b" in e))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"inputs": count, "codes": {k: dict(v) for k, v in codes.items()}, "other_exits": len(bad),
            "examples": bad[:5], "not_one_line": not_one_line, "peak_mb": peak}


def walk_http(data_dir: Path, seed: int) -> dict[str, Any]:
    """:func:`walk_routes` over the simulated rig (camera on: the calibration routes too), tracebacks counted."""
    from rig.config import RigConfig
    from rig.app.runner import Rig

    catcher = _Tracebacks()
    logging.getLogger().addHandler(catcher)
    start = time.perf_counter()
    try:
        with Rig(RigConfig.default(), mode="sim", data_dir=data_dir, seed=seed, camera=True, sim_fps=5) as rig:
            figures = walk_routes(rig.app(pin=PIN, lan=True))
    finally:
        logging.getLogger().removeHandler(catcher)
    return {**figures, "tracebacks": catcher.count, "first_traceback": catcher.first,
            "seconds": time.perf_counter() - start}


def run(args) -> int:
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="rig-bench-fuzz-") as work:
        http = fuzz_http(Path(work) / "data", args.requests, args.seed)
        walk = walk_http(Path(work) / "walk", args.seed)
        cli = fuzz_cli(Path(work), args.cli, args.seed)
    print(f"fuzz http: {http['requests']} requests in {http['seconds']:.0f} s: 500s: {http['500s']}, "
          f"tracebacks: {http['tracebacks']}, poisoned states: {http['poisoned']} "
          f"(of {http['state_checks']} checks, the last after a restart)")
    print(f"  statuses: {http['statuses']}")
    if http["first_traceback"]:
        print(f"  first traceback:\n{http['first_traceback']}")
    print(f"fuzz routes: {walk['requests']} requests walking every route with the corpus in {walk['seconds']:.0f} s: "
          f"500s: {len(walk['failures'])}, tracebacks: {walk['tracebacks']}, poisoned states: {walk['poisoned']} "
          f"(of {walk['state_checks']} checks)")
    print(f"  statuses: {walk['statuses']}")
    for failure in walk["failures"][:5]:
        print(f"  {failure}")
    if walk["first_traceback"]:
        print(f"  first traceback:\n{walk['first_traceback']}")
    print(f"fuzz cli: {cli['inputs']} inputs each; exits other than 0/2: {cli['other_exits']}; refusals not "
          f"one clean line: {cli['not_one_line']}; peak memory of the whole bench process: {cli['peak_mb']:.0f} MB")
    for command, codes in cli["codes"].items():
        print(f"  rig {command}: {codes}")
    for example in cli["examples"]:
        print(f"  {example}")
    ok = (http["500s"] == 0 and http["tracebacks"] == 0 and http["poisoned"] == 0 and cli["other_exits"] == 0
          and not walk["failures"] and walk["tracebacks"] == 0 and walk["poisoned"] == 0)
    return 0 if ok else 1

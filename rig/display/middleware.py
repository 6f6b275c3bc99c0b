"""The web app's outer guard (pure ASGI): who may talk to it, at most once per action, never a traceback.

:class:`Guard` wraps the app and, for every HTTP request:

- refuses a ``Host`` that is not this machine's (an IP address, ``localhost``, the host name,
  ``NAME.local`` or a configured name): a DNS-rebinding page in the kiosk's browser, whose requests
  carry the attacker's host name, gets 421 and never reaches the API;
- answers a repeated ``POST`` that carries the same ``Idempotency-Key`` (from the same client) with
  the first answer instead of doing it again, so a retry after a lost connection cannot log an
  event twice or undo twice (2xx and 4xx answers are kept; 403, 429 and 503 are not, the retry
  then runs for real);
- turns an exception that escaped a route (a bug) into a 400 (a ``ValueError``: input a check
  missed) or a 503 (anything else) ``{"error", "incident"}``, never a 500 page, and logs it under
  that incident id (its traceback once per place, not once per request).

>>> allowed = host_allowed({"rig.local"})
>>> [allowed(h) for h in ("127.0.0.1:8080", "[::1]:8080", "rig.local", "evil.example:8080", "")]
[True, True, True, False, False]
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import secrets
import socket
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterable

log = logging.getLogger(__name__)

#: the request header carrying a client's key for one action
IDEMPOTENCY_HEADER = b"idempotency-key"
#: how many answers are kept for replays
KEEP_ANSWERS = 256
#: statuses whose answer a retry gets again (others run again)
REPLAYED = frozenset(range(200, 300)) | {400, 404, 409, 413, 422}


def default_host_names() -> set[str]:
    """Names this machine answers to besides IP addresses: localhost, its host name and ``NAME.local``."""
    name = socket.gethostname().lower()
    return {"localhost", name, f"{name}.local", name.split(".")[0] + ".local"}


def is_loopback(host: str | None) -> bool:
    """``host`` (a client's address) is this machine (IPv4-mapped IPv6 loopback too)."""
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def host_allowed(names: Iterable[str]) -> Callable[[str], bool]:
    """``allowed(host_header)``: an IP literal (any port) or one of ``names``."""
    names = {n.lower().rstrip(".") for n in names}

    def allowed(header: str) -> bool:
        host = header.strip().lower()
        if host.startswith("["):
            host = host[1:host.find("]")] if "]" in host else ""
        elif host.count(":") == 1:
            host = host.split(":")[0]
        host = host.rstrip(".")
        if not host:
            return False
        try:
            ipaddress.ip_address(host)
            return True
        except ValueError:
            return host in names

    return allowed


def _json(status: int, message: str, **extra: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    body = json.dumps({"error": message, **extra}).encode()
    return status, [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())], body


async def _send_answer(send, answer, extra: Iterable[tuple[bytes, bytes]] = ()) -> None:
    status, headers, body = answer
    await send({"type": "http.response.start", "status": status, "headers": list(headers) + list(extra)})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: the Host allow-list, idempotent POSTs, no 500 and no traceback per request (see the module)."""

    def __init__(self, app, *, hosts: Callable[[str], bool] | None = None, keep: int = KEEP_ANSWERS) -> None:
        self.app = app
        self.hosts = hosts or host_allowed(default_host_names())
        self.keep = keep
        self._answers: OrderedDict[tuple[str, str, str], tuple] = OrderedDict()
        self._running: dict[tuple[str, str, str], asyncio.Future] = {}
        self._logged: set[tuple[str, str]] = set()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        host = headers.get(b"host", b"").decode("latin-1")
        if not self.hosts(host):
            await _send_answer(send, _json(421, f"this rig does not answer to the host name {host[:80]!r}: "
                                                "open it by its IP address or its own name"))
            return
        key = headers.get(IDEMPOTENCY_HEADER)
        if scope["method"] == "POST" and key is not None:
            await self._once(scope, receive, send, key)
            return
        await self._safely(scope, receive, send)

    async def _once(self, scope, receive, send, raw_key: bytes) -> None:
        key_text = raw_key.decode("latin-1")
        if not 8 <= len(key_text) <= 100 or not key_text.isprintable() or not key_text.isascii():
            await _send_answer(send, _json(400, "Idempotency-Key must be 8 to 100 printable ASCII characters"))
            return
        client = scope.get("client") or ("?", 0)
        key = (client[0], scope["path"], key_text)
        while key in self._running:  # the same action in flight: wait for its answer
            await asyncio.shield(self._running[key])
        if key in self._answers:
            self._answers.move_to_end(key)
            await _send_answer(send, self._answers[key], [(b"idempotent-replay", b"true")])
            return
        done = self._running[key] = asyncio.get_running_loop().create_future()
        captured: dict = {"body": b""}

        async def capture(message) -> None:
            if message["type"] == "http.response.start":
                captured["status"], captured["headers"] = message["status"], list(message.get("headers") or ())
            elif message["type"] == "http.response.body":
                captured["body"] += message.get("body", b"")
            await send(message)

        try:
            await self._safely(scope, receive, capture)
        finally:
            status = captured.get("status")
            if status in REPLAYED:
                self._answers[key] = (status, captured["headers"], captured["body"])
                while len(self._answers) > self.keep:
                    self._answers.popitem(last=False)
            del self._running[key]
            done.set_result(None)

    async def _safely(self, scope, receive, send) -> None:
        started = False

        async def tracking(message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:  # noqa: BLE001 - the last line of defence: a bug, never user input
            if _body_limit_only(exc):  # Starlette's body-size limit signalling, not a bug: 413, nothing logged
                if not started:
                    await _send_answer(send, _json(413, "the request body is too big"))
                return
            incident = self._log_once(exc, scope)
            if not started:
                await _send_answer(send, unexpected(exc, incident))

    def _log_once(self, exc: BaseException, scope) -> str:
        """Log an exception that escaped a route under a short id (its traceback once per place); the id."""
        incident = secrets.token_hex(4)
        frames = traceback.extract_tb(exc.__traceback__)
        where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"
        key = (type(exc).__name__, where)
        request = f"{scope.get('method', '?')} {str(scope.get('path', '?'))[:80]!r}"
        if key in self._logged:
            log.error("internal error %s again: %s at %s on %s: %s", incident, key[0], where, request, exc)
            return incident
        self._logged.add(key)
        log.error("internal error %s on %s (the traceback is shown once per place)", incident, request, exc_info=exc)
        return incident


def _body_limit_only(exc: BaseException) -> bool:
    """``exc`` is (a group of nothing but) Starlette's request-body-limit control flow: a declared or sent
    body over ``max_body_size``, the 413 already answered or to answer."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_body_limit_only(inner) for inner in exc.exceptions)
    if isinstance(exc, RuntimeError) and exc.__cause__ is not None and "response already started" in str(exc):
        return _body_limit_only(exc.__cause__)  # Starlette re-raises it so once a file response has begun
    return type(exc).__module__ == "starlette.middleware.body_limit"


def unexpected(exc: BaseException, incident: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """The answer to an exception that escaped a route: never a 500 page. Input the rig could not read
    (a ``ValueError``/``UnicodeError`` a check missed) is a 400; anything else a 503 (the rig's fault,
    try again); both name the incident id the journal holds."""
    if isinstance(exc, (ValueError, UnicodeError)):
        return _json(400, f"the request could not be read (incident {incident}, in the rig's journal)",
                     incident=incident)
    return _json(503, f"the rig hit an internal error (incident {incident}, in the rig's journal): try again",
                 incident=incident)

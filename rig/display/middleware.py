"""The web app's outer guard (pure ASGI): who may talk to it, at most once per action, never a traceback.

:class:`Guard` wraps the app and, for every HTTP request:

- refuses a ``Host`` that is not this machine's (an IP address, ``localhost``, the host name,
  ``NAME.local`` or a configured name): a DNS-rebinding page in the kiosk's browser, whose requests
  carry the attacker's host name, gets 421 and never reaches the API;
- answers a repeated ``POST`` that carries the same ``Idempotency-Key`` (from the same client) with
  the first answer instead of doing it again, so a retry after a lost connection cannot log an
  event twice or undo twice (2xx and 4xx answers are kept; 403, 429 and 503 are not, the retry
  then runs for real);
- turns an exception that escaped a route (a bug) into a 500 ``{"error"}`` and logs its traceback
  once per place, not once per request.

>>> allowed = host_allowed({"rig.local"})
>>> [allowed(h) for h in ("127.0.0.1:8080", "[::1]:8080", "rig.local", "evil.example:8080", "")]
[True, True, True, False, False]
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
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


def _json(status: int, message: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    body = json.dumps({"error": message}).encode()
    return status, [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())], body


async def _send_answer(send, answer, extra: Iterable[tuple[bytes, bytes]] = ()) -> None:
    status, headers, body = answer
    await send({"type": "http.response.start", "status": status, "headers": list(headers) + list(extra)})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: the Host allow-list, idempotent POSTs, no traceback per request (see the module)."""

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
            self._log_once(exc)
            if not started:
                await _send_answer(send, _json(500, "the rig hit an internal error (it is in the journal)"))

    def _log_once(self, exc: BaseException) -> None:
        frames = traceback.extract_tb(exc.__traceback__)
        where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"
        key = (type(exc).__name__, where)
        if key in self._logged:
            log.error("internal error again: %s at %s: %s", key[0], where, exc)
            return
        self._logged.add(key)
        log.error("internal error (shown once per place)", exc_info=exc)

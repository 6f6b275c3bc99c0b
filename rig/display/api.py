"""The rig's JSON API as Starlette routes (documented in docs/engine.md).

``api_routes(service, sim=..., can_change=...)`` gives ``GET /api/state``, ``GET /api/schema`` (the
JSON Schema of every event, generated from :mod:`rig.engine.events`' types), ``GET /api/events``
(server-sent events), ``POST /api/events`` (submit one engine event), ``POST /api/games``,
``POST /api/corrections``, ``GET /api/history`` and, in simulation mode, ``POST /api/sim/press``
and ``POST /api/sim/roll``. Every mutating route asks ``can_change(request)`` first (403 if
it says no). Errors are JSON ``{"error": "..."}``: 400 unreadable JSON, 422 a body of the
wrong shape, 409 an event the game refuses now, 403 not allowed, 429/503 too many live streams,
503 the log cannot be written. Bodies are decoded by the strict boundary (:mod:`rig.boundary`).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import threading
from collections import Counter
from typing import Any, Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from rig.boundary import MAX_BODY, BadInput, SimPress, SimRoll, convert, decode_json, sanitize, whole_number
from rig.engine.errors import EventFormatError, EventRefused, LogError
from rig.engine.events import Event, decode_new_game, json_schema
from rig.errors import RigError

log = logging.getLogger(__name__)

#: seconds between keep-alive comments on the event stream
KEEPALIVE_S = 15.0
#: live streams one other device may hold open, and all other devices together
STREAMS_PER_CLIENT = 8
STREAMS_TOTAL = 128
#: streams kept beyond the total for PIN holders (devices that gave the right PIN lately): the
#: players' phones are served even when viewers have taken every other place
STREAMS_RESERVED = 32
#: seconds a turned-away viewer is asked to wait (``Retry-After``)
RETRY_AFTER_S = 30


class SafeJSONResponse(JSONResponse):
    """A JSON response that can never fail to encode: a value that is not JSON (a bug upstream)
    is logged once and sent made safe (:func:`rig.boundary.sanitize`)."""

    _warned = False

    def render(self, content: Any) -> bytes:
        try:
            return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
        except (ValueError, TypeError, UnicodeEncodeError, RecursionError) as exc:
            if not SafeJSONResponse._warned:
                SafeJSONResponse._warned = True
                log.warning("a response held a value that is not JSON (%s): sent sanitized", exc)
            return json.dumps(sanitize(content), ensure_ascii=False, allow_nan=False,
                              separators=(",", ":"), default=repr).encode("utf-8", "backslashreplace")


def _is_loopback(host: str | None) -> bool:
    try:
        address = ipaddress.ip_address((host or "").split("%")[0])
    except ValueError:
        return False
    return (getattr(address, "ipv4_mapped", None) or address).is_loopback


class StreamLimits:
    """Live streams open per client address and in total (the rig's own display is never limited);
    ``priority`` streams (PIN holders) may use ``reserved`` places beyond the total.

    >>> limits = StreamLimits(per_client=1, total=2, reserved=1)
    >>> limits.acquire("10.0.0.5"), limits.acquire("10.0.0.5"), limits.acquire("10.0.0.6"), limits.acquire("::1")
    (None, 429, None, None)
    >>> limits.acquire("10.0.0.7"), limits.acquire("10.0.0.8", priority=True), limits.acquire("10.0.0.9", priority=True)
    (503, None, 503)
    """

    def __init__(self, *, per_client: int = STREAMS_PER_CLIENT, total: int = STREAMS_TOTAL,
                 reserved: int = STREAMS_RESERVED) -> None:
        self.per_client = per_client
        self.total = total
        self.reserved = reserved
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def acquire(self, client: str | None, *, priority: bool = False) -> int | None:
        """None if a stream may open for ``client`` (then :meth:`release` it), else the status to answer."""
        if _is_loopback(client):
            return None
        key = client or "?"
        with self._lock:
            if self._open[key] >= self.per_client:
                return 429
            if sum(self._open.values()) >= self.total + (self.reserved if priority else 0):
                return 503
            self._open[key] += 1
        return None

    @property
    def open(self) -> int:
        """Live streams open now, of the limited ones (the rig's own display is not counted)."""
        with self._lock:
            return sum(self._open.values())

    def release(self, client: str | None) -> None:
        if _is_loopback(client):
            return
        key = client or "?"
        with self._lock:
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]


class BadBody(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def error(status: int, message: str, *, safe: bool = False) -> JSONResponse:
    """``{"error": message}``; ``safe``: the message is made of checked values already (a refusal of a
    typed event), else it is made safe first (it may quote anything a client sent)."""
    return SafeJSONResponse({"error": message if safe else sanitize(message)}, status_code=status)


async def read_object(request: Request, *, check: bool = True) -> dict[str, Any]:
    """The request's JSON object through the strict boundary (:class:`BadBody` 400/413/422 if not).

    ``check=False``: JSON syntax only, for an event's body: the engine decodes it into its type, the
    one check of its values (:func:`rig.engine.events.decode_event`).
    """
    declared = whole_number(request.headers.get("content-length", ""), digits=30)
    if declared is not None and declared > MAX_BODY:
        raise BadBody(413, f"the request body is {declared} bytes, at most {MAX_BODY}")
    raw = b""
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise BadBody(413, f"the request body is more than {MAX_BODY} bytes")
    except ClientDisconnect:
        raise BadBody(400, "the client went away while sending the body") from None
    if not raw.strip():
        return {}
    try:
        body = decode_json(raw, check=check)
    except BadInput as exc:
        status = 400 if str(exc).startswith("not valid JSON") else 422
        raise BadBody(status, f"the request body is {exc}" if status == 400 else f"the request body: {exc}") from None
    if not isinstance(body, dict):
        raise BadBody(422, f"the request body must be a JSON object, not {type(body).__name__}")
    return body


_json_object = read_object


def request_key(request: Request) -> str | None:
    """The idempotency key of a request (client address, path and its ``Idempotency-Key``), or None."""
    key = request.headers.get("idempotency-key")
    if key is None or not 8 <= len(key) <= 100 or not (key.isascii() and key.isprintable()):
        return None
    client = request.client.host if request.client else "?"
    return f"{client} {request.url.path} {key}"


def sse_message(state: dict[str, Any]) -> str:
    """One server-sent event carrying the state."""
    try:
        data = json.dumps(state, separators=(",", ":"), allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        data = json.dumps(sanitize(state), separators=(",", ":"), default=repr)
    return f"event: state\nid: {state['version']}\ndata: {data}\n\n"


def api_routes(service, *, sim=None, can_change: Callable[[Request], bool] | None = None,
               can_view: Callable[[Request], bool] | None = None, limits: StreamLimits | None = None,
               trusted: Callable[[Request], bool] | None = None) -> list[Route]:
    """The API routes over an :class:`rig.engine.service.EngineService` (``sim`` adds the simulation routes).

    ``can_view(request)`` guards what is private (the history); ``limits`` caps live streams;
    ``trusted(request)``: a PIN holder's device, whose stream may use the reserved places.
    """
    limits = limits or StreamLimits()

    def mutating(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def guarded(request: Request) -> Response:
            if can_change is not None and not can_change(request):
                return error(403, "not allowed to change the game from here: enter the PIN shown on the rig's display")
            try:
                return await handler(request)
            except BadBody as exc:
                return error(exc.status, exc.message)
            except BadInput as exc:
                return error(422, str(exc))
            except EventFormatError as exc:
                return error(422, exc.reason)
            except EventRefused as exc:
                return error(409, exc.reason, safe=True)
            except LogError as exc:
                return error(503, f"the event log cannot be written: {exc}")
            except RigError as exc:
                return error(409, str(exc))
        return guarded

    async def submit(event: Event | dict[str, Any], status: int = 200, request: Request | None = None) -> Response:
        key = request_key(request) if request is not None else None
        state = await run_in_threadpool(lambda: service.submit(event, default_source="display", request=key))
        return SafeJSONResponse(state, status_code=status)

    async def get_schema(request: Request) -> Response:
        return SafeJSONResponse(json_schema())

    async def get_state(request: Request) -> Response:
        return SafeJSONResponse(await run_in_threadpool(service.state))

    async def get_history(request: Request) -> Response:
        if can_view is not None and not can_view(request):
            return error(403, "the history is shown on the rig's display, or with the PIN (header X-Rig-Pin)")
        return SafeJSONResponse(await run_in_threadpool(service.history))

    async def stream(request: Request) -> Response:
        client = request.client.host if request.client else None
        refused = limits.acquire(client, priority=trusted is not None and trusted(request))
        retry = {"retry-after": str(RETRY_AFTER_S)}
        if refused == 429:
            return SafeJSONResponse({"error": f"too many live streams from this device (at most {limits.per_client}): "
                                              "close another tab showing the scoreboard"}, status_code=429,
                                    headers=retry)
        if refused == 503:
            return SafeJSONResponse({"error": f"the rig shows the live scoreboard to at most {limits.total} other "
                                              "devices and every place is taken; the players' phones (with the PIN) "
                                              f"and the rig's own display come first; try again in {RETRY_AFTER_S} s",
                                     "viewers": limits.total, "retry_after_s": RETRY_AFTER_S},
                                    status_code=503, headers=retry)
        try:
            subscription = service.subscribe()
        except BaseException:
            limits.release(client)
            raise

        async def messages():
            try:
                state = await run_in_threadpool(service.state)
                last = state["version"]
                yield sse_message(state)
                while not getattr(subscription, "ended", False):
                    state = await subscription.next_state(KEEPALIVE_S)
                    if getattr(subscription, "ended", False):
                        break  # the rig is shutting down: end the stream (the page reconnects later)
                    if state is None:
                        yield ": keep-alive\n\n"
                    elif state["version"] != last:
                        last = state["version"]
                        yield sse_message(state)
            finally:
                subscription.close()
                limits.release(client)

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(messages(), media_type="text/event-stream", headers=headers)

    @mutating
    async def post_event(request: Request) -> Response:
        return await submit(await _json_object(request, check=False), request=request)

    @mutating
    async def post_game(request: Request) -> Response:
        body = await _json_object(request, check=False)  # checked once, as the request it is (NewGame)
        if not isinstance(body.get("players"), list):
            raise BadBody(422, "a new game needs 'players': a list of names in seat order")
        new = decode_new_game(body)
        return await submit(new.event(t_us=service.now_us(), source="display"), 201, request)

    @mutating
    async def post_correction(request: Request) -> Response:
        body = await _json_object(request, check=False)
        if "type" in body and body["type"] != "correction":
            raise BadBody(422, "POST /api/corrections takes a correction (what, index, face/card/player)")
        return await submit({**body, "type": "correction"}, request=request)

    routes = [
        Route("/api/state", get_state, methods=["GET"]),
        Route("/api/schema", get_schema, methods=["GET"]),
        Route("/api/events", stream, methods=["GET"]),
        Route("/api/events", post_event, methods=["POST"]),
        Route("/api/history", get_history, methods=["GET"]),
        Route("/api/games", post_game, methods=["POST"]),
        Route("/api/corrections", post_correction, methods=["POST"]),
    ]

    if sim is not None:
        @mutating
        async def sim_press(request: Request) -> Response:
            body = await _json_object(request, check=False)  # checked once, as the request it is (SimPress)
            if not isinstance(body.get("player"), str):
                raise BadBody(422, "POST /api/sim/press needs {\"player\": NAME}")
            press = convert(body, SimPress)
            player, hold = press.player, press.hold_ms
            if hold:
                try:
                    await run_in_threadpool(sim.press, player, hold_ms=hold)
                except TypeError:
                    raise BadBody(422, "this simulation cannot hold an input: leave out 'hold_ms'") from None
            else:
                await run_in_threadpool(sim.press, player)
            return SafeJSONResponse({"ok": True, "player": player}, status_code=202)

        @mutating
        async def sim_roll(request: Request) -> Response:
            body = await _json_object(request, check=False)  # checked once, as the request it is (SimRoll)
            dice = body.get("dice")
            if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= 6:
                raise BadBody(422, "POST /api/sim/roll needs {\"dice\": N} with N from 1 to 6")
            dice = convert(body, SimRoll).dice
            await run_in_threadpool(sim.roll, dice)
            return JSONResponse({"ok": True, "dice": dice}, status_code=202)

        routes += [
            Route("/api/sim/press", sim_press, methods=["POST"]),
            Route("/api/sim/roll", sim_roll, methods=["POST"]),
        ]
    return routes

"""The rig's JSON API as Starlette routes (documented in docs/engine.md).

``api_routes(service, sim=..., can_change=...)`` gives ``GET /api/state``, ``GET /api/events``
(server-sent events), ``POST /api/events`` (submit one engine event), ``POST /api/games``,
``POST /api/corrections``, ``GET /api/history`` and, in simulation mode, ``POST /api/sim/press``
and ``POST /api/sim/roll``. Every mutating route asks ``can_change(request)`` first (403 if
it says no). Errors are JSON ``{"error": "..."}``: 400 unreadable JSON, 422 a body of the
wrong shape, 409 an event the game refuses now, 403 not allowed, 503 the log cannot be written.
"""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from rig.engine.errors import EventFormatError, EventRefused, LogError
from rig.errors import RigError

#: seconds between keep-alive comments on the event stream
KEEPALIVE_S = 15.0


class BadBody(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _json_object(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadBody(400, f"the request body is not valid JSON: {exc}") from None
    if not isinstance(body, dict):
        raise BadBody(422, f"the request body must be a JSON object, not {type(body).__name__}")
    return body


def sse_message(state: dict[str, Any]) -> str:
    """One server-sent event carrying the state."""
    return f"event: state\nid: {state['version']}\ndata: {json.dumps(state, separators=(',', ':'))}\n\n"


def api_routes(service, *, sim=None, can_change: Callable[[Request], bool] | None = None) -> list[Route]:
    """The API routes over an :class:`rig.engine.service.EngineService` (``sim`` adds the simulation routes)."""

    def mutating(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def guarded(request: Request) -> Response:
            if can_change is not None and not can_change(request):
                return error(403, "not allowed to change the game from here: enter the PIN shown on the rig's display")
            try:
                return await handler(request)
            except BadBody as exc:
                return error(exc.status, exc.message)
            except EventFormatError as exc:
                return error(422, exc.reason)
            except EventRefused as exc:
                return error(409, exc.reason)
            except LogError as exc:
                return error(503, f"the event log cannot be written: {exc}")
            except RigError as exc:
                return error(409, str(exc))
        return guarded

    async def submit(event: dict[str, Any], status: int = 200) -> Response:
        state = await run_in_threadpool(service.submit, event, default_source="display")
        return JSONResponse(state, status_code=status)

    async def get_state(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(service.state))

    async def get_history(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(service.history))

    async def stream(request: Request) -> Response:
        subscription = service.subscribe()

        async def messages():
            try:
                state = await run_in_threadpool(service.state)
                last = state["version"]
                yield sse_message(state)
                while True:
                    state = await subscription.next_state(KEEPALIVE_S)
                    if state is None:
                        yield ": keep-alive\n\n"
                    elif state["version"] != last:
                        last = state["version"]
                        yield sse_message(state)
            finally:
                subscription.close()

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(messages(), media_type="text/event-stream", headers=headers)

    @mutating
    async def post_event(request: Request) -> Response:
        return await submit(await _json_object(request))

    @mutating
    async def post_game(request: Request) -> Response:
        body = await _json_object(request)
        unknown = sorted(set(body) - {"game", "players", "options", "turns_each", "penalty_per_violation"})
        if unknown:
            raise BadBody(422, f"unknown field(s) for a new game: {', '.join(unknown)}")
        if not isinstance(body.get("players"), list):
            raise BadBody(422, "a new game needs 'players': a list of names in seat order")
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise BadBody(422, "'options' must be an object")
        options = dict(options)
        for key in ("turns_each", "penalty_per_violation"):
            if body.get(key) is not None:
                options[key] = body[key]
        event = {"type": "game_started", "game": body.get("game", "frogs"), "players": body["players"],
                 "options": options}
        return await submit(event, 201)

    @mutating
    async def post_correction(request: Request) -> Response:
        body = await _json_object(request)
        if "type" in body and body["type"] != "correction":
            raise BadBody(422, "POST /api/corrections takes a correction (what, index, face/card/player)")
        return await submit({**body, "type": "correction"})

    routes = [
        Route("/api/state", get_state, methods=["GET"]),
        Route("/api/events", stream, methods=["GET"]),
        Route("/api/events", post_event, methods=["POST"]),
        Route("/api/history", get_history, methods=["GET"]),
        Route("/api/games", post_game, methods=["POST"]),
        Route("/api/corrections", post_correction, methods=["POST"]),
    ]

    if sim is not None:
        @mutating
        async def sim_press(request: Request) -> Response:
            body = await _json_object(request)
            player = body.get("player")
            if not isinstance(player, str) or not player:
                raise BadBody(422, "POST /api/sim/press needs {\"player\": NAME}")
            hold = body.get("hold_ms", 0)
            if isinstance(hold, bool) or not isinstance(hold, (int, float)) or hold < 0:
                raise BadBody(422, "'hold_ms' must be a number of milliseconds >= 0")
            if hold:
                try:
                    await run_in_threadpool(sim.press, player, hold_ms=hold)
                except TypeError:
                    raise BadBody(422, "this simulation cannot hold an input: leave out 'hold_ms'") from None
            else:
                await run_in_threadpool(sim.press, player)
            return JSONResponse({"ok": True, "player": player}, status_code=202)

        @mutating
        async def sim_roll(request: Request) -> Response:
            body = await _json_object(request)
            dice = body.get("dice")
            if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= 6:
                raise BadBody(422, "POST /api/sim/roll needs {\"dice\": N} with N from 1 to 6")
            await run_in_threadpool(sim.roll, dice)
            return JSONResponse({"ok": True, "dice": dice}, status_code=202)

        routes += [
            Route("/api/sim/press", sim_press, methods=["POST"]),
            Route("/api/sim/roll", sim_roll, methods=["POST"]),
        ]
    return routes

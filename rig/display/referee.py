"""The referee's routes: evidence per turn, die fairness, exports (documented in docs/referee.md).

- ``GET /api/turns?game=ID`` — every turn of a game rebuilt from the log: dice, the toss timeline
  in µs with margins and dead heats, the score, and each settled roll with its evidence image
  (``image``, ``overlay``: URLs, or None when no frame was kept). Without ``game``: the current game.
- ``GET /api/evidence/GAME/TURN/ROLL.jpg`` — the frame the roll settled on; ``?overlay=1`` draws
  the reading on it.
- ``GET /api/dice`` — face counts over every scored turn of the default game (``rig.registry.DEFAULT``) and the χ² tests.
- ``GET /api/export/bgstats?game=ID`` — the BG Stats play JSON and its ``bgstats://`` / ``https://``
  import links; ``GET /api/export/bgstats.svg?game=ID`` — a compact ``https://`` link as a QR code (SVG).
- ``GET /api/export/history.csv`` and ``/api/export/history.json`` — ``rig history --export``.

All are read-only (no PIN needed). Errors: 422 a malformed id, 404 no such game or frame.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rig import registry
from rig.boundary import whole_number
from rig.engine.export import bgstats_play, bgstats_url, compact_play, history_csv, history_json
from rig.engine.turns import NoSuchGame, game_turns, logged_dice

NO_STORE = {"cache-control": "no-store"}


class _NotFound(Exception):
    pass


class _BadQuery(Exception):
    pass


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _number(text: str | None, what: str) -> int:
    number = whole_number(text, digits=12)
    if number is None:
        raise _BadQuery(f"{what} must be a whole number, not {(text if text is None else text[:40])!r}")
    return number


@functools.lru_cache(maxsize=16)
def qr_svg(text: str) -> str:
    """``text`` as a QR code in SVG (segno), dark on white, with a quiet zone. Kept for the next ask: every
    screen showing a game's end asks for the same code, and making one takes ~30 ms."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff",
                                     title="BG Stats import link")
    return out.getvalue().decode()


def referee_routes(service, *, evidence=None, can_view: Callable[[Request], bool] | None = None) -> list[Route]:
    """The routes over an :class:`rig.engine.service.EngineService` and (optional) a :class:`rig.evidence.EvidenceStore`.

    Camera frames and the history are private: ``can_view(request)`` lets the rig's display and PIN holders in.
    """

    def handle(work):
        async def endpoint(request: Request) -> Response:
            if can_view is not None and not can_view(request):
                return _error(403, "the referee's frames and history are shown on the rig's display, "
                                   "or with the PIN (header X-Rig-Pin)")
            try:
                return await work(request)
            except _BadQuery as exc:
                return _error(422, str(exc))
            except (_NotFound, NoSuchGame) as exc:
                return _error(404, str(exc))
        return endpoint

    def game_id_of(request: Request) -> int:
        text = request.query_params.get("game")
        if text is not None:
            return _number(text, "game")
        state = service.state()
        if not state.get("game"):
            raise _NotFound("no game yet")
        return state["game"]["id"]

    def summary_of(game_id: int) -> dict[str, Any]:
        for game in service.history()["games"]:
            if game["id"] == game_id:
                return game
        raise _NotFound(f"there is no game {game_id} in the log")

    def turns_body(game_id: int) -> dict[str, Any]:
        record = game_turns(service.log, game_id)
        for turn in record["turns"]:
            kept = set(evidence.rolls(game_id, turn["number"])) if evidence is not None else set()
            for roll in turn["rolls"]:
                url = f"/api/evidence/{game_id}/{turn['number']}/{roll['roll']}.jpg"
                roll["image"] = url if roll["roll"] in kept else None
                roll["overlay"] = f"{url}?overlay=1" if roll["roll"] in kept else None
        record["evidence"] = evidence is not None and evidence.keep
        return record

    async def turns(request: Request) -> Response:
        game_id = game_id_of(request)
        return JSONResponse(await run_in_threadpool(turns_body, game_id), headers=NO_STORE)

    async def image(request: Request) -> Response:
        params = request.path_params
        game_id, turn = _number(params["game"], "game"), _number(params["turn"], "turn")
        roll = _number(params["roll"], "roll")
        overlay = request.query_params.get("overlay", "0") not in ("0", "", "false")
        data = None
        if evidence is not None:
            data = await run_in_threadpool(evidence.image, game_id, turn, roll, overlay=overlay)
        if data is None:
            raise _NotFound(f"no frame kept for game {game_id} turn {turn} roll {roll}")
        return Response(data, media_type="image/jpeg", headers={"cache-control": "private, max-age=60"})

    def dice_body() -> dict[str, Any]:
        fairness = registry.get(registry.DEFAULT).dice_fairness(logged_dice(service.log))
        if fairness is None:
            raise _NotFound(f"the game {registry.DEFAULT!r} has no die-fairness test")
        return fairness.to_dict()

    async def dice(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(dice_body), headers=NO_STORE)

    def bgstats_body(game_id: int) -> dict[str, Any]:
        game = summary_of(game_id)
        play = bgstats_play(game)
        return {"game": game_id, "status": game["status"], "play": play, "url": bgstats_url(play),
                "https_url": bgstats_url(play, scheme="https"),
                "qr_url": bgstats_url(compact_play(play), scheme="https")}

    async def bgstats(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(bgstats_body, game_id_of(request)), headers=NO_STORE)

    async def bgstats_qr(request: Request) -> Response:
        body = await run_in_threadpool(bgstats_body, game_id_of(request))
        svg = await run_in_threadpool(qr_svg, body["qr_url"])
        return Response(svg, media_type="image/svg+xml", headers=NO_STORE)

    async def export_csv(request: Request) -> Response:
        text = await run_in_threadpool(lambda: history_csv(service.history()))
        return Response(text, media_type="text/csv; charset=utf-8",
                        headers={**NO_STORE, "content-disposition": 'attachment; filename="rig-history.csv"'})

    def json_body() -> str:
        history = service.history()
        turns_by_game = {g["id"]: game_turns(service.log, g["id"])["turns"] for g in history["games"]}
        return json.dumps(history_json(history, turns_by_game), ensure_ascii=False, indent=1)

    async def export_json(request: Request) -> Response:
        text = await run_in_threadpool(json_body)
        return Response(text, media_type="application/json",
                        headers={**NO_STORE, "content-disposition": 'attachment; filename="rig-history.json"'})

    return [
        Route("/api/turns", handle(turns)),
        Route("/api/evidence/{game}/{turn}/{roll}.jpg", handle(image)),
        Route("/api/dice", handle(dice)),
        Route("/api/export/bgstats", handle(bgstats)),
        Route("/api/export/bgstats.svg", handle(bgstats_qr)),
        Route("/api/export/history.csv", handle(export_csv)),
        Route("/api/export/history.json", handle(export_json)),
    ]

"""The league's read-only web page and JSON API (Starlette, like the scoreboard).

| route | returns |
| --- | --- |
| ``GET /`` | the league page |
| ``GET /api/league`` | everything below in one object, plus the broker link |
| ``GET /api/standings`` | per player over every table and game: games, finished, wins, points, best |
| ``GET /api/games`` | games newest first; ``?status=playing`` the games in progress |
| ``GET /api/tables`` | per-table health: online, last seen, events counted / announced / missing, rejected |
| ``GET /api/tables/{table}/state`` | a table's retained state (what its scoreboard shows) |
| ``GET /api/rejects`` | the last messages refused (malformed or forged) and why |

Nothing changes anything: every other method is 405, unknown paths 404, all errors ``{"error": ...}``;
a bug answers 503 with an incident id (:class:`rig.display.middleware.Guard`), never a 500.
"""

from __future__ import annotations

import asyncio
from importlib import resources
from pathlib import Path
from typing import Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rig.config import TABLE_NAME
from rig.i18n import N_

STATIC_DIR = Path(str(resources.files("rig.league") / "static"))
NO_STORE = {"cache-control": "no-store"}
GAME_STATUSES = ("playing", "over", "abandoned", "unreadable")
#: Starlette's own error answers (``{"error": exc.detail}``), in the catalogue
HTTP_ERRORS = (N_("Not Found"), N_("Method Not Allowed"))


def create_league_app(store, *, status: Callable[[], dict] | None = None) -> Starlette:
    """The app over a :class:`rig.league.store.LeagueStore`; ``status()`` gives the broker link."""

    def answer(compute) -> Callable:
        async def endpoint(request: Request) -> Response:
            body = await asyncio.to_thread(compute, request)
            if isinstance(body, Response):
                return body
            return JSONResponse(body, headers=NO_STORE)

        return endpoint

    def games(request: Request):
        wanted = request.query_params.get("status")
        if wanted is not None and wanted not in GAME_STATUSES:
            return JSONResponse({"error": f"status must be one of {', '.join(GAME_STATUSES)}"}, status_code=422)
        return {"games": store.games(status=wanted)}

    def table_state(request: Request):
        table = request.path_params["table"]
        state = store.table_state(table) if TABLE_NAME.fullmatch(table) else None
        if state is None:
            return JSONResponse({"error": f"no state from a table {table!r}"}, status_code=404)
        return {"table": table, "state": state}

    def everything(request: Request):
        return {"league": status() if status else {}, "standings": store.standings(),
                "playing": store.games(status="playing"), "finished": store.games(status="over", limit=50),
                "tables": store.tables(), "rejects": store.rejects(10)}

    async def index(request: Request) -> Response:
        """The page in the viewer's language (``?lang=``, the page's switch, ``Accept-Language``; else English)."""
        from rig import i18n
        from rig.i18n.extract import render_page

        lang = i18n.request_language(request.query_params, request.cookies, request.headers.get("accept-language"),
                                     local=False, configured=i18n.DEFAULT)
        text = render_page((STATIC_DIR / "league.html").read_text(encoding="utf-8"), lang, i18n.messages(lang))
        return Response(text, media_type="text/html; charset=utf-8",
                        headers={"cache-control": "no-cache", "content-language": lang, "vary": "Accept-Language, Cookie"})

    async def i18n_script(request: Request) -> Response:
        """The language's helpers the rig's pages share (``rig/display/static/i18n.js``)."""
        from rig.display.app import STATIC_DIR as DISPLAY_STATIC

        return FileResponse(DISPLAY_STATIC / "i18n.js", headers={"cache-control": "no-cache"})

    async def error(request: Request, exc: HTTPException) -> Response:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    routes = [
        Route("/", index),
        Route("/static/i18n.js", i18n_script),
        Route("/api/league", answer(everything)),
        Route("/api/standings", answer(lambda r: {"standings": store.standings()})),
        Route("/api/games", answer(games)),
        Route("/api/tables", answer(lambda r: {"tables": store.tables()})),
        Route("/api/tables/{table}/state", answer(table_state)),
        Route("/api/rejects", answer(lambda r: {"rejects": store.rejects()})),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    from starlette.middleware import Middleware

    from rig.display.middleware import Guard
    from rig.display.speak import Speak

    # the rig's one guard around every handler: a bug answers 503/400 with an incident id, never a 500
    # (read-only: every host name is answered); the errors in the viewer's language
    return Starlette(routes=routes, exception_handlers={HTTPException: error},
                     middleware=[Middleware(Speak), Middleware(Guard, hosts=lambda host: True)])

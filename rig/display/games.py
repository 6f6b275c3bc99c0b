"""Each game's page renderer, from its own package: described for the page and served.

A game package ships its scoreboard as a script and a style sheet (:attr:`rig.registry.Game.page_script`,
``page_style``); the page asks ``GET /api/display`` (or ``GET /api/games/kinds``) which games there are,
loads ``GET /games/<name>/page.js`` and ``page.css`` of each, and the script registers its renderer
with ``rigGames.register`` (``rig/display/static/games.js``). A game without them is drawn by the
page's generic renderer. See ``docs/games-new.md``.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rig import registry

#: the URL's file name → the asset's kind and media type
ASSETS = {
    "page.js": ("script", "text/javascript; charset=utf-8"),
    "page.css": ("style", "text/css; charset=utf-8"),
}


def _url(game: registry.Game, file_name: str) -> str | None:
    kind = ASSETS[file_name][0]
    return f"/games/{game.name}/{file_name}" if game.page_file(kind) is not None else None


def described(lang: str = "en") -> list[dict[str, Any]]:
    """Every registered game as the page needs it: :func:`rig.registry.describe` plus its page assets.

    ``page``: ``{"script": URL or None, "style": URL or None}``; ``rolls_in_parts``: the simulation
    bar offers rolls of 1, 2, 3 dice and the rest (else one throw button). The texts in ``lang``.
    """
    from rig.i18n import gettext

    games = []
    for game in registry.games():
        entry = game.to_dict()
        for field in ("title", "short_title", "description", "key_hint", "player_hint"):
            if entry.get(field):
                entry[field] = gettext(entry[field], lang)
        entry["keys"] = [[key, gettext(what, lang)] for key, what in entry["keys"]]
        entry["page"] = {"script": _url(game, "page.js"), "style": _url(game, "page.css")}
        entry["rolls_in_parts"] = game.rolls_in_parts
        games.append(entry)
    return games


def page_routes() -> list[Route]:
    """``GET /games/<name>/page.js`` and ``page.css``: 404 for an unknown game or an asset it does not ship."""

    async def asset(request: Request) -> Response:
        name, file_name = request.path_params["name"], request.path_params["file"]
        if file_name not in ASSETS:
            return JSONResponse({"error": f"a game's page has page.js and page.css, not {file_name!r}"}, status_code=404)
        kind, media_type = ASSETS[file_name]
        try:
            game = registry.get(name)
        except registry.UnknownGameError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        found = game.page_file(kind)
        if found is None:
            return JSONResponse({"error": f"{name} has no page {kind}: the page draws it with its generic renderer"},
                                status_code=404)
        data = await run_in_threadpool(found.read_bytes)
        return Response(data, media_type=media_type, headers={"cache-control": "no-cache"})

    return [Route("/games/{name}/{file}", asset)]

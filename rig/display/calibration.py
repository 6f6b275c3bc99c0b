"""The calibration page's routes: live preview, the ritual, the separation report, profiles, camera lock.

The routes drive a *desk* object the runner supplies (the display knows no camera or vision
code itself). The desk's interface:

- ``status() -> dict`` — the ritual's steps and which are captured, the last report, saved
  profiles, the active one, the camera lock (the body of ``GET /api/calibration``);
- ``preview_jpeg(outline: bool) -> bytes | None`` — the latest frame, dice outlined and labelled;
- ``capture(step)``, ``fit() -> dict`` (the separation report), ``save(name) -> dict``,
  ``restore(name) -> dict``, ``lock(locked: bool) -> dict``, ``reset()``.

Each may raise a :class:`rig.errors.RigError` whose message the page shows (HTTP 409).
Profile names are checked here: letters, digits, ``-`` and ``_``, at most 40 characters.

>>> valid_name("evening-light"), valid_name("../etc/passwd"), valid_name("")
(True, False, False)
"""

from __future__ import annotations

import asyncio
import re

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rig.display.speak import request_language
from rig.errors import RigError
from rig.i18n import DEFAULT, N_

#: the ritual, in order: what to turn up, and what the page asks the players to do
STEPS = {
    "blue": N_("Turn all six dice blue frog up"),
    "pink": N_("Turn all six dice pink frog up"),
    "yellow": N_("Turn all six dice yellow frog up"),
    "blank": N_("Turn all six dice blank face up"),
    "empty": N_("Take every die out: the empty box (the light reference)"),
}

_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


def valid_name(name: object) -> bool:
    return isinstance(name, str) and _NAME.fullmatch(name) is not None


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def calibration_routes(desk, *, can_change, forbidden, can_view=None) -> list[Route]:
    """Routes under ``/api/calibration`` over ``desk``; changes go through ``can_change(request)``,
    the live camera picture through ``can_view(request)`` (the rig's display and PIN holders)."""

    async def status(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(desk.status), headers={"cache-control": "no-store"})

    async def preview(request: Request) -> Response:
        if can_view is not None and not can_view(request):
            return _error("the live camera is shown on the rig's display, or with the PIN (header X-Rig-Pin)", 403)
        outline = request.query_params.get("outline", "1") != "0"
        lang = request_language(request.scope, DEFAULT)  # the dice's labels in the viewer's language
        jpeg = await asyncio.to_thread(desk.preview_jpeg, outline, lang)
        if jpeg is None:
            return _error("no camera frame yet", 503)
        return Response(jpeg, media_type="image/jpeg", headers={"cache-control": "no-store"})

    def change(handler, *, fields: dict[str, type] | None = None):
        async def endpoint(request: Request) -> Response:
            if not can_change(request):
                return forbidden(request)
            from rig.display.api import BadBody, read_object

            try:
                body = await read_object(request)
            except BadBody as exc:
                return _error(exc.message, exc.status)
            for name, kind in (fields or {}).items():
                if not isinstance(body.get(name), kind):
                    return _error(f"'{name}' must be true or false" if kind is bool else f"'{name}' must be a string")
            try:
                result = await asyncio.to_thread(handler, body)
            except RigError as exc:
                return _error(str(exc), 409)
            return JSONResponse(result if isinstance(result, dict) else {"ok": True})

        return endpoint

    def capture(body):
        if body["step"] not in STEPS:
            raise _Refused(f"unknown step {body['step']!r} (steps: {', '.join(STEPS)})")
        desk.capture(body["step"])
        return desk.status()

    def named(action):
        def handler(body):
            if not valid_name(body["name"]):
                raise _Refused("a profile name is 1-40 letters, digits, '-' or '_'")
            return action(body["name"])

        return handler

    return [
        Route("/api/calibration", status),
        Route("/api/calibration/preview.jpg", preview),
        Route("/api/calibration/capture", change(capture, fields={"step": str}), methods=["POST"]),
        Route("/api/calibration/fit", change(lambda body: desk.fit()), methods=["POST"]),
        Route("/api/calibration/save", change(named(desk.save), fields={"name": str}), methods=["POST"]),
        Route("/api/calibration/restore", change(named(desk.restore), fields={"name": str}), methods=["POST"]),
        Route("/api/calibration/lock", change(lambda body: desk.lock(body["locked"]), fields={"locked": bool}),
              methods=["POST"]),
        Route("/api/calibration/reset", change(lambda body: desk.reset()), methods=["POST"]),
    ]


class _Refused(RigError):
    """A calibration request that names something that does not exist."""

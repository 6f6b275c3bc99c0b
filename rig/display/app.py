"""The ASGI app the kiosk browser and phones show: the scoreboard, the calibration page, the JSON API.

Who may change things (:class:`PinGuard`): a browser on the rig itself (loopback) always may;
anyone else on the network may look, but a request that changes something (a correction,
a new game, calibration, the simulation controls) must carry the PIN shown on the attached
display in the ``X-Rig-Pin`` header. Wrong PINs are counted per client and locked out for a while.

>>> guard = PinGuard("123456")
>>> guard.check("10.0.0.7", "123456"), guard.check("10.0.0.7", "000000")
(True, False)
>>> guard.is_local("127.0.0.1"), guard.is_local("::1"), guard.is_local("192.168.1.20")
(True, True, False)
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import secrets
import threading
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

CARDS = ("blue", "pink", "yellow", "blank", "gray")

#: The header a remote browser sends the PIN in.
PIN_HEADER = "x-rig-pin"

STATIC_DIR = Path(str(resources.files("rig.display") / "static"))


def new_pin(digits: int = 6) -> str:
    """A random numeric PIN (``secrets``, not ``random``)."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


class PinGuard:
    """Decides whether a request may change anything.

    ``max_failures`` wrong PINs from one client lock that client out for ``lockout_s`` seconds.
    """

    def __init__(self, pin: str, *, max_failures: int = 5, lockout_s: float = 60.0, clock=time.monotonic):
        if not (pin.isdigit() and 4 <= len(pin) <= 12):
            raise ValueError("the PIN must be 4 to 12 digits")
        self.pin = pin
        self.max_failures = max_failures
        self.lockout_s = lockout_s
        self._clock = clock
        self._failures: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<PinGuard pin=*** clients_locked={len(self._locked_clients())}>"

    @staticmethod
    def is_local(host: str | None) -> bool:
        if not host:
            return False
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False

    def locked_out(self, client: str) -> bool:
        with self._lock:
            count, since = self._failures.get(client, (0, 0.0))
            if count < self.max_failures:
                return False
            if self._clock() - since >= self.lockout_s:
                del self._failures[client]
                return False
            return True

    def check(self, client: str, pin: str | None) -> bool:
        """True if ``pin`` is right; a wrong one counts against ``client``."""
        if self.locked_out(client):
            return False
        ok = pin is not None and hmac.compare_digest(pin.encode(), self.pin.encode())
        with self._lock:
            if ok:
                self._failures.pop(client, None)
            else:
                count, _ = self._failures.get(client, (0, 0.0))
                self._failures[client] = (count + 1, self._clock())
        return ok

    def _locked_clients(self) -> list[str]:
        return [c for c, (n, _) in self._failures.items() if n >= self.max_failures]


def _same_origin(request: Request) -> bool:
    """A browser's cross-site POST carries a foreign ``Origin``: refuse it (no CSRF from other pages)."""
    origin = request.headers.get("origin")
    if not origin or origin == "null":
        return origin is None
    return urlsplit(origin).netloc == request.headers.get("host", "")


def make_can_change(guard: PinGuard) -> Callable[[Request], bool]:
    """The ``can_change(request)`` hook for :func:`rig.display.api.api_routes` and the calibration routes."""

    def can_change(request: Request) -> bool:
        if not _same_origin(request):
            return False
        host = request.client.host if request.client else None
        if guard.is_local(host):
            return True
        return guard.check(host or "?", request.headers.get(PIN_HEADER))

    return can_change


def forbidden(request: Request) -> JSONResponse:
    if not _same_origin(request):
        return JSONResponse({"error": "cross-site request refused"}, status_code=403)
    return JSONResponse(
        {"error": "changing anything needs the PIN shown on the rig's display (header X-Rig-Pin)"},
        status_code=403,
    )


async def _json_object(request: Request) -> dict:
    try:
        body = await request.json()
    except ValueError:
        raise _BadRequest("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise _BadRequest("the request body must be a JSON object")
    return body


class _BadRequest(Exception):
    pass


def sim_routes(sim, *, can_change, forbidden=forbidden) -> list[Route]:
    """Simulation controls beyond ``/api/sim/press`` and ``/api/sim/roll`` (those are in the API):
    a card laid under the camera, a settled die knocked, the camera unplugged and back."""

    def acting(action):
        async def endpoint(request: Request) -> Response:
            if not can_change(request):
                return forbidden(request)
            try:
                body = await _json_object(request)
                await asyncio.to_thread(action(body))
            except (_BadRequest, ValueError) as exc:  # RigError is a ValueError
                return JSONResponse({"error": str(exc)}, status_code=400)
            return JSONResponse({"ok": True})

        return endpoint

    def card(body):
        card = body.get("card")
        if card is not None and card not in CARDS:
            raise _BadRequest(f"'card' must be one of {', '.join(CARDS)} or null")
        return (lambda: sim.show_card(card)) if card else sim.hide_card

    def camera(body):
        connected = body.get("connected")
        if not isinstance(connected, bool):
            raise _BadRequest("'connected' must be true or false")
        return sim.restore_camera if connected else sim.drop_camera

    def knock(body):
        return sim.knock

    return [
        Route("/api/sim/knock", acting(knock), methods=["POST"]),
        Route("/api/sim/card", acting(card), methods=["POST"]),
        Route("/api/sim/camera", acting(camera), methods=["POST"]),
    ]


def create_app(
    service,
    *,
    sim=None,
    pin: str | None = None,
    calibration=None,
    info: dict | None = None,
    status: Callable[[], dict] | None = None,
    evidence=None,
) -> Starlette:
    """The web app over an engine service.

    ``sim`` — the simulation controls (``press``, ``hold``, ``roll``, ``show_card``, ``hide_card``,
    ``drop_camera``, ``restore_camera``) or None on the real rig. ``calibration`` — the desk the
    calibration page drives (:mod:`rig.display.calibration`) or None. ``info`` — shown on the page
    (mode, the configured players, ``lan``: listening beyond this machine). ``status`` — the rig's
    own state for ``GET /api/rig`` (camera, inputs, notices). ``evidence`` — the rig's
    :class:`rig.evidence.EvidenceStore` for the referee's routes (:mod:`rig.display.referee`) or None.
    """
    from rig.display.api import api_routes

    guard = PinGuard(pin or new_pin())
    can_change = make_can_change(guard)
    info = dict(info or {})

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers={"cache-control": "no-cache"})

    async def calibrate_page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "calibrate.html", headers={"cache-control": "no-cache"})

    async def display_info(request: Request) -> Response:
        host = request.client.host if request.client else None
        local = guard.is_local(host)
        body = dict(info, sim=sim is not None, calibration=calibration is not None, local=local,
                    pin_required=not local)
        if local and info.get("lan"):
            body["pin"] = guard.pin  # shown on the attached display only
        return JSONResponse(body, headers={"cache-control": "no-store"})

    async def check_pin(request: Request) -> Response:
        if can_change(request):
            return JSONResponse({"ok": True})
        return forbidden(request)

    async def rig_status(request: Request) -> Response:
        body = await asyncio.to_thread(status) if status else {"notices": []}
        return JSONResponse(body, headers={"cache-control": "no-store"})

    async def health(request: Request) -> Response:
        version = await asyncio.to_thread(lambda: service.version)
        return JSONResponse({"ok": True, "version": version}, headers={"cache-control": "no-store"})

    routes = [
        Route("/", index),
        Route("/calibrate", calibrate_page),
        Route("/api/display", display_info),
        Route("/api/pin", check_pin, methods=["POST"]),
        Route("/api/rig", rig_status),
        Route("/api/health", health),
    ]
    if sim is not None:
        routes += sim_routes(sim, can_change=can_change)
    if calibration is not None:
        from rig.display.calibration import calibration_routes

        routes += calibration_routes(calibration, can_change=can_change, forbidden=forbidden)
    routes += api_routes(service, sim=sim, can_change=can_change)
    from rig.display.referee import referee_routes

    routes += referee_routes(service, evidence=evidence)
    routes.append(Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"))

    app = Starlette(routes=routes, max_body_size=1 << 20)
    app.state.service = service
    app.state.guard = guard
    app.state.sim = sim
    return app

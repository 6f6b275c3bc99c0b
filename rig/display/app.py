"""The ASGI app the kiosk browser and phones show: the scoreboard, the calibration page, the JSON API.

Who may change things (:class:`PinGuard`): a browser on the rig itself (loopback, also as
``::ffff:127.0.0.1`` when listening on ``::``) always may; anyone else on the network may look at
the scoreboard, but a request that changes something (a correction, a new game, calibration, the
simulation controls) or reads what is private (the live camera picture, the history of games) must
carry the PIN shown on the attached display in the ``X-Rig-Pin`` header. Wrong PINs lock out the
device that sent them (for a while that doubles with each further wrong one), never the others; a
network-wide ceiling of wrong PINs per hour bounds guessing from rotating addresses without locking
out the phones that already gave the right PIN.

>>> guard = PinGuard("12345678")
>>> guard.check("10.0.0.7", "12345678"), guard.check("10.0.0.7", "00000000")
(True, False)
>>> guard.is_local("127.0.0.1"), guard.is_local("::1"), guard.is_local("::ffff:127.0.0.1"), guard.is_local("192.168.1.20")
(True, True, True, False)
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rig import i18n, registry
from rig.errors import AnswerError

CARDS = ("blue", "pink", "yellow", "blank", "gray")

#: The header a remote browser sends the PIN in.
PIN_HEADER = "x-rig-pin"
#: digits of a new PIN: with the lockout below, 10^8 PINs take ~2,600 years at the allowed rate
PIN_DIGITS = 8

STATIC_DIR = Path(str(resources.files("rig.display") / "static"))


def new_pin(digits: int = PIN_DIGITS) -> str:
    """A random numeric PIN (``secrets``, not ``random``)."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


class PinGuard:
    """Decides whether a request may change anything (or see what is private).

    Wrong PINs count **per device** (client address): the first ``max_failures`` are free, then each
    further one locks that device out for ``lockout_s`` seconds, doubling up to ``max_lockout_s``; a
    right PIN outside its lockout resets the device's count. So one device guessing locks out only
    itself. Above that, a **global ceiling** bounds guessing from rotating addresses: at most
    ``ceiling`` wrong PINs in any ``ceiling_window_s`` from all devices together; while it is reached,
    only devices that gave the right PIN within ``trust_s`` (the players' phones) are still checked,
    every other device is refused without a check. A request without a PIN is refused without
    counting (it is not a guess).
    """

    def __init__(self, pin: str, *, max_failures: int = 5, lockout_s: float = 30.0, max_lockout_s: float = 900.0,
                 ceiling: int = 20, ceiling_window_s: float = 3600.0, trust_s: float = 12 * 3600.0,
                 max_devices: int = 4096, clock=time.monotonic):
        if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
            raise ValueError("the PIN must be 4 to 12 digits")
        self.pin = pin
        self.max_failures = max_failures
        self.lockout_s = lockout_s
        self.max_lockout_s = max_lockout_s
        self.ceiling = ceiling
        self.ceiling_window_s = ceiling_window_s
        self.trust_s = trust_s
        self.max_devices = max_devices
        self._clock = clock
        #: per device: [wrong PINs in a row, locked until]
        self._devices: OrderedDict[str, list] = OrderedDict()
        #: devices that gave the right PIN, and when
        self._trusted: OrderedDict[str, float] = OrderedDict()
        #: times of the wrong PINs within the ceiling's window (all devices)
        self._wrong: deque[float] = deque()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<PinGuard pin=*** devices={len(self._devices)} ceiling={self.ceiling_reached()}>"

    @staticmethod
    def is_local(host: str | None) -> bool:
        """The request comes from this machine (IPv4-mapped IPv6 loopback too)."""
        from rig.display.middleware import is_loopback

        return is_loopback(host)

    def failures(self, client: str) -> int:
        """Wrong PINs in a row from ``client``."""
        with self._lock:
            return self._devices.get(client, [0, 0.0])[0]

    def ceiling_reached(self, now: float | None = None) -> bool:
        """The network-wide ceiling of wrong PINs is reached: only trusted devices are checked now."""
        now = self._clock() if now is None else now
        while self._wrong and self._wrong[0] <= now - self.ceiling_window_s:
            self._wrong.popleft()
        return len(self._wrong) >= self.ceiling

    def trusted(self, client: str | None) -> bool:
        """``client`` gave the right PIN within ``trust_s`` (a player's phone)."""
        with self._lock:
            return self._trusted_now(client or "?", self._clock())

    def _trusted_now(self, client: str, now: float) -> bool:
        seen = self._trusted.get(client)
        return seen is not None and now - seen < self.trust_s

    def locked_out(self, client: str | None = None) -> str | None:
        """Why ``client``'s PIN would be refused without a check now: ``"device"`` (its own wrong PINs),
        ``"network"`` (the global ceiling, and it is not a trusted device), or None."""
        with self._lock:
            now = self._clock()
            device = self._devices.get(client or "?")
            if device is not None and now < device[1]:
                return "device"
            if self.ceiling_reached(now) and not self._trusted_now(client or "?", now):
                return "network"
            return None

    def lockout_for(self, failures: int) -> float:
        """Seconds a device's PINs are refused after its ``failures``-th wrong one in a row."""
        if failures < self.max_failures:
            return 0.0
        return min(self.max_lockout_s, self.lockout_s * 2 ** min(failures - self.max_failures, 30))

    def guesses_per_day(self) -> int:
        """The most PINs all devices together can try in 24 hours (the global ceiling bounds them)."""
        return int(self.ceiling * 86_400 / self.ceiling_window_s)

    def device_guesses_per_day(self) -> int:
        """The most PINs one device can try in 24 hours at its own lockout."""
        elapsed, tries = 0.0, 0
        while elapsed <= 86_400:
            tries += 1
            elapsed += self.lockout_for(tries)
        return tries

    def check(self, client: str, pin: str | None) -> bool:
        """True if ``pin`` is right and neither ``client``'s lockout nor the ceiling refuses it."""
        if pin is None:
            return False
        with self._lock:
            now = self._clock()
            device = self._devices.get(client)
            if device is not None and now < device[1]:
                return False
            if self.ceiling_reached(now) and not self._trusted_now(client, now):
                return False
            ok = hmac.compare_digest(pin.encode("utf-8", "replace"), self.pin.encode())
            if ok:
                self._devices.pop(client, None)
                self._trusted[client] = now
                self._trusted.move_to_end(client)
                while len(self._trusted) > self.max_devices:
                    self._trusted.popitem(last=False)
                return True
            if device is None:
                device = self._devices[client] = [0, 0.0]
                while len(self._devices) > self.max_devices:  # oldest first; a forgotten device starts over
                    self._devices.popitem(last=False)
            self._devices.move_to_end(client)
            device[0] += 1
            device[1] = now + self.lockout_for(device[0])
            self._wrong.append(now)
            return False


def _same_origin(request: Request) -> bool:
    """A browser's cross-site POST carries a foreign ``Origin``: refuse it (no CSRF from other pages)."""
    origin = request.headers.get("origin")
    if not origin or origin == "null":
        return origin is None
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:  # "http://[::1": not an origin any browser sends
        return False
    return netloc == request.headers.get("host", "")


def make_can_change(guard: PinGuard) -> Callable[[Request], bool]:
    """The ``can_change(request)`` hook for :func:`rig.display.api.api_routes` and the calibration routes."""

    def can_change(request: Request) -> bool:
        if not _same_origin(request):
            return False
        return may_see_private(guard, request)

    return can_change


def may_see_private(guard: PinGuard, request: Request) -> bool:
    """The rig's own display, or a device with the PIN: the live camera, the history."""
    host = request.client.host if request.client else None
    if guard.is_local(host):
        return True
    return guard.check(host or "?", request.headers.get(PIN_HEADER))


def forbidden(request: Request, guard: PinGuard | None = None) -> JSONResponse:
    if not _same_origin(request):
        return JSONResponse({"error": "cross-site request refused"}, status_code=403)
    why = guard.locked_out(request.client.host if request.client else None) if guard is not None else None
    if why == "device":
        return JSONResponse({"error": "too many wrong PINs from this device: its PINs are refused for a while, "
                                      "try again later"}, status_code=403)
    if why == "network":
        return JSONResponse({"error": "too many wrong PINs on the network: PINs from devices that have not given "
                                      "the right one lately are refused for a while, try again later"},
                            status_code=403)
    return JSONResponse(
        {"error": "changing anything needs the PIN shown on the rig's display (header X-Rig-Pin)"},
        status_code=403,
    )


async def _json_object(request: Request) -> dict:
    from rig.display.api import BadBody, read_object

    try:
        return await read_object(request)
    except BadBody as exc:
        raise _BadRequest(exc.message) from None


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
        layout = body.get("layout")
        if layout not in (None, "row", "pile"):
            raise _BadRequest("'layout' must be \"row\", \"pile\" or absent (the players' habit, at random)")
        if not card:
            return sim.hide_card
        return (lambda: sim.show_card(card, layout=layout)) if layout else (lambda: sim.show_card(card))

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
    hosts: Iterable[str] = (),
    answer: Callable[[str, bool], bool] | None = None,
    limits=None,
    language: str = "en",
) -> Starlette:
    """The web app over an engine service.

    ``sim`` — the simulation controls (``press``, ``hold``, ``roll``, ``show_card``, ``hide_card``,
    ``drop_camera``, ``restore_camera``) or None on the real rig. ``calibration`` — the desk the
    calibration page drives (:mod:`rig.display.calibration`) or None. ``info`` — shown on the page
    (mode, the configured players, ``lan``: listening beyond this machine). ``status`` — the rig's
    own state for ``GET /api/rig`` (camera, inputs, notices). ``evidence`` — the rig's
    :class:`rig.evidence.EvidenceStore` for the referee's routes (:mod:`rig.display.referee`) or None.
    ``hosts`` — host names the rig answers to besides its IP addresses, ``localhost``, its host name
    and ``NAME.local`` (DNS-rebinding guard). ``answer(key, yes)`` — the rig's answer to a question
    notice (``POST /api/answer``; False: no such question open). ``limits`` — the live streams' cap
    (:class:`rig.display.api.StreamLimits`; its defaults when None). ``language`` — the config's
    ``[display] language``: the rig's own display's, and a viewer's whose browser asks for none the rig
    speaks (``app.state.language``; :func:`rig.i18n.request_language`).
    """
    from rig.display.api import api_routes
    from rig.display.games import described, page_routes
    from rig.display.middleware import Guard, default_host_names, host_allowed
    from rig.display.speak import Speak

    guard = PinGuard(pin or new_pin())
    can_change = make_can_change(guard)
    info = dict(info or {})

    def can_view(request: Request) -> bool:
        return may_see_private(guard, request)

    def refuse(request: Request) -> JSONResponse:
        return forbidden(request, guard)

    def viewer_language(request: Request) -> str:
        host = request.client.host if request.client else None
        return i18n.request_language(request.query_params, request.cookies, request.headers.get("accept-language"),
                                     local=guard.is_local(host), configured=request.app.state.language)

    async def index(request: Request) -> Response:
        return page(STATIC_DIR / "index.html", viewer_language(request))

    async def calibrate_page(request: Request) -> Response:
        return page(STATIC_DIR / "calibrate.html", viewer_language(request))

    async def messages(request: Request) -> Response:
        """``GET /api/messages?lang=de``: the pages' catalogue (the viewer's language without ``lang``)."""
        asked = request.query_params.get("lang")
        if asked is not None and asked not in i18n.LANGUAGES:
            return JSONResponse({"error": f"lang must be one of {', '.join(i18n.LANGUAGES)}, not {asked[:20]!r}"},
                                status_code=400)
        return JSONResponse(catalogue(asked or viewer_language(request)), headers={"cache-control": "no-cache"})

    async def display_info(request: Request) -> Response:
        host = request.client.host if request.client else None
        local = guard.is_local(host)
        lang = viewer_language(request)
        body = dict(info, sim=sim is not None, calibration=calibration is not None, local=local,
                    pin_required=not local, games=described(lang), default_game=registry.DEFAULT,
                    language=lang, rig_language=request.app.state.language)
        if local and info.get("lan"):
            body["pin"] = guard.pin  # shown on the attached display only
        return JSONResponse(body, headers={"cache-control": "no-store"})

    async def game_kinds(request: Request) -> Response:
        """The registered games (the page's Game menu): name, title, description, seats, dice, keys, page assets."""
        return JSONResponse({"games": described(viewer_language(request))}, headers={"cache-control": "no-store"})

    async def check_pin(request: Request) -> Response:
        if can_change(request):
            return JSONResponse({"ok": True})
        return refuse(request)

    async def rig_status(request: Request) -> Response:
        body = await asyncio.to_thread(status) if status else {"notices": []}
        return JSONResponse(body, headers={"cache-control": "no-store"})

    async def post_answer(request: Request) -> Response:
        """``POST /api/answer {"key": K, "answer": "yes"|"no"}``: the players answer a question notice; a question about
        a card (its notice lists ``cards``) also takes ``{"key": K, "answer": "no", "was": CARD}``: it was that card."""
        if not can_change(request):
            return refuse(request)
        try:
            body = await _json_object(request)
        except _BadRequest as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        key, said, was = body.get("key"), body.get("answer"), body.get("was")
        if not isinstance(key, str) or said not in ("yes", "no"):
            return JSONResponse({"error": "POST /api/answer needs {\"key\": NOTICE_KEY, \"answer\": \"yes\" or \"no\"}"},
                                status_code=422)
        if was is not None and (said != "no" or not isinstance(was, str)):
            return JSONResponse({"error": "POST /api/answer takes \"was\": CARD with \"answer\": \"no\" only"},
                                status_code=422)
        try:
            args = (key, said == "yes") if was is None else (key, False, was)
            done = await asyncio.to_thread(answer, *args) if answer else False
        except AnswerError as exc:
            return JSONResponse({"error": str(exc)}, status_code=422)
        if not done:
            return JSONResponse({"error": f"no question {key!r} is open"}, status_code=409)
        return JSONResponse({"ok": True})

    async def health(request: Request) -> Response:
        version = await asyncio.to_thread(lambda: service.version)
        return JSONResponse({"ok": True, "version": version}, headers={"cache-control": "no-store"})

    routes = [
        Route("/", index),
        Route("/calibrate", calibrate_page),
        Route("/api/display", display_info),
        Route("/api/messages", messages),
        Route("/api/games/kinds", game_kinds),
        Route("/api/pin", check_pin, methods=["POST"]),
        Route("/api/rig", rig_status),
        Route("/api/health", health),
        Route("/api/answer", post_answer, methods=["POST"]),
    ]
    if sim is not None:
        routes += sim_routes(sim, can_change=can_change, forbidden=refuse)
    if calibration is not None:
        from rig.display.calibration import calibration_routes

        routes += calibration_routes(calibration, can_change=can_change, forbidden=refuse, can_view=can_view)
    routes += api_routes(service, sim=sim, can_change=can_change, can_view=can_view, limits=limits,
                         trusted=lambda request: guard.trusted(request.client.host if request.client else None))
    from rig.display.referee import referee_routes

    routes += referee_routes(service, evidence=evidence, can_view=can_view)
    routes += page_routes()
    routes.append(Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"))

    allowed = host_allowed(default_host_names() | set(hosts))
    middleware = [Middleware(Speak, language=language), Middleware(Guard, hosts=allowed)]  # Speak: the errors' language
    app = Starlette(routes=routes, max_body_size=1 << 20, middleware=middleware)
    app.state.service = service
    app.state.guard = guard
    app.state.sim = sim
    app.state.language = i18n.language(language)
    return app


def catalogue(lang: str) -> dict:
    """The pages' catalogue in ``lang``, with the patterns of what the rules core says in English."""
    from rig.display.texts import rules_texts

    lang = i18n.language(lang)
    return dict(i18n.messages(lang), patterns=i18n.page_patterns(lang, rules_texts()) if lang != i18n.DEFAULT else [])


def page(path, lang: str) -> Response:
    """A page of the display in ``lang``: ``<html lang>``, its ``data-i18n`` texts, and the pages' catalogue
    embedded for the scripts (``rig.t``)."""
    from rig.i18n.extract import render_page

    text = render_page(path.read_text(encoding="utf-8"), lang, catalogue(lang))
    return Response(text, media_type="text/html; charset=utf-8",
                    headers={"cache-control": "no-cache", "content-language": lang, "vary": "Accept-Language, Cookie"})

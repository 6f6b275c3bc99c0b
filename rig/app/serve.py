"""Serving the rig: the listening socket, the uvicorn server and the systemd watchdog.

:func:`bind_socket` opens the port before any hardware is touched (a port in use fails fast);
:func:`serve` puts the rig's web app on it and, through :class:`Watchdog`, tells systemd the rig
is ready and keeps pinging its watchdog while the rig is healthy.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import threading

from rig import registry
from rig.app.runner import Rig, RunError

log = logging.getLogger(__name__)

#: open connections one other device may hold, and all other devices together (the rig's own
#: display, on loopback, is never limited); far below the file descriptors the rig raises itself to
CONNECTIONS_PER_CLIENT = 64
CONNECTIONS_TOTAL = 1024
#: seconds a connection from another device may stay open without sending a request
IDLE_S = 15.0
#: file descriptors the rig asks for (systemd's LimitNOFILE sets the same)
NOFILE = 8192


def raise_fd_limit(target: int = NOFILE) -> int:
    """Raise the soft limit of open files towards ``target`` (within the hard limit); returns it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = target if hard == resource.RLIM_INFINITY else min(target, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def _is_loopback(host) -> bool:
    import ipaddress

    try:
        address = ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return False
    return (getattr(address, "ipv4_mapped", None) or address).is_loopback


def limited_protocol(*, per_client: int = CONNECTIONS_PER_CLIENT, total: int = CONNECTIONS_TOTAL,
                     idle_s: float = IDLE_S):
    """uvicorn's HTTP protocol with connection caps: a device over its share is closed at once (no
    file descriptor held, nothing logged), and one that connects but sends nothing is closed after
    ``idle_s``; so no neighbour can exhaust the rig's file descriptors or stall the kiosk."""
    from collections import Counter

    from uvicorn.protocols.http.h11_impl import H11Protocol

    open_by_host: Counter = Counter()
    state = {"total": 0}

    class LimitedH11Protocol(H11Protocol):
        _rig_host = None
        _rig_started = False

        def connection_made(self, transport) -> None:
            peer = transport.get_extra_info("peername")
            host = peer[0] if peer else None
            if not _is_loopback(host):
                if open_by_host[host] >= per_client or state["total"] >= total:
                    transport.abort()
                    return
                open_by_host[host] += 1
                state["total"] += 1
                self._rig_host = host
            self._rig_started = True
            super().connection_made(transport)
            if self._rig_host is not None:
                self._rig_idle = self.loop.call_later(idle_s, self._rig_close_if_idle)

        def _rig_close_if_idle(self) -> None:
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc) -> None:
            if self._rig_host is not None:
                self._rig_idle.cancel()
                open_by_host[self._rig_host] -= 1
                if open_by_host[self._rig_host] <= 0:
                    del open_by_host[self._rig_host]
                state["total"] -= 1
                self._rig_host = None
            if self._rig_started:
                super().connection_lost(exc)

    return LimitedH11Protocol


def bind_socket(listen: str, port: int) -> socket.socket:
    """A listening TCP socket on ``listen:port`` (port 0: a free one); :class:`RunError` if impossible."""
    try:
        infos = socket.getaddrinfo(listen, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise RunError(f"cannot listen on {listen!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        hint = ""
        if exc.errno == errno.EADDRINUSE:
            hint = (f" (another rig, or another program, has it: stop that one, or pick another port: "
                    f"rig run --port {port + 1 if 0 < port < 65535 else 8081}, make run PORT={port + 1 if 0 < port < 65535 else 8081})")
        elif exc.errno == errno.EACCES and 0 < port < 1024:
            hint = " (ports below 1024 need root: pick one above, e.g. --port 8080)"
        raise RunError(f"cannot listen on {listen}:{port}: {exc.strerror}{hint}") from None
    sock.set_inheritable(True)
    return sock


def page_urls(listen: str, port: int) -> list[str]:
    """The addresses to print for the scoreboard.

    >>> page_urls("127.0.0.1", 8080)
    ['http://127.0.0.1:8080/']
    >>> page_urls("::1", 8080)
    ['http://[::1]:8080/']
    """
    if listen in ("0.0.0.0", "::", ""):
        return [f"http://127.0.0.1:{port}/", f"http://{socket.gethostname()}.local:{port}/"]
    host = f"[{listen}]" if ":" in listen else listen
    return [f"http://{host}:{port}/"]


class Watchdog(threading.Thread):
    """Tells systemd the rig is ready, then pings its watchdog while the rig is healthy.

    Ready means the web server answers; each ping (every half ``WATCHDOG_USEC``) needs the
    page to answer ``GET /api/health`` and the rig's input and camera threads to be alive, so
    a hung server or a dead thread makes systemd restart the service. Without
    ``NOTIFY_SOCKET`` (not under systemd) the messages go nowhere.
    """

    def __init__(self, server, rig: Rig, url: str, *, env=None, notifier=None) -> None:
        super().__init__(name="rig-watchdog", daemon=True)
        import sdnotify

        env = os.environ if env is None else env
        self.server = server
        self.rig = rig
        self.health_url = url.rstrip("/") + "/api/health"
        self.notifier = notifier or sdnotify.SystemdNotifier()
        usec = env.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 2e6 if usec.isascii() and usec.isdigit() and int(usec) > 0 else None
        self._stop_event = threading.Event()

    def stop(self) -> None:
        self._stop_event.set()

    def alive(self) -> bool:
        import urllib.request

        if not self.rig.healthy():
            return False
        try:
            with urllib.request.urlopen(self.health_url, timeout=5) as response:
                return response.status == 200
        except OSError:
            return False

    def run(self) -> None:
        while not self.server.started:
            if self._stop_event.wait(0.05):
                return
        self.notifier.notify(f"READY=1\nSTATUS=serving {self.health_url[:-len('api/health')]}")
        if self.interval is None:
            return
        while not self._stop_event.wait(self.interval):
            if self.alive():
                self.notifier.notify("WATCHDOG=1")
            else:
                log.warning("rig unhealthy: not pinging the watchdog")
        self.notifier.notify("STOPPING=1")


def _server_class():
    import contextlib
    import signal

    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server, except that SIGTERM/SIGINT end :func:`serve` normally (uvicorn re-raises
        them after shutting down, which would kill the process before the rig is closed)."""

        #: called first when a stop is asked (the rig's open event streams end, so shutting down
        #: does not wait for them and no "timeout graceful shutdown exceeded" traceback is logged)
        before_exit = None

        def handle_exit(self, sig, frame) -> None:
            if self.before_exit is not None:
                try:
                    self.before_exit()
                except Exception:  # noqa: BLE001 - stopping must go on
                    log.warning("ending the event streams failed", exc_info=True)
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self):
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            original = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for sig, handler in original.items():
                    signal.signal(sig, handler)

    return Server


def serve(rig: Rig, sock: socket.socket, *, listen: str = "127.0.0.1", out=print, hosts=()) -> None:
    """Serve the rig's web app on ``sock`` (from :func:`bind_socket`) until Ctrl+C / SIGTERM (blocking)."""
    import ipaddress

    import uvicorn

    from rig.display.app import new_pin

    port = sock.getsockname()[1]
    try:
        lan = not ipaddress.ip_address(listen).is_loopback
    except ValueError:
        lan = listen != "localhost"
    pin = new_pin()
    app = rig.app(pin=pin, lan=lan, hosts=[*hosts, listen])
    app.state.language = rig.config.display.language  # the kiosk's (and the default viewer's) language
    raise_fd_limit()
    server = _server_class()(uvicorn.Config(app, log_level="warning", access_log=False, proxy_headers=False,
                                           timeout_graceful_shutdown=2, lifespan="off",
                                           http=limited_protocol()))
    server.before_exit = rig.service.end_streams
    urls = page_urls(listen, port)
    mode = "simulation mode (virtual table, mock GPIO pins)" if rig.mode == "sim" else "real rig"
    out(f"rig: {mode}: scoreboard at {urls[0]}", flush=True)
    for url in urls[1:]:
        out(f"rig: on the network: {url}", flush=True)
    if lan:
        out(f"rig: PIN for changes from other devices: {pin} (also shown on the rig's display)", flush=True)
    if rig.mode == "sim":
        keys = registry.get(rig.game_name).sim_keys
        out(f"rig: keys on the page: {keys}, ? help (the page lists the keys of the game played); "
            "Ctrl+C stops", flush=True)
    watchdog = Watchdog(server, rig, urls[0])
    watchdog.start()
    try:
        server.run(sockets=[sock])
    finally:
        watchdog.stop()

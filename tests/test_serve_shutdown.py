"""A clean stop with event streams open (issue 31): the kiosk always holds one; SIGTERM ends the
streams first, the server stops without waiting out its graceful timeout and logs no traceback."""

from __future__ import annotations

import logging
import signal
import threading

import httpx
import uvicorn
from starlette.applications import Starlette

from rig.display.api import api_routes
from rig.engine.service import EngineService
from rig.app.serve import _server_class, bind_socket


class Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def test_sigterm_with_streams_open_closes_them_first_and_logs_no_traceback():
    service = EngineService.in_memory(clock="sim")
    sock = bind_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = _server_class()(uvicorn.Config(Starlette(routes=api_routes(service)), log_level="info",
                                            lifespan="off", timeout_graceful_shutdown=30))
    server.before_exit = service.end_streams
    records = Records()
    logging.getLogger().addHandler(records)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    streams_done = []
    first_events = threading.Barrier(4)

    def hold_a_stream():
        with httpx.Client(timeout=None) as client, client.stream("GET", f"http://127.0.0.1:{port}/api/events") as r:
            lines = r.iter_lines()
            for line in lines:
                if line.startswith("data:"):
                    break
            first_events.wait()
            rest = list(lines)  # until the server ends the stream
            streams_done.append(rest)

    try:
        for _ in range(100):  # the server is up once it accepts (state, not time)
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=30)
                break
            except httpx.TransportError:
                threading.Event().wait(0.05)
        clients = [threading.Thread(target=hold_a_stream, daemon=True) for _ in range(3)]
        for client in clients:
            client.start()
        first_events.wait()  # every stream has its first state: they are open
        server.handle_exit(signal.SIGTERM, None)  # what systemctl stop sends
        thread.join()  # without the fix: 30 s of graceful timeout, then a logged "exceeded" and cancellation
        for client in clients:
            client.join(timeout=60)
    finally:
        logging.getLogger().removeHandler(records)
        server.should_exit = server.force_exit = True
        service.close()
    assert not thread.is_alive() and len(streams_done) == 3
    messages = [r.getMessage() for r in records.records]
    assert not [m for m in messages if "graceful shutdown exceeded" in m], messages
    assert not [r for r in records.records if r.exc_info], messages

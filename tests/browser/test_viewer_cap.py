"""A viewer turned away by the viewer cap (issue 31): the page says why in plain words — not a blank or a
generic error — and goes live by itself once a place is free. A real server (uvicorn on this machine's
network address, a cap of one viewer) and a real 503; the kiosk on loopback is never capped, so the page
is opened from the network address, as a phone would."""

from __future__ import annotations

import threading

import httpx
import pytest
import uvicorn

from rig.display.api import StreamLimits
from rig.display.app import create_app
from rig.engine.service import EngineService
from tests.waiting import wait_until

from .test_phone import lan_address

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser


@pytest.fixture
def capped_server():
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no network address to listen on")
    service = EngineService.in_memory(clock="sim")
    service.submit({"type": "game_started", "players": ["Ada", "Ben", "Cleo"]})
    limits = StreamLimits(total=1, reserved=0)
    app = create_app(service, info={"mode": "real", "players": ["Ada", "Ben", "Cleo"], "lan": True}, limits=limits)
    server = uvicorn.Server(uvicorn.Config(app, host=address, port=0, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started, "uvicorn to start")
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://{address}:{port}/", limits
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        service.close()


def test_a_viewer_turned_away_by_the_cap_is_told_why_and_goes_live_when_a_place_is_free(capped_server, page,
                                                                                         artifacts):
    url, limits = capped_server
    page.clock.install()  # the page's timers run on a clock the test moves (its next try: 10 s on)
    with httpx.Client(timeout=10) as client, client.stream("GET", url + "api/events") as other:
        assert other.status_code == 200  # another device holds the only place
        page.goto(url)
        notice = page.locator("#stream-refused")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("every place is taken")
        expect(notice).to_contain_text("tries again by itself")
        expect(page.locator("#live")).not_to_have_class("live on")
        page.screenshot(path=str(artifacts / "viewer-cap-refused.png"))
    # the other device left: the page's next try gets the place
    wait_until(lambda: limits.open == 0, "the other device's place to be free")
    page.clock.fast_forward(10_000)
    expect(page.locator("#live")).to_have_class("live on")
    expect(notice).to_have_count(0)
    expect(page.locator("#turn-banner")).to_have_text("Ada's turn")
    assert page.js_errors == []

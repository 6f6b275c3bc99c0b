"""The league page (``rig league --demo``) and the scoreboard's league badge, in Debian's chromium."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import pytest

from rig.league.broker import LocalBroker, mosquitto_binary
from tests.waiting import WAIT_S

from .conftest import RigServer

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser


@pytest.fixture
def broker_for_browser(tmp_path):
    if mosquitto_binary() is None:
        pytest.skip("mosquitto is not installed (`make mosquitto`)")
    with LocalBroker(["table-9"], folder=tmp_path) as broker:
        yield broker


def test_the_league_demo_page_shows_standings_games_and_tables(page, artifacts, tmp_path):
    if mosquitto_binary() is None:
        pytest.skip("mosquitto is not installed (`make mosquitto`)")
    demo = subprocess.Popen([sys.executable, "-m", "rig", "league", "--demo", "--tables", "2", "--port", "0",
                             "--data-dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        url = None
        for line in demo.stdout:
            match = re.search(r"standings at (http://\S+)", line)
            if match:
                url = match.group(1)
                break
        assert url, "rig league --demo did not start"
        page.goto(url)
        expect(page.locator("#tables tbody tr")).to_have_count(2)
        expect(page.locator("#standings tbody tr").first).to_be_visible()
        expect(page.locator("#playing .game")).to_have_count(2)
        expect(page.locator("#link")).to_have_class(re.compile(r"\bon\b"))
        expect(page.locator("#tables tbody tr").first).to_contain_text("online")
        # the tables' whole logs compared with the league's copy (their digests)
        expect(page.locator("#tables tbody tr td.log.ok")).to_have_count(2)
        expect(page.locator("#tables tbody tr td.log").first).to_contain_text("same")
        page.screenshot(path=str(artifacts / "league-page.png"))
        page.goto(url + "?lang=de")  # in German (issue 27)
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator("#standings thead")).to_contain_text("Spieler")
        expect(page.locator("#summary")).to_contain_text("2 Tische")
        expect(page.locator("#playing .game").first).to_contain_text("Partie")
        page.screenshot(path=str(artifacts / "league-page-de.png"))
        assert page.js_errors == []
    finally:
        demo.send_signal(signal.SIGINT)
        demo.wait(timeout=WAIT_S)
        demo.stdout.close()


def test_the_scoreboard_shows_the_league_link_and_its_loss(page, artifacts, tmp_path, broker_for_browser):
    broker = broker_for_browser
    config = tmp_path / "rig.toml"
    config.write_text(f'[league]\ntable = "table-9"\nport = {broker.port}\n'
                      f'password = "{broker.passwords["table-9"]}"\n')
    server = RigServer(tmp_path / "data")
    server.args += ["--config", str(config)]
    server.start()
    try:
        page.goto(server.url)
        badge = page.locator("#league-link")
        expect(badge).to_have_text("League ✓")
        page.screenshot(path=str(artifacts / "scoreboard-league-ok.png"))
        broker.stop()
        server.post("/api/sim/press", {"player": "Ada"})  # the game goes on
        expect(badge).to_have_attribute("data-state", "away")
        expect(badge).to_contain_text("League offline")
        page.screenshot(path=str(artifacts / "scoreboard-league-away.png"))
        assert page.js_errors == []
    finally:
        server.stop()


def test_without_league_the_scoreboard_has_no_badge(page, rig_server):
    page.goto(rig_server.url)
    expect(page.locator("#live")).to_have_class("live on")  # whatever game an earlier test left
    expect(page.locator("body")).to_have_attribute("data-league", "none")  # /api/rig answered: no league
    expect(page.locator("#league-link")).to_have_count(0)

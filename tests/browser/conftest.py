"""Browser tests: Debian's chromium driven by Playwright against ``rig run --sim`` in a subprocess.

The server runs on a free port with a fresh data directory and is always shut down afterwards.
Screenshots go to ``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from tests.waiting import WAIT_S, wait_until

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


# package scope: the browser (and Playwright's event loop on the main thread) closes once the browser
# tests are done, so a test using asyncio.run() may follow them in the same process (pytest-xdist)
@pytest.fixture(scope="package")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing: `make browser` (or apt-get install chromium) installs it")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: pip install -e '.[test]'")
    # every wait is on a state of the page; its bound only decides when a test gives up (a loaded
    # machine is slow, never failed): one generous bound for every expect() and locator action
    sync_api.expect.set_options(timeout=WAIT_S * 1000)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class RigServer:
    """``rig run --sim`` in a subprocess on a free port."""

    def __init__(self, data_dir: Path, seed: int = 7, listen: str | None = None) -> None:
        self.data_dir = data_dir
        self.args = [sys.executable, "-m", "rig", "run", "--sim", "--port", "0", "--data-dir", str(data_dir),
                     "--seed", str(seed), *(["--listen", listen] if listen else [])]
        self.pin: str | None = None
        self.proc: subprocess.Popen | None = None
        self.url = ""
        self.output: list[str] = []

    def start(self, timeout: float = WAIT_S) -> RigServer:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env.pop("RIG_CONFIG", None)
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.output.append(line)
            match = re.search(r"scoreboard at (http://\S+)", line)
            if match:
                self.url = match.group(1)
            pin = re.search(r"PIN for changes from other devices: (\d+)", line)
            if pin:
                self.pin = pin.group(1)
            if self.url and (self.pin or "--listen" not in self.args):
                break
        if not self.url:
            self.stop()
            raise RuntimeError("rig run did not start:\n" + "".join(self.output))
        self._drain = threading.Thread(target=lambda: self.output.extend(self.proc.stdout), daemon=True)
        self._drain.start()  # keep reading its output, so a chatty log never blocks the server
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "api/health", timeout=2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("rig run did not answer")

    def state(self) -> dict:
        with urllib.request.urlopen(self.url + "api/state", timeout=WAIT_S) as response:
            return json.load(response)

    def rig(self) -> dict:
        """``GET /api/rig``: mode, camera (with its frame count), notices."""
        with urllib.request.urlopen(self.url + "api/rig", timeout=WAIT_S) as response:
            return json.load(response)

    def frames(self) -> int:
        return self.rig()["camera"]["frames"]

    def wait_frames(self, more: int) -> None:
        """Wait until the camera reader has taken ``more`` further frames: everything lying under the
        camera now has been looked at (a state to wait on, not a time)."""
        start = self.frames()
        wait_until(lambda: self.frames() >= start + more, f"{more} more camera frames after {start}")

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.url + path.lstrip("/"), data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=WAIT_S) as response:
                return json.load(response)
        except urllib.error.HTTPError as exc:  # say what the rig answered, not only its status
            answer = exc.read().decode(errors="replace")
            raise urllib.error.HTTPError(exc.url, exc.code, f"{exc.msg}: POST {path} {body} -> {answer}",
                                         exc.hdrs, None) from None

    def new_game(self, players=("Ada", "Ben", "Cleo", "Dev", "Eli")) -> dict:
        return self.post("/api/games", {"players": list(players)})

    def stop(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        drain = getattr(self, "_drain", None)
        if drain is not None:
            drain.join(5)
        elif self.proc.stdout:
            self.output.append(self.proc.stdout.read())
        return self.proc.returncode


@pytest.fixture(scope="package")
def rig_server(browser, tmp_path_factory):
    """One ``rig run --sim`` for the tests that start their own game on it."""
    server = RigServer(tmp_path_factory.mktemp("rig") / "data").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(WAIT_S * 1000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    yield page
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def start_rig(browser, tmp_path):
    """Start more rigs (``start_rig(listen=...)``); each is stopped after the test."""
    servers: list[RigServer] = []

    def start(**options) -> RigServer:
        server = RigServer(tmp_path / f"data{len(servers)}", **options)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


def settled(page) -> None:
    """Wait until the page's fonts are loaded and two frames have been laid out (before a screenshot or
    a measurement): an event of the page, not a time."""
    page.evaluate("document.fonts.ready.then(() => new Promise((done) =>"
                  " requestAnimationFrame(() => requestAnimationFrame(done))))")


def press_keys(page, server, keys) -> None:
    """Press each key on the page and wait until the page has drawn the state it brought."""
    version = server.state()["version"]
    for key in keys:
        page.keyboard.press(key)
        page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
        version = int(page.evaluate("document.body.dataset.version"))

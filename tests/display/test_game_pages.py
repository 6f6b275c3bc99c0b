"""Each game's page renderer comes from its own package (issue 17): ``GET /games/<name>/page.js`` and
``page.css``, announced in the registry's list; the page shell names no game. The minimal example
game of ``docs/games-new.md`` (``docs/examples/highroll``) ships a page script and no style sheet."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

from rig import registry
from rig.display.app import create_app
from rig.engine import EngineService

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "highroll"
SHIPPED = ("frogs", "blitz", "lego", "banana")


@pytest.fixture
def web():
    service = EngineService.in_memory()
    try:
        yield TestClient(create_app(service, pin="424242"), client=("127.0.0.1", 40000), base_url="http://127.0.0.1")
    finally:
        service.close()


@pytest.fixture
def highroll(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))
    sys.modules.pop("highroll", None)
    import highroll

    yield registry.register(highroll.HighRoll)
    sys.modules.pop("highroll", None)
    registry.reload()  # forget the example again


def test_the_example_games_page_script_is_served_and_announced(web, highroll):
    kinds = {g["name"]: g for g in web.get("/api/games/kinds").json()["games"]}
    assert kinds["highroll"]["page"] == {"script": "/games/highroll/page.js", "style": None}
    script = web.get("/games/highroll/page.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert script.text == (EXAMPLE / "page.js").read_text(encoding="utf-8")
    assert 'rigGames.register("highroll"' in script.text
    assert web.get("/api/display").json()["games"] == list(kinds.values())
    # it ships no style sheet: the page has nothing to load
    missing = web.get("/games/highroll/page.css")
    assert missing.status_code == 404 and "no page style" in missing.json()["error"]


def test_every_shipped_game_brings_its_own_renderer(web):
    kinds = {g["name"]: g for g in web.get("/api/games/kinds").json()["games"]}
    for name in SHIPPED:
        assert kinds[name]["page"] == {"script": f"/games/{name}/page.js", "style": f"/games/{name}/page.css"}
        script, style = web.get(f"/games/{name}/page.js"), web.get(f"/games/{name}/page.css")
        assert f'rigGames.register("{name}"' in script.text, name
        assert style.status_code == 200 and style.headers["content-type"].startswith("text/css"), name
    assert kinds["frogs"]["rolls_in_parts"] is True and kinds["blitz"]["rolls_in_parts"] is False


@pytest.mark.parametrize("path", [
    "/games/chess/page.js",            # no such game
    "/games/frogs/page.html",          # not a page asset
    "/games/frogs/__init__.py",
    "/games/%2e%2e/page.js",           # no way out of the registry
    "/games/..%2F..%2Fdisplay/page.js",
    "/games/frogs/..%2F..%2F..%2Fpyproject.toml",
])
def test_an_unknown_game_or_asset_is_404(web, path):
    answer = web.get(path)
    assert answer.status_code == 404, path
    assert "[project]" not in answer.text and "import" not in answer.text


def test_a_page_asset_name_cannot_leave_the_games_folder(web):
    class Sneaky(registry.Game):
        name = "sneaky"
        title = description = "sneaky"
        page_script = "../registry.py"
        page_style = "/etc/passwd"

    registry.register(Sneaky)
    try:
        assert web.get("/games/sneaky/page.js").status_code == 404
        assert web.get("/games/sneaky/page.css").status_code == 404
        sneaky = [g for g in web.get("/api/games/kinds").json()["games"] if g["name"] == "sneaky"][0]
        assert sneaky["page"] == {"script": None, "style": None}  # the page draws it with its generic renderer
    finally:
        registry.reload()


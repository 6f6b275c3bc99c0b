"""The page draws each game with the renderer its package ships (``rig/games/<name>/page.js``), and a
game without one with the generic renderer: the players, the scores and the turn (issue 17)."""

from __future__ import annotations

import json

import pytest

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser



def without_page(game):
    """A route handler: ``GET /api/display`` as if ``game`` shipped no page script or style."""

    def handle(route):
        response = route.fetch()
        body = response.json()
        for entry in body["games"]:
            if entry["name"] == game:
                entry["page"] = {"script": None, "style": None}
        route.fulfill(response=response, body=json.dumps(body))

    return handle


def test_each_game_page_script_is_loaded_from_its_package(page, rig_server):
    loaded = []
    page.on("request", lambda request: loaded.append(request.url.split("/", 3)[-1]))
    page.goto(rig_server.url)
    expect(page.locator("#live")).to_have_class("live on")
    for name in ("frogs", "blitz", "lego", "banana"):
        assert f"games/{name}/page.js" in loaded and f"games/{name}/page.css" in loaded
    assert page.js_errors == []


def test_a_game_without_a_page_script_is_drawn_by_the_generic_renderer(page, start_rig):
    rig_server = start_rig()  # its own rig: the shared one's virtual table keeps its sequence of throws
    rig_server.post("/api/games", {"game": "lego", "players": ["Ada", "Ben"]})
    page.route("**/api/display", without_page("lego"))
    page.goto(rig_server.url)
    expect(page.locator("#live")).to_have_class("live on")
    expect(page.locator("body")).to_have_attribute("data-game", "lego")
    expect(page.locator("#game-board")).to_be_visible()
    expect(page.locator("#generic-totals tr")).to_have_count(2)
    expect(page.locator("#generic-totals tr.roller td.name")).to_have_text("Ada")
    expect(page.locator("#turn-banner")).to_have_text("Ada's turn")
    expect(page.locator("#generic-turn")).to_contain_text("Ada: waiting")
    expect(page.locator("#lego-action")).to_have_count(0)  # lego's own renderer was not loaded
    page.locator('#sim [data-roll="1"]').click()  # the virtual table throws the LEGO die
    expect(page.locator("#generic-turn")).to_contain_text("Ada: action")
    assert page.js_errors == []

"""A rules module's refusal on the page in German (issue 27): the new-game form of a page opened in German
shows why the game was refused in German (the API says it in the page's language: rig/display/speak.py),
and an English page of the same rig in English."""

from __future__ import annotations

import pytest

from tests.waiting import WAIT_S

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser


def refused_on_the_form(browser, server, path, locale):
    context = browser.new_context(viewport={"width": 800, "height": 480}, locale=locale)
    context.set_default_timeout(WAIT_S * 1000)
    try:
        page = context.new_page()
        page.js_errors = []
        page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
        page.goto(server.url + path)
        expect(page.locator("#live")).to_have_class("live on")
        page.keyboard.press("n")
        page.locator("#new-game").select_option("frogs")
        page.locator("#new-players").fill("Jürgen\nWeiß")
        page.locator("#new-start").click()
        expect(page.locator("#new-error")).not_to_be_empty()
        assert page.js_errors == []
        return page.locator("#new-error").text_content(), page.locator("html").get_attribute("lang")
    finally:
        context.close()


def test_a_rules_refusal_on_the_page_in_german(browser, start_rig):
    server = start_rig()
    before = server.state()["game"]  # the simulation's own game: the refused one changes nothing
    said, lang = refused_on_the_form(browser, server, "?lang=de", "de-DE")
    assert lang == "de" and said == "Lunar Laser Frogs braucht 3 bis 8 Spieler, nicht 2"
    said, lang = refused_on_the_form(browser, server, "", "en-GB")  # the kiosk: the config's English
    assert lang == "en" and said == "Lunar Laser Frogs needs 3 to 8 players, not 2"
    assert server.state()["game"] == before

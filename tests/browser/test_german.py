"""Each game's page in German (issue 27) on the 7" display (800x480), a TV (1920x1080) and a phone
(390x844): German words are longer, and no text may be cut off (``audit.CLIPPED``); players with
umlauts and ß; the kiosk follows the config's ``[display] language``; a viewer's switch is kept.
Screenshots in tests/artifacts/de-<game>-<screen>.png."""

from __future__ import annotations

import pytest

from tests.browser import audit
from tests.browser.conftest import press_keys, settled
from tests.browser.test_screens import Clock, post
from tests.waiting import WAIT_S

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser

SCREENS = {"7in": (800, 480), "tv": (1920, 1080), "phone": (390, 844)}
NAMES = ["Jürgen", "Ößwald", "Weiß", "Änne", "Günther"]
DICE = ["pink", "pink+blue", "yellow+pink", "yellow", "blank", "blank"]


def frogs_turn(server, clock) -> None:
    """A turn of five players with umlauts up to its review: every toss scored, the copy chosen."""
    server.post("/api/sim/card", {"card": None})  # no card of an earlier test under the camera
    server.post("/api/games", {"game": "frogs", "players": NAMES})
    post(server, clock, type="turn_started", player=NAMES[0])
    for dice in (DICE[:2], DICE[:4], DICE):
        post(server, clock, type="roll_settled", dice=dice)
    for k, player in enumerate(NAMES[1:]):
        server.post("/api/events", {"type": "toss", "player": player, "source": "test", "t_us": clock(2700 + 900 * k)})
    post(server, clock, type="copy_chosen", player=NAMES[1])
    for card in ("blue", "pink", "gray", "blank"):
        post(server, clock, type="card_revealed", card=card)
    assert server.state()["turn"]["phase"] == "review", server.state()["turn"]["problem"]


ROUNDS = {  # each game: its players, the keys of a round, the phase it ends in
    "blitz": (NAMES[:3], ["r", "2"], "judge"),
    "lego": (NAMES[:2], ["r"], "action"),
    "banana": (NAMES[:2], ["r"], None),
}


def open_german(browser, server, screen):
    width, height = SCREENS[screen]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
    context.set_default_timeout(WAIT_S * 1000)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    page.goto(server.url + "?lang=de")
    expect(page.locator("#live")).to_have_class("live on")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    return context, page


def nothing_clipped(page, screen, game):
    clipped = audit.clipped(page)
    assert clipped == [], f"{game} on {screen}: texts cut off: {clipped[:8]}"


@pytest.mark.parametrize("game", ["frogs", *ROUNDS])
def test_each_game_in_german_on_each_screen(browser, start_rig, artifacts, game):
    server = start_rig()
    clock = Clock(1_000_000)
    for screen in SCREENS:
        if game == "frogs":
            frogs_turn(server, clock)
        else:
            server.post("/api/games", {"game": game, "players": ROUNDS[game][0]})
        context, page = open_german(browser, server, screen)
        try:
            expect(page.locator("body")).to_have_attribute("data-game", game)
            if game == "frogs":
                expect(page.locator("body")).to_have_attribute("data-phase", "review")
                expect(page.locator("#btn-finish")).to_have_text("Zug beenden ✓")
                expect(page.locator("#tosses .toss .card").first).to_have_text("blau")
                expect(page.locator("#turn-banner")).to_have_text("Jürgen am Zug")
                expect(page.locator("#tosses .margin").first).to_contain_text(",")  # "2,7 ms": the German decimal comma
                # what the rules core says, in German by the catalogue's patterns
                expect(page.locator("#tosses .toss .points").first).to_have_attribute("title", "erste Karte blau: 1 Würfel blau")
            else:
                players, keys, phase = ROUNDS[game]
                expect(page.locator("#turn-banner")).not_to_have_text("")
                press_keys(page, server, keys)
                if phase:
                    expect(page.locator("body")).to_have_attribute("data-phase", phase)
            expect(page.locator("#btn-new")).to_have_text("Neues Spiel")
            settled(page)
            page.screenshot(path=str(artifacts / f"de-{game}-{screen}.png"))
            nothing_clipped(page, screen, game)
            assert page.js_errors == []
        finally:
            context.close()


def test_the_kiosk_follows_the_config_and_a_viewer_switches(browser, start_rig, tmp_path):
    config = tmp_path / "rig.toml"
    config.write_text('[display]\nlanguage = "de"\n', encoding="utf-8")
    server = start_rig()
    server.stop()
    server.args += ["--config", str(config)]
    server.start()
    context = browser.new_context(viewport={"width": 800, "height": 480}, locale="en-GB")
    context.set_default_timeout(WAIT_S * 1000)
    page = context.new_page()
    try:
        page.goto(server.url)  # the rig's own display: the config's language, whatever the browser's
        expect(page.locator("#live")).to_have_class("live on")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator("#btn-history")).to_have_text("Verlauf")
        expect(page.locator("#keys")).to_contain_text("Tasten")
        page.locator("#btn-lang").click()  # the viewer's switch: English, kept on this device
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("#btn-history")).to_have_text("History")
        assert page.evaluate("localStorage.getItem('rig-lang')") == "en"
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        context.clear_cookies()  # the cookie gone: the page asks again in the language kept in localStorage
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("#btn-new")).to_have_text("New game")
    finally:
        context.close()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_calibration_page_in_german(browser, start_rig, artifacts, screen):
    server = start_rig()
    width, height = SCREENS[screen]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
    context.set_default_timeout(WAIT_S * 1000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.url + "calibrate?lang=de")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        page.wait_for_function("document.getElementById('preview').naturalWidth > 0")
        assert "lang=de" in page.locator("#preview").get_attribute("src")  # the dice labelled "blau", not "blue"
        expect(page.locator("#step-now")).to_contain_text("Alle sechs Würfel: blauer Frosch oben")
        expect(page.locator("#ritual-progress")).to_have_text("0 von 5 Schritten aufgenommen")
        page.locator("#steps button.capture[data-step=blue]").click()
        expect(page.locator("#ritual-progress")).to_have_text("1 von 5 Schritten aufgenommen")
        expect(page.locator("#btn-fit")).to_have_text("Profil anpassen")
        settled(page)
        page.screenshot(path=str(artifacts / f"de-calibration-{screen}.png"))
        nothing_clipped(page, screen, "calibration")
        assert errors == []
    finally:
        context.close()


def test_what_the_rig_says_as_it_is_in_german_on_the_7in_display(browser, start_rig, artifacts):
    """A violation's detail and a refusal's reason, English from the core, German on the page by the
    catalogue's patterns, nothing cut off at 800x480."""
    import urllib.error

    server = start_rig()
    clock = Clock(1_000_000)
    frogs_turn(server, clock)
    post(server, clock, type="violation", kind="knocked_die", player=NAMES[0],
         detail="the pink+blue die, top left, moved to bottom right and now shows blue")
    context, page = open_german(browser, server, "7in")
    try:
        expect(page.locator(".notice.violation .detail")).to_have_text(
            " — der Würfel pink+blau, oben links, wurde nach unten rechts bewegt und zeigt jetzt blau")
        with pytest.raises(urllib.error.HTTPError):  # a fifth card: refused
            post(server, clock, type="card_revealed", card="pink")
        expect(page.locator(".notice.refused")).to_contain_text(
            "Abgelehnt: alle 4 Karten sind schon aufgedeckt: stattdessen eine Karte korrigieren")
        # a figure inside such a text in the page's own form: the decimal comma, its decimals kept
        assert page.evaluate("rigI18n.t('The light changed — recalibrate (darker x0.40)')") == (
            "Das Licht hat sich geändert — neu kalibrieren (dunkler ×0,40)")
        settled(page)
        page.screenshot(path=str(artifacts / "de-notices-7in.png"))
        nothing_clipped(page, "7in", "frogs")
        page.locator("#notices-more").click()  # every notice, the violation's detail with it
        expect(page.locator(".notice.violation")).to_be_visible()
        settled(page)
        page.screenshot(path=str(artifacts / "de-notices-open-7in.png"))
        nothing_clipped(page, "7in", "frogs")
        assert page.js_errors == []
    finally:
        context.close()

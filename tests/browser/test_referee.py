"""The referee's views in a real browser against ``rig run --sim``, on the 7" kiosk (800x480) and a TV
(1920x1080): the evidence of a turn (camera frames with the reading, the photo-finish strip, a dead
heat from the tie window), past turns, the dice test, the BG Stats link and QR at game end, the
sound cues and their mute, and the letters that make every colour readable without hue."""

from __future__ import annotations

import pytest
from tests.waiting import WAIT_S

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser

SIZES = {"kiosk": (800, 480), "tv": (1920, 1080)}
DICE = ["pink", "pink", "yellow+pink", "yellow", "blank", "blank"]


@pytest.fixture(params=list(SIZES))
def sized(request, browser):
    width, height = SIZES[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(WAIT_S * 1000)  # waits on the page, bounded generously
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    page.size_name = request.param
    yield page
    context.close()


def open_board(page, server):
    page.goto(server.url)
    expect(page.locator("#live")).to_have_class("live on")
    expect(page.locator("#turn-banner")).to_have_text("Ada's turn")  # the first state is drawn


def toss_close_finish(server, players):
    """The others' tosses at exact edge times: the second 3 µs after the first, the rest ms apart."""
    start = server.state()["turn"]["start_t_us"]
    t = start + 1_000_000
    for player, dt in zip(players, (0, 3, 3_000, 9_000)):
        server.post("/api/events", {"type": "toss", "player": player, "t_us": t + dt})


def scripted_turn(server, cards=("pink", "yellow", "gray")):
    """A whole turn over the API (3 players): start, one roll of six, tosses, copy, cards, score."""
    state = server.state()
    roller = state["turn"]["roller"]
    others = [p for p in state["game"]["players"] if p != roller]
    server.post("/api/events", {"type": "turn_started", "player": roller})
    server.post("/api/events", {"type": "roll_settled", "dice": DICE})
    start = server.state()["turn"]["start_t_us"] or 0
    for k, player in enumerate(others * state["game"]["cards_per_opponent"]):
        server.post("/api/events", {"type": "toss", "player": player, "t_us": start + 100_000 + 2_000 * k})
    server.post("/api/events", {"type": "copy_chosen", "player": others[0]})  # before the reveal (issue 15)
    hands = {p: list(cards) for p in others}
    for toss in [t for t in server.state()["turn"]["tosses"] if t["counting"]]:
        server.post("/api/events", {"type": "card_revealed", "card": hands[toss["player"]].pop(0)})
    server.post("/api/events", {"type": "turn_scored"})


def test_the_evidence_of_a_turn_with_a_dead_heat(sized, start_rig, artifacts):
    page = sized
    server = start_rig()
    server.post("/api/games", {"players": ["Ada", "Ben", "Cleo", "Dev", "Eli"], "options": {"tie_window_us": 40}})
    open_board(page, server)
    page.keyboard.press("1")
    expect(page.locator("body")).to_have_attribute("data-phase", "rolling")
    for expected in (2, 4, 6):
        page.keyboard.press("r")
        expect(page.locator("#dice .die:not(.empty)")).to_have_count(expected)
    toss_close_finish(server, ["Ben", "Cleo", "Dev", "Eli"])
    tosses = page.locator("#tosses .toss")
    expect(tosses.nth(1).locator(".margin")).to_contain_text("dead heat (Δ 3 µs)")
    expect(tosses.nth(2).locator(".margin")).to_have_text("Cleo beat Dev by 3.0 ms")
    expect(page.locator("body")).to_have_attribute("data-phase", "copy")
    page.locator("#copy-pick [data-copy=Ben]").click()  # whom to copy first, the stack face down (issue 15)
    expect(page.locator("body")).to_have_attribute("data-phase", "reveal")
    for k, key in enumerate("bgpy"):
        page.keyboard.press(key)
        expect(tosses.nth(k).locator(".card")).not_to_have_class("card ")
    expect(page.locator("body")).to_have_attribute("data-phase", "review")
    review = page.locator("#referee-review")
    expect(review).to_be_visible()
    page.wait_for_function("document.querySelector('#referee-review').children.length > 0")
    folded = page.locator("#btn-review-show")
    if folded.count():  # no room beside the score for it at a readable size: it opens in the Referee dialog
        folded.click()
        evidence, frames = page.locator("#dlg-referee"), "#dlg-referee .shot img"
    else:
        evidence, frames = review, "#referee-review .shot img"
    expect(evidence.locator(".shot img").first).to_be_visible()
    expect(evidence.locator("svg.photo-finish .pf-gap")).to_contain_text(["", "dead heat (Δ 3 µs)", "+3.0 ms", "+6.0 ms"])
    page.wait_for_function(f"() => {{ const i = document.querySelector('{frames}');"
                           " return i && i.complete && i.naturalWidth === 640; }")
    page.screenshot(path=str(artifacts / f"referee-review-{page.size_name}.png"))
    if folded.count():
        page.locator("#dlg-referee button[value=close]").click()
    cues = page.evaluate("rigSound.log")
    assert "toss" in cues and "deadheat" in cues

    page.keyboard.press("e")  # the Referee dialog: all rolls of this turn, the strip, the facts
    dialog = page.locator("#dlg-referee")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".shot img")).to_have_count(3)
    expect(dialog.locator(".heat-text")).to_contain_text("dead heat (Δ 3 µs): Ben and Cleo within the 40 µs tie window")
    expect(dialog.locator("svg.photo-finish .pf-zoom")).to_have_count(1)  # the closest finish on its own scale
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[page.size_name][0]
    page.screenshot(path=str(artifacts / f"referee-turn-{page.size_name}.png"))

    dialog.locator("[data-tab=dice]").click()
    expect(page.locator("#dice-verdict")).to_contain_text("0 dice over every scored turn: too few rolls to tell")
    dialog.locator("button[value=close]").click()
    page.keyboard.press("h")  # Ada holds: the turn is scored
    expect(page.locator("#turn-banner")).to_have_text("Ben's turn")
    expect(review).to_be_hidden()
    page.wait_for_function("rigSound.log.includes('scored')")

    page.locator("#btn-history").click()  # a past turn from the history: turn 1 is still there with its frames
    page.locator("#btn-history-evidence").click()
    expect(dialog.locator(".ref-turns [data-turn='1']")).to_be_visible()
    dialog.locator(".ref-turns [data-turn='1']").click()
    expect(dialog.locator(".shot img")).to_have_count(3)
    dialog.locator("[data-tab=dice]").click()
    expect(page.locator("#dice-verdict")).to_contain_text("6 dice over every scored turn")
    expect(page.locator(".dice-table tbody tr")).to_have_count(7)
    page.screenshot(path=str(artifacts / f"referee-dice-{page.size_name}.png"))
    assert page.js_errors == []


def test_game_end_offers_bg_stats_and_sound_can_be_muted(sized, start_rig, artifacts):
    page = sized
    server = start_rig()
    server.post("/api/games", {"players": ["Ada", "Ben", "Cleo"], "options": {"turns_each": 1}})
    open_board(page, server)
    page.locator("#btn-sound").click()  # sound off ...
    expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator("#live")).to_have_class("live on")
    expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "false")  # ... remembered
    expect(page.locator("#btn-sound")).to_contain_text("sound off")
    for _ in range(3):
        scripted_turn(server)
    state = server.state()
    assert state["winner"]
    box = page.locator("#referee-export")
    expect(box).to_be_visible()
    link = page.locator("#bgstats-link")
    expect(link).to_have_text("Send to BG Stats")
    assert link.get_attribute("href").startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    qr = box.locator("img.bgstats-qr")
    page.wait_for_function("() => { const i = document.querySelector('#referee-export img.bgstats-qr');"
                           " return i && i.complete && i.naturalWidth > 100; }")
    assert qr.bounding_box()["width"] >= 120  # big enough to scan from a phone
    page.wait_for_function("rigSound.log.includes('winner')")  # the cue is logged even when muted
    page.screenshot(path=str(artifacts / f"referee-bgstats-{page.size_name}.png"))
    page.keyboard.press("e")
    page.locator("#dlg-referee [data-tab=export]").click()
    expect(page.locator("#dlg-referee a[href='/api/export/history.csv']")).to_be_visible()
    assert page.js_errors == []


def test_every_colour_also_carries_a_letter(page, rig_server):
    rig_server.new_game()
    open_board(page, rig_server)
    page.keyboard.press("1")
    page.keyboard.press("r")
    expect(page.locator("#dice .die:not(.empty)")).to_have_count(2)
    letters = page.evaluate("""() => {
        const dot = document.createElement('div');
        dot.innerHTML = '<div class="die" data-face="blue"><span class="frog"></span></div>'
          + '<div class="die" data-face="yellow+pink"><span class="frog"></span></div>'
          + '<button class="card c-pink">pink</button><button class="card c-gray">gray</button>'
          + '<span class="laser" style="background: var(--yellow); color: var(--yellow)"></span>'
          + '<div class="gdie" data-face="red:3"></div>';
        document.body.append(dot);
        const after = (sel) => getComputedStyle(dot.querySelector(sel), '::after').content;
        const image = (sel) => getComputedStyle(dot.querySelector(sel)).backgroundImage.split('(')[0];
        return [after('[data-face=blue] .frog'), after('[data-face="yellow+pink"] .frog'), after('.laser'),
                after('.gdie'), image('.c-pink'), image('.c-gray')];
    }""")
    # letters where there is no text; a pattern (beside the name) on cards
    assert letters == ['"B"', '"YP"', '"Y"', '"R"', "radial-gradient", "repeating-linear-gradient"]
    die = page.locator("#dice .die:not(.empty)").first
    face = die.get_attribute("data-face")
    content = die.locator(".frog").evaluate("f => getComputedStyle(f, '::after').content") if face != "blank" else None
    assert face == "blank" or content.strip('"').replace(" ", "") == "".join(
        {"blue": "B", "pink": "P", "yellow": "Y"}[c] for c in face.split("+"))


# Holds the answers of GET /api/turns until the test lets them through (the page's own fetch helper).
HOLD_TURNS = """
const real = rig.getJSON.bind(rig);
window.heldTurns = [];
window.turnsAnswered = 0;
rig.getJSON = (url, ...rest) => String(url).startsWith("/api/turns")
  ? new Promise((resolve) => window.heldTurns.push(() => resolve(real(url, ...rest).finally(() => { window.turnsAnswered += 1; }))))
  : real(url, ...rest);
true;  // (a script that ends in a function would be called by evaluate)
"""


def test_a_tab_chosen_while_another_loads_stays(page, rig_server):
    """Issue 28 (a flake under load): Export chosen while the Turns tab was still loading; the Turns
    answer came in later and replaced the Export tab. Only the newest render fills the dialog now."""
    rig_server.post("/api/sim/card", {"card": None})
    rig_server.new_game(["Ada", "Ben", "Cleo"])
    scripted_turn(rig_server)
    page.goto(rig_server.url)
    expect(page.locator("#live")).to_have_class("live on")
    page.evaluate(HOLD_TURNS)
    page.keyboard.press("e")  # the dialog opens on Turns, which waits for /api/turns
    page.wait_for_function("window.heldTurns.length === 1")
    page.locator("#dlg-referee [data-tab=export]").click()
    csv = page.locator("#dlg-referee a[href='/api/export/history.csv']")
    expect(csv).to_be_visible()
    page.evaluate("window.heldTurns.splice(0).forEach((answer) => answer())")  # the Turns answer arrives late
    page.wait_for_function("window.turnsAnswered === 1")
    page.evaluate("new Promise((done) => setTimeout(done, 0))")  # whatever the late answer started has run
    expect(csv).to_be_visible()
    expect(page.locator("#dlg-referee .ref-turn")).to_have_count(0)
    assert page.js_errors == []

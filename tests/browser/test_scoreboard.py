"""The scoreboard in a real browser against ``rig run --sim``: a whole turn from the page and its keys,
live updates, a corrected die, a reload mid-turn, a new game, the 7" screen."""

from __future__ import annotations

import pytest
from tests.waiting import WAIT_S

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser


def open_board(page, server):
    page.goto(server.url)
    expect(page.locator("#live")).to_have_class("live on")  # the first state is shown: keys act now
    return page


# Holds every server-sent event until the test lets them through: the stream is open, no state is in.
HOLD_STATES = """
const Real = window.EventSource;
window.held = [];
window.EventSource = function (url) {
  const source = new Real(url);
  const add = source.addEventListener.bind(source);
  source.addEventListener = (type, handler, ...rest) => add(type, (event) => window.held.push(() => handler(event)), ...rest);
  return source;
};
"""


def test_live_means_the_first_state_is_shown_not_only_that_the_stream_opened(page, rig_server):
    """The flake of issue 28: a key pressed after "live" but before the first state did nothing (the page
    had no players to press for). "live" now comes on with the first state shown."""
    rig_server.new_game(["Ada", "Ben", "Cleo"])
    page.add_init_script(HOLD_STATES)
    page.goto(rig_server.url)
    page.wait_for_function("window.held.length > 0")  # the stream is open and a state has arrived, held back
    expect(page.locator("#live")).not_to_have_class("live on")
    page.evaluate("window.held.splice(0).forEach((deliver) => deliver())")
    expect(page.locator("#live")).to_have_class("live on")
    expect(page.locator("#turn-banner")).to_have_text("Ada's turn")


def dice(page):
    return page.locator("#dice .die:not(.empty)")


def test_a_whole_turn_from_the_page(page, rig_server, artifacts):
    rig_server.new_game()
    open_board(page, rig_server)
    expect(page.locator("#turn-banner")).to_have_text("Ada's turn")
    expect(page.locator("#sim")).to_be_visible()
    page.keyboard.press("1")  # Ada's own button starts her turn
    expect(page.locator("body")).to_have_attribute("data-phase", "rolling")
    for expected in (2, 4, 6):
        page.keyboard.press("r")
        expect(dice(page)).to_have_count(expected)
    expect(page.locator("#rolls .pip.done")).to_have_count(3)
    for key, player in zip("3254", ("Cleo", "Ben", "Eli", "Dev")):  # Cleo, Ben, Eli, Dev toss
        page.keyboard.press(key)
        expect(page.locator(f"#sim-press [data-press={player}]")).to_have_class("tossed")
    # the rulebook's order (issue 15): whom to copy first, while the stack is face down
    expect(page.locator("body")).to_have_attribute("data-phase", "copy")
    tosses = page.locator("#tosses .toss")
    expect(tosses).to_have_count(4)
    expect(tosses.locator(".who")).to_have_text(["Cleo", "Ben", "Eli", "Dev"])
    expect(tosses.nth(1).locator(".margin")).to_contain_text("Cleo beat Ben by")
    page.locator("#copy-pick [data-copy=Ben]").click()  # Ada copies Ben, on the screen
    expect(page.locator("body")).to_have_attribute("data-phase", "reveal")
    for k, (key, card) in enumerate([("b", "blue"), ("g", "gray"), ("p", "pink"), ("y", "yellow")]):
        page.keyboard.press(key)  # lay the card under the camera: the card reader reads it
        expect(tosses.nth(k).locator(".card")).to_have_class(f"card c-{card}")
    expect(page.locator("body")).to_have_attribute("data-phase", "review")
    state = rig_server.state()
    score = state["turn"]["score"]
    expect(page.locator("#copy")).to_contain_text("Ada copies Ben")
    points = [f"+{card['points']}" for card in score["cards"]]
    expect(tosses.locator(".points")).to_have_text(points)
    page.screenshot(path=str(artifacts / "scoreboard.png"))
    page.keyboard.press("h")  # Ada holds her button: the turn is scored, Ben's turn begins
    expect(page.locator("#turn-banner")).to_have_text("Ben's turn")
    totals = rig_server.state()["totals"]
    assert totals == score["net"]
    for name, total in totals.items():
        expect(page.locator(f"#totals tr[data-player={name}] td.total")).to_have_text(str(total))
    assert page.js_errors == []


def test_correct_a_die_by_tapping_it(page, rig_server):
    rig_server.new_game()
    open_board(page, rig_server)
    page.keyboard.press("1")
    page.keyboard.press("r")
    expect(dice(page)).to_have_count(2)
    first = dice(page).first
    face = first.get_attribute("data-face")
    new_face = "yellow+pink" if face != "yellow+pink" else "blue"
    first.click()
    page.locator(f"#dlg-die [data-choice='{new_face}']").click()
    expect(first).to_have_attribute("data-face", new_face)
    expect(first).to_have_class("die corrected ")
    assert rig_server.state()["turn"]["dice"][0] == {**rig_server.state()["turn"]["dice"][0], "face": new_face,
                                                      "corrected": True}
    assert page.js_errors == []


def test_a_die_the_camera_did_not_see_is_added_from_the_page(page, rig_server, artifacts):
    """Five dice after the third roll (on a real table: one in a wall's deep shade): the camera books "not all
    six dice after three rolls"; the empty place offers to add the sixth die, and adding it lifts the violation."""
    rig_server.new_game()
    page.set_viewport_size({"width": 800, "height": 480})
    open_board(page, rig_server)
    page.keyboard.press("1")
    for k, n in enumerate((2, 2, 1)):
        rig_server.post("/api/sim/roll", {"dice": n})
        expect(page.locator("#rolls .pip.done")).to_have_count(k + 1)  # settled: the next throw is a new roll
    expect(dice(page)).to_have_count(5)
    expect(page.locator(".notice.violation[data-kind=not_all_dice_after_three]")).to_have_count(1)
    add = page.locator("#dice .die.empty.add")
    expect(add).to_have_count(1)
    page.screenshot(path=str(artifacts / "add-missed-die.png"))
    add.click()
    page.locator("#dlg-die [data-choice='blank']").click()
    expect(dice(page)).to_have_count(6)
    expect(dice(page).last).to_have_attribute("data-face", "blank")
    expect(page.locator(".notice.violation")).to_have_count(0)
    assert rig_server.state()["turn"]["violations"] == []
    assert page.js_errors == []


def test_live_updates_and_a_reload_mid_turn(page, rig_server):
    rig_server.new_game()
    open_board(page, rig_server)
    rig_server.post("/api/sim/press", {"player": "Ada"})  # from another client: the page follows live
    expect(page.locator("body")).to_have_attribute("data-phase", "rolling")
    rig_server.post("/api/sim/press", {"player": "Dev"})
    rig_server.post("/api/sim/roll", {"dice": 3})
    expect(page.locator("#tosses .toss .who")).to_have_text(["Dev"])
    expect(page.locator("#rolls .pip.done")).to_have_count(1)
    faces = [die["face"] for die in rig_server.state()["turn"]["dice"]]
    assert faces  # the dice as read (the reader may flag a die it is unsure of: the page shows what it read)
    expect(dice(page)).to_have_count(len(faces))
    assert [d.get_attribute("data-face") for d in dice(page).all()] == faces
    page.reload()
    expect(page.locator("#live")).to_have_class("live on")
    expect(page.locator("#tosses .toss .who")).to_have_text(["Dev"])
    expect(dice(page)).to_have_count(len(faces))
    assert [d.get_attribute("data-face") for d in dice(page).all()] == faces
    expect(page.locator("#rolls .pip.done")).to_have_count(1)
    page.keyboard.press("c")  # unplug the (virtual) camera: the display says so, the game stays
    expect(page.locator(".notice[data-key=camera]")).to_contain_text("Camera lost")
    page.keyboard.press("c")
    expect(page.locator(".notice[data-key=camera]")).to_have_count(0)
    expect(page.locator("#tosses .toss .who")).to_have_text(["Dev"])
    assert page.js_errors == []


def start_on_the_form(page):
    """Press Start; when a game is under way the form asks first (issue 15): confirm it."""
    page.locator("#new-start").click()
    page.wait_for_function("!document.getElementById('dlg-new').open || !document.getElementById('new-confirm').hidden")  # started, or asks
    if page.locator("#new-confirm").is_visible():
        page.locator("#new-start").click()


def test_new_game_and_history_from_the_page(page, rig_server):
    open_board(page, rig_server)
    page.keyboard.press("n")
    page.locator("#new-players").fill("Xia\nYan\nZoe")
    start_on_the_form(page)
    expect(page.locator("#turn-banner")).to_have_text("Xia's turn")
    expect(page.locator("#totals tr")).to_have_count(3)
    expect(page.locator("#round")).to_have_text("Round 1 of 3")
    page.locator("#btn-history").click()
    expect(page.locator("#history .hist-game").first).to_be_visible()
    assert page.locator("#history .hist-game").count() >= 2
    page.keyboard.press("Escape")
    page.keyboard.press("n")
    page.locator("#new-players").fill("Solo\nDuo")
    page.locator("#new-start").click()
    expect(page.locator("#new-error")).not_to_be_empty()  # two players: refused, with the reason
    assert page.js_errors == []


def test_the_seven_inch_screen(browser, rig_server, artifacts):
    rig_server.new_game()
    context = browser.new_context(viewport={"width": 800, "height": 480})
    context.set_default_timeout(WAIT_S * 1000)  # waits on the page, bounded generously
    try:
        page = context.new_page()
        open_board(page, rig_server)
        page.keyboard.press("1")
        page.keyboard.press("r")
        expect(dice(page)).to_have_count(2)
        page.keyboard.press("2")
        expect(page.locator("#tosses .toss")).to_have_count(1)
        for selector in ("#turn-banner", "#dice", "#totals", "#sim"):
            box = page.locator(selector).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 800 + 1, selector
        page.screenshot(path=str(artifacts / "scoreboard-7in.png"))
    finally:
        context.close()


def play_turn_by_api(server, t_us: int) -> int:
    """One whole turn as engine events (what the inputs and the camera would send)."""
    state = server.state()
    roller, players = state["turn"]["roller"], state["game"]["players"]
    others = [p for p in players if p != roller]
    events = [{"type": "turn_started", "player": roller},
              {"type": "roll_settled", "dice": ["blue", "pink", "yellow", "blank", "blank", "pink+blue"]}]
    hands = [["blue", "gray"], ["yellow", "pink"]]
    tosses = [(other, hands[k][j]) for j in range(2) for k, other in enumerate(others)]
    events += [{"type": "toss", "player": player} for player, _ in tosses]
    events += [{"type": "copy_chosen", "player": others[0]}]  # before the reveal (issue 15)
    events += [{"type": "card_revealed", "card": card} for _, card in tosses]
    events += [{"type": "turn_scored"}]
    for event in events:
        t_us += 1000
        server.post("/api/events", {**event, "t_us": t_us, "source": "test"})
    return t_us


def play_to_the_end(server, t_us: int) -> dict:
    """Whole turns by API until the game is over (at most 12); the final state."""
    for _ in range(12):
        if server.state()["outcome"]:
            break
        t_us = play_turn_by_api(server, t_us)
    return server.state()


def test_game_end_shows_the_winner(page, rig_server, artifacts):
    rig_server.post("/api/games", {"players": ["Ada", "Ben", "Cleo"], "options": {"turns_each": 1}})
    open_board(page, rig_server)
    state = play_to_the_end(rig_server, 10**12)
    assert state["winner"]
    winner = page.locator("#winner")
    expect(winner).to_be_visible()
    expect(winner).to_contain_text(f"{state['winner']} wins!")
    expect(page.locator("#turn-banner")).to_have_text(f"{state['winner']} wins!")
    for name, total in state["totals"].items():
        expect(page.locator(f"#totals tr[data-player={name}] td.total")).to_have_text(str(total))
    page.screenshot(path=str(artifacts / "scoreboard-winner.png"))
    winner.get_by_role("button", name="New game").click()
    expect(page.locator("#dlg-new")).to_be_visible()
    assert page.js_errors == []


def test_fix_cards_and_tosses_by_tapping_them(page, rig_server):
    rig_server.post("/api/games", {"players": ["Ada", "Ben", "Cleo", "Dev"]})
    t_us = 2 * 10**12
    for event in [{"type": "turn_started", "player": "Ada"},
                  {"type": "roll_settled", "dice": ["blue", "pink", "yellow", "blank", "blank", "pink+blue"]},
                  {"type": "toss", "player": "Ben"}, {"type": "toss", "player": "Cleo"},
                  {"type": "toss", "player": "Dev"}, {"type": "copy_chosen", "player": "Ben"},
                  {"type": "card_revealed", "card": "blue"}]:
        t_us += 1500
        rig_server.post("/api/events", {**event, "t_us": t_us, "source": "test"})
    open_board(page, rig_server)
    tosses = page.locator("#tosses .toss")
    expect(tosses).to_have_count(3)
    expect(tosses.nth(2).locator(".margin")).to_have_text("Cleo beat Dev by 1.5 ms")
    tosses.nth(0).locator(".card").click()  # a card read wrong: fix it
    page.locator("#dlg-card [data-choice=pink]").click()
    expect(tosses.nth(0).locator(".card")).to_have_class("card c-pink")
    expect(tosses.nth(0).locator(".card")).to_have_text("pink ✎")
    tosses.nth(1).locator(".card").click()  # the next card, entered by hand
    page.locator("#dlg-card [data-choice=gray]").click()
    expect(tosses.nth(1).locator(".card")).to_have_class("card c-gray")
    assert rig_server.state()["turn"]["cards_revealed"] == 2
    tosses.nth(2).locator(".who").click()  # a press that was no toss
    page.locator("#dlg-card [data-choice='(no toss)']").click()
    expect(tosses.nth(2)).to_have_class("toss void ")
    expect(tosses.nth(2).locator(".why")).to_have_text("struck out by a correction")
    page.locator("#btn-undo").click()
    expect(tosses.nth(2)).to_have_class("toss  ")
    assert [t["counting"] for t in rig_server.state()["turn"]["tosses"]] == [True, True, True]
    assert page.js_errors == []

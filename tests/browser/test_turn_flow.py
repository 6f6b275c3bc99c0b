"""The game's true order of play on the page (issue 15): whom to copy before any card is read, each
correction (a swap of two tosses with their cards), New game asking before it abandons a game,
History's one numbering, notices that clear at the next turn, "Tie!", the other games on a phone."""

from __future__ import annotations

import itertools

import pytest
from tests.waiting import WAIT_S

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser

DICE = ["pink", "pink+blue", "yellow+pink", "yellow", "blank", "blank"]
_clock = itertools.count(5 * 10**13, 1000)


def send(server, **event):
    return server.post("/api/events", {**event, "t_us": next(_clock), "source": "test"})


def open_board(page, server):
    page.goto(server.url)
    expect(page.locator("#live")).to_have_class("live on")
    return page


def tossed(server, players=("Ada", "Ben", "Cleo", "Dev")):
    """A new game; Ada rolled three times, the others tossed in seat order."""
    server.post("/api/sim/card", {"card": None})  # no card of an earlier test left under the camera
    server.post("/api/games", {"players": list(players)})
    send(server, type="turn_started", player=players[0])
    for n in (2, 4, 6):
        send(server, type="roll_settled", dice=DICE[:n])
    for player in players[1:]:
        send(server, type="toss", player=player)


def test_the_copy_choice_is_required_before_the_first_card_is_read(page, rig_server, artifacts):
    rig_server.new_game(["Ada", "Ben", "Cleo", "Dev"])
    open_board(page, rig_server)
    page.keyboard.press("1")
    expect(page.locator("body")).to_have_attribute("data-phase", "rolling")
    for expected in (2, 4, 6):
        page.keyboard.press("r")
        expect(page.locator("#dice .die:not(.empty)")).to_have_count(expected)
    for key, player in zip("234", ("Ben", "Cleo", "Dev")):
        page.keyboard.press(key)
        expect(page.locator(f"#sim-press [data-press={player}]")).to_have_class("tossed")  # logged: the next
    expect(page.locator("body")).to_have_attribute("data-phase", "copy")
    expect(page.locator("#phase")).to_have_text("Ada: whom to copy?")
    expect(page.locator("#copy-prompt")).to_contain_text("The cards stay face down until you choose")
    with page.expect_response("**/api/sim/card"):
        page.keyboard.press("b")  # a card turned over too early: the camera does not read it
    rig_server.wait_frames(10)  # the camera has looked at it many times over
    assert rig_server.state()["turn"]["cards_revealed"] == 0
    expect(page.locator("#tosses .toss").first.locator(".card")).to_have_class("card ")
    # a card entered by hand is refused too, with the reason
    assert page.evaluate("rig.post('/api/events', {type: 'card_revealed', card: 'blue'}).then(r => r.status)") == 409
    expect(page.locator(".notice.refused")).to_contain_text("a card reveal before the copy choice")
    page.screenshot(path=str(artifacts / "flow-copy-first.png"))
    page.locator("#copy-pick [data-copy=Cleo]").click()
    # now the reveal: the card already lying there is read
    expect(page.locator("#tosses .toss").first.locator(".card")).to_have_class("card c-blue")
    expect(page.locator("#copy")).to_contain_text("Ada copies Cleo")
    expect(page.locator("#copy-pick [data-copy]")).to_have_count(0)  # the choice stands now
    assert page.js_errors == []


def test_swap_two_tosses_with_their_cards_at_the_reveal(page, rig_server, artifacts):
    tossed(rig_server)
    send(rig_server, type="copy_chosen", player="Ben")
    for card in ("blue", "pink", "gray"):
        send(rig_server, type="card_revealed", card=card)
    open_board(page, rig_server)
    tosses = page.locator("#tosses .toss")
    expect(tosses.locator(".who")).to_have_text(["Ben", "Cleo", "Dev"])
    expect(tosses.nth(0).locator(".reason")).to_have_text("first blue: 1 blue die")  # not "1 blue dice"
    tosses.nth(0).locator(".who").click()
    swap = page.locator("#dlg-card [data-choice='swap:1']")
    expect(swap).to_have_text("⇅ swap with 2. Cleo (pink)")
    swap.click()
    expect(tosses.locator(".who")).to_have_text(["Cleo ⇅", "Ben ⇅", "Dev"])
    expect(tosses.nth(0).locator(".card")).to_have_class("card c-pink")  # each card went with its toss
    expect(tosses.nth(1).locator(".card")).to_have_class("card c-blue")
    turn = rig_server.state()["turn"]
    assert [(t["player"], t["card"]) for t in turn["tosses"]] == [("Cleo", "pink"), ("Ben", "blue"), ("Dev", "gray")]
    assert turn["phase"] == "review" and turn["score"]["points"]["Ben"] == turn["tosses"][1]["points"]
    page.screenshot(path=str(artifacts / "flow-swap.png"))
    page.locator("#btn-undo").click()
    expect(tosses.locator(".who")).to_have_text(["Ben", "Cleo", "Dev"])
    assert page.js_errors == []


def test_notices_clear_at_the_next_turn_and_violations_name_the_die(page, rig_server):
    tossed(rig_server)
    send(rig_server, type="violation", kind="knocked_die", player="Ada",
         detail="the pink+blue die, top left, moved and now shows yellow")
    open_board(page, rig_server)
    violation = page.locator(".notice.violation")
    expect(violation).to_contain_text("Rule broken by Ada: a settled die was moved")
    expect(violation).to_contain_text("the pink+blue die, top left")
    expect(violation.locator(".mini-die")).to_have_count(1)  # the die drawn beside the words
    assert "(" not in violation.text_content()  # no pixel coordinates
    page.evaluate("rig.post('/api/events', {type: 'turn_started', player: 'Ada'})")  # refused: under way
    expect(page.locator(".notice.refused")).to_contain_text("already under way")
    send(rig_server, type="copy_chosen", player="Ben")
    for card in ("blue", "pink", "gray"):
        send(rig_server, type="card_revealed", card=card)
    send(rig_server, type="turn_scored")
    expect(page.locator("#turn-banner")).to_have_text("Ben's turn")
    expect(page.locator(".notice.refused")).to_have_count(0)  # the last turn's refusal is gone
    expect(page.locator(".notice.violation")).to_have_count(0)
    assert page.js_errors == []


def test_new_game_asks_before_abandoning_and_history_keeps_it(page, rig_server, artifacts):
    tossed(rig_server, ("Ada", "Ben", "Cleo"))
    open_board(page, rig_server)
    before = rig_server.state()["game"]["id"]
    page.locator("#btn-new").click()
    page.locator("#new-players").fill("Kai\nLeo\nMia\nNed")
    page.locator("#new-start").click()
    confirm = page.locator("#new-confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("Lunar Laser Frogs with Ada, Ben, Cleo is under way (0 turns played)")
    expect(confirm).to_contain_text("it stays in History as abandoned")
    expect(page.locator("#new-start")).to_have_text("Abandon it and start")
    assert rig_server.state()["game"]["id"] == before  # nothing happened yet
    page.locator("#dlg-new button[value=cancel]").click()
    assert rig_server.state()["game"]["id"] == before
    page.locator("#btn-new").click()
    expect(page.locator("#new-confirm")).to_be_hidden()  # asked again next time
    page.locator("#new-players").fill("Kai\nLeo\nMia\nNed")
    page.locator("#new-start").click()
    page.locator("#new-start").click()
    expect(page.locator("#turn-banner")).to_have_text("Kai's turn")
    page.locator("#btn-history").click()
    games = page.locator("#history .hist-game")
    expect(games.first).to_be_visible()
    count = games.count()
    numbers = [int(games.nth(k).get_attribute("data-number")) for k in range(count)]
    assert numbers == list(range(count, 0, -1))  # one numbering: 1 = the first game
    expect(games.first).to_contain_text(f"Game {count} · Lunar Laser Frogs — in progress")
    expect(games.nth(1)).to_contain_text(f"Game {count - 1} · Lunar Laser Frogs — abandoned")
    tables = page.locator("#history table.hist-players")
    assert tables.count() >= 1 and tables.first.get_attribute("data-game") == "frogs"
    page.screenshot(path=str(artifacts / "flow-history.png"))
    assert page.js_errors == []


def test_a_tie_for_the_lead_says_tie(page, rig_server):
    rig_server.post("/api/games", {"players": ["Ada", "Ben", "Cleo"], "options": {"turns_each": 1}})
    for _ in range(3):  # every turn scores nothing: all dice blank, every colour lasered
        state = rig_server.state()
        roller = state["turn"]["roller"]
        players = state["game"]["players"]
        seat = players.index(roller)
        x, y = players[(seat + 1) % 3], players[(seat + 2) % 3]
        send(rig_server, type="turn_started", player=roller)
        for n in (2, 4, 6):
            send(rig_server, type="roll_settled", dice=["blank"] * n)
        for player in (x, y, x, y):
            send(rig_server, type="toss", player=player)
        send(rig_server, type="copy_chosen", player=x)
        for card in ("gray", "blank", "blank", "gray"):
            send(rig_server, type="card_revealed", card=card)
        send(rig_server, type="turn_scored")
    state = rig_server.state()
    assert state["game"]["extra_rounds"] == 1 and state["game"]["status"] == "playing"
    open_board(page, rig_server)
    expect(page.locator("#round")).to_have_text("Tie! Tie-break round")
    expect(page.locator("#round")).to_have_class("round tie")
    assert page.js_errors == []


@pytest.mark.parametrize("game", ["lego", "banana"])
def test_the_other_games_on_a_phone_are_one_column(browser, rig_server, artifacts, game):
    rig_server.post("/api/games", {"game": game, "players": ["Ada", "Ben"]})
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(WAIT_S * 1000)  # waits on the page, bounded generously
    try:
        page = context.new_page()
        open_board(page, rig_server)
        expect(page.locator("body")).to_have_attribute("data-game", game)
        main, side = page.locator("#gb-main").bounding_box(), page.locator("#gb-side").bounding_box()
        # stacked, the scores first (issue 26: as the frogs' board on a phone)
        assert abs(main["x"] - side["x"]) < 1 and main["y"] >= side["y"] + side["height"] - 1
        assert main["x"] + main["width"] <= 390 + 0.5
        banner = page.locator("#turn-banner")
        assert banner.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
        page.screenshot(path=str(artifacts / f"phone-{game}.png"), full_page=True)
    finally:
        context.close()

"""The README's keyboard walk-through, played as written (issue 28: its card keys once named five cards
for a four-toss turn, and the fifth did nothing). Every key must act: a card key lays a card that is
read, a roll key brings a roll, every other key changes the game; at the end the turn is scored."""

from __future__ import annotations

import re

import pytest

from tests.docs_commands import ROOT
from tests.waiting import wait_until

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser

CARD_KEYS = {"b": "blue", "p": "pink", "y": "yellow", "k": "blank", "g": "gray"}


def walkthrough_keys() -> list[str]:
    """The single-key code spans of the README paragraph that plays a turn, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("Play a turn")
    paragraph = text[start:text.index("\n\n", start)]
    keys = re.findall(r"`(.)`", paragraph)
    return keys[: keys.index("?")] if "?" in keys else keys


def test_the_readme_names_a_whole_turn():
    keys = walkthrough_keys()
    assert keys[0] == "1" and keys[-1] == "h" and keys.count("r") == 3
    tosses = [k for k in keys if k in "2345678"]
    cards = [k for k in keys if k in CARD_KEYS]
    assert len(cards) == len(tosses), f"{len(tosses)} tosses but {len(cards)} card keys: {keys}"


def test_the_readme_walkthrough_plays_a_turn(page, rig_server, artifacts):
    rig_server.post("/api/sim/card", {"card": None})  # no card of an earlier test under the camera
    state = rig_server.new_game(["Ada", "Ben", "Cleo", "Dev", "Eli"])  # the README's five players
    page.goto(rig_server.url)
    expect(page.locator("#live")).to_have_class("live on")
    for n, key in enumerate(walkthrough_keys()):
        before = rig_server.state()
        turn = before["turn"]
        page.keyboard.press(key)
        what = f"key {n + 1} `{key}` to act (phase {turn['phase']})"
        if key in CARD_KEYS:
            wait_until(lambda: rig_server.state()["turn"]["cards_revealed"] == turn["cards_revealed"] + 1, what)
            assert rig_server.state()["turn"]["tosses"][turn["cards_revealed"]]["card"] == CARD_KEYS[key]
        elif key == "r":
            wait_until(lambda: rig_server.state()["turn"]["rolls"] == turn["rolls"] + 1, what)
        else:
            wait_until(lambda: rig_server.state()["version"] > before["version"], what)
    state = wait_until(lambda: (s := rig_server.state())["turns"] and s, "the turn to be scored")
    assert len(state["turns"]) == 1 and sum(state["totals"].values()) > 0
    assert page.js_errors == []

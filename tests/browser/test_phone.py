"""A phone on the network: it may watch, and changes the game only with the PIN shown on the rig's display."""

from __future__ import annotations

import socket

import pytest

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser


def lan_address() -> str | None:
    """This machine's address on its network (no packet is sent), or None without one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.254", 9))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


@pytest.fixture
def lan_server(start_rig):
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no network address to listen on")
    return start_rig(listen=address)


def test_a_phone_needs_the_pin(lan_server, page, artifacts):
    assert lan_server.pin and len(lan_server.pin) == 8
    page.goto(lan_server.url)  # from this machine's network address: not the rig's own display
    expect(page.locator("#live")).to_have_class("live on")
    expect(page.locator("#turn-banner")).to_have_text("Ada's turn")
    expect(page.locator("#btn-unlock")).to_be_visible()
    expect(page.locator("#pin")).to_be_empty()  # the PIN is shown on the rig's display only
    page.keyboard.press("n")
    page.locator("#new-players").fill("Ann\nBob\nCid")
    page.locator("#new-start").click()
    expect(page.locator("#dlg-pin")).to_be_visible()
    page.locator("#pin-input").fill("000000")
    page.locator("#pin-ok").click()
    expect(page.locator("#new-error")).to_contain_text("PIN")
    assert lan_server.state()["game"]["players"][0] == "Ada"
    page.locator("#new-start").click()
    expect(page.locator("#dlg-pin")).to_be_visible()
    page.locator("#pin-input").fill(lan_server.pin)
    page.locator("#pin-ok").click()
    expect(page.locator("#turn-banner")).to_have_text("Ann's turn")
    assert lan_server.state()["game"]["players"] == ["Ann", "Bob", "Cid"]
    expect(page.locator("#btn-unlock")).to_be_hidden()
    page.keyboard.press("1")  # the simulation controls work too, now that the PIN is known
    expect(page.locator("body")).to_have_attribute("data-phase", "rolling")
    page.screenshot(path=str(artifacts / "phone-unlocked.png"))
    assert page.js_errors == []

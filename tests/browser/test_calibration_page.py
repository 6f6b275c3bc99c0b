"""The calibration page in a real browser: live preview, the ritual with progress, report, save a profile."""

from __future__ import annotations

import contextlib

import pytest
from tests.waiting import WAIT_S

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser


def test_calibrate_from_the_page(page, rig_server, artifacts):
    rig_server.new_game()
    rig_server.post("/api/sim/roll", {"dice": 4})  # dice on the table, for the preview to outline
    page.goto(rig_server.url + "calibrate")
    preview = page.locator("#preview")
    page.wait_for_function("document.getElementById('preview').naturalWidth > 0")
    steps = page.locator("#steps .step")
    expect(steps).to_have_count(5)
    if page.locator("#steps .step.done").count():
        page.locator("#btn-reset").click()
        expect(page.locator("#steps .step.done")).to_have_count(0)
    expect(page.locator("#btn-fit")).to_be_disabled()
    # the page says what the step asks for, above the preview (issue 26)
    expect(page.locator("#step-now")).to_contain_text("Turn all six dice blue frog up")
    expect(page.locator("#steps .step.next")).to_have_attribute("data-step", "blue")
    for k, step in enumerate(["blue", "pink", "yellow", "blank", "empty"], start=1):
        page.locator(f"#steps button.capture[data-step={step}]").click()
        expect(page.locator("#steps .step.done")).to_have_count(k)
        expect(page.locator("#ritual-progress")).to_have_text(f"{k} of 5 steps captured")
        if k == 4:  # the empty box is part of the ritual: no fit without it
            expect(page.locator("#btn-fit")).to_be_disabled()
    page.locator("#btn-fit").click()
    expect(page.locator("#report table tbody tr").first).to_be_visible()
    expect(page.locator("#report p").first).to_have_class("ok")
    active = page.locator("#active-profile").text_content()
    page.locator("#profile-name").fill("evening")
    page.locator("#btn-save").click()
    # saved, and asked before it is used; the separation report stays
    expect(page.locator("#use-saved")).to_contain_text("Saved “evening”")
    expect(page.locator("#profiles li", has_text="evening")).to_have_count(1)
    expect(page.locator("#active-profile")).to_have_text(active)
    expect(page.locator("#report table tbody tr").first).to_be_visible()
    page.locator("#btn-use-saved").click()
    expect(page.locator("#active-profile")).to_have_text("evening")
    expect(page.locator("#use-saved")).to_be_hidden()
    page.locator("#btn-lock").click()
    expect(page.locator("#lock-state")).not_to_be_empty()
    assert preview.evaluate("img => img.naturalWidth") == 640
    preview.evaluate("img => new Promise((done) => img.addEventListener('load', done, { once: true }))")
    page.screenshot(path=str(artifacts / "calibration.png"))
    assert page.js_errors == []


def test_the_calibration_page_on_the_seven_inch_screen(browser, rig_server, artifacts):
    """800x480 (issue 15): a preview worth looking at, every ritual step and Fit on the screen."""
    rig_server.post("/api/calibration/reset", {})  # the ritual's steps (a fitted report folds them away)
    context = browser.new_context(viewport={"width": 800, "height": 480})
    context.set_default_timeout(WAIT_S * 1000)  # waits on the page, bounded generously
    try:
        page = context.new_page()
        page.goto(rig_server.url + "calibrate")
        page.wait_for_function("document.getElementById('preview').naturalWidth > 0")
        preview = page.locator("#preview").bounding_box()
        assert preview["width"] >= 360 and preview["height"] >= 270  # not a thumbnail
        steps = page.locator("#steps .step")
        assert steps.count() >= 5
        for k in range(steps.count()):
            box = steps.nth(k).locator("button.capture").bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 480 and box["x"] + box["width"] <= 800, k
        for selector in ("#btn-fit", "#btn-reset", "#ritual-progress"):
            box = page.locator(selector).bounding_box()
            assert box and box["y"] + box["height"] <= 480 and box["x"] + box["width"] <= 800, selector
        page.screenshot(path=str(artifacts / "calibration-7in.png"))
    finally:
        context.close()


def test_a_light_notice_leads_to_a_fresh_ritual(page, rig_server):
    """The scoreboard's "the light changed — recalibrate" notice: one tap opens the calibration
    page with the ritual started afresh."""
    import json

    def with_light_notice(route):
        body = route.fetch().json()
        body["notices"] = [*body.get("notices", []), {
            "key": "light", "kind": "warn", "text": "The light changed — recalibrate (darker x0.40)",
            "action": "Recalibrate", "href": "/calibrate?recalibrate=1"}]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    rig_server.new_game()
    rig_server.post("/api/calibration/capture", {"step": "blue"})
    page.route("**/api/rig", with_light_notice)
    page.goto(rig_server.url)
    notice = page.locator('.notice[data-key="light"]')
    expect(notice).to_contain_text("The light changed — recalibrate")
    notice.locator("a.notice-action").click()
    expect(page).to_have_url(rig_server.url + "calibrate")
    expect(page.locator("#steps .step.done")).to_have_count(0)
    expect(page.locator("#ritual-progress")).to_have_text("0 of 5 steps captured")
    assert page.js_errors == []


@pytest.mark.parametrize("size", [(800, 480), (390, 844)])
def test_the_fitted_report_stays_in_sight_and_the_page_is_readable(browser, rig_server, artifacts, size):
    """Issue 26: at 800x480 the separation report is on the screen after Fit (not squeezed to nothing
    under the ritual) with Save beside it; the preview shows the step the ritual asks for; no text
    under 14 px on the 7" screen or a phone."""
    from tests.browser import audit

    width, height = size
    rig_server.post("/api/calibration/reset", {})
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(WAIT_S * 1000)  # waits on the page, bounded generously
    try:
        page = context.new_page()
        page.goto(rig_server.url + "calibrate")
        page.wait_for_function("document.getElementById('preview').naturalWidth > 0")
        expect(page.locator("#step-now")).to_contain_text("Turn all six dice blue frog up")
        expect(page.locator("#step-now")).to_contain_text("The virtual table has turned them for you")
        assert audit.small_text(page, 14) == []
        for step in ("blue", "pink", "yellow", "blank", "empty"):
            rig_server.post("/api/calibration/capture", {"step": step})
        rig_server.post("/api/calibration/fit", {})
        page.reload()
        row = page.locator("#report table tbody tr").first
        expect(row).to_be_visible()
        if width > 640:  # the kiosk: on the screen without scrolling, Save beside it
            box = row.bounding_box()
            assert box["height"] > 10 and box["y"] + box["height"] <= height, box
            save = page.locator("#btn-save").bounding_box()
            assert save["y"] + save["height"] <= height
        assert audit.small_text(page, 14) == []
        assert audit.covered(page) == []
        page.screenshot(path=str(artifacts / f"calibration-fitted-{width}x{height}.png"))
    finally:
        context.close()
        rig_server.post("/api/calibration/reset", {})


@pytest.mark.parametrize("refusal", ["walls", "body"])
@pytest.mark.parametrize("size", [(800, 480), (390, 844)])
def test_a_long_calibration_refusal_reads_across_the_screen(browser, rig_server, artifacts, size, refusal):
    """A refusal whose advice takes a few sentences (round 19's walls refusal and round 23's ``BodyError``, the
    longest, rig.vision.calibrate_background) is shown as the page's toast: on a phone it spans the screen's width
    (not 40 % of it: a column of a word or two a line, as tall as the screen), and on the 7" screen it stays within
    the view."""
    import json

    from rig.vision.calibrate_background import body_advice, walls_advice

    width, height = size
    advice = str(walls_advice("body", 1.6, 4.4, 3.0) if refusal == "walls" else body_advice("blue", 2.1, 3.0, 38))
    with _captured(browser, rig_server, size, "**/api/calibration/fit", lambda route: route.fulfill(
            status=409, content_type="application/json", body=json.dumps({"error": advice}))) as page:
        # the toast's place measured as it is added (it leaves after a while: nothing here waits on that)
        page.evaluate("""() => new MutationObserver((changes, watch) => {
            for (const change of changes) for (const node of change.addedNodes)
                if (node.classList && node.classList.contains("toast")) {
                    const r = node.getBoundingClientRect();
                    window.refusalBox = { text: node.textContent, x: r.x, y: r.y, width: r.width, height: r.height };
                    watch.disconnect();
                }
        }).observe(document.body, { childList: true, subtree: true })""")
        page.locator("#btn-fit").click()
        box = page.wait_for_function("() => window.refusalBox").json_value()
        assert box["text"] == advice
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        if width <= 640:
            assert box["width"] >= 0.85 * width, box
        page.screenshot(path=str(artifacts / f"calibration-refused-{refusal}-{width}x{height}.png"))


@pytest.mark.parametrize("size", [(800, 480), (390, 844)])
def test_a_fit_s_warnings_are_shown_first_and_as_warnings(browser, rig_server, artifacts, size):
    """A profile fitted with warnings (round 20's: only the box bottom taken as the floor, twin 10210; dice in the
    lamp's sheen asked about, twin 10309) shows them right under the summary, styled as warnings — not last, in the
    notes' gray, below a dozen lines of figures (on a phone under eleven separation lines) — and not twice. The real
    fit on the virtual table has none; its report, as the page fetches it, gets the first of them added."""
    import json

    width, height = size
    warning = ("warning: the box's walls and rim or the table around the box look like the dice; only its bottom "
               "(separation 4.4) is taken as the floor: a die against the walls may be asked about")

    def warned(route):
        response = route.fetch()
        status = response.json()
        if status.get("report"):
            status["report"]["notes"].append(warning)
            status["report"]["said"]["en"]["notes"].append(warning)
            status["report"]["said"]["en"]["warnings"].append(warning)
        route.fulfill(response=response, body=json.dumps(status), content_type="application/json")

    with _captured(browser, rig_server, size, "**/api/calibration", warned) as page:
        page.locator("#btn-fit").click()
        shown = page.locator("#report p.warn")
        expect(shown).to_have_text([warning])
        assert page.locator("#report > *").nth(1).get_attribute("class") == "warn"  # right under the summary
        expect(page.locator("#report p.hint", has_text="walls and rim")).to_have_count(0)
        shown.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"calibration-warning-{width}x{height}.png"))


@contextlib.contextmanager
def _captured(browser, rig_server, size, pattern: str, handler):
    """The calibration page at ``size`` with every ritual step captured and requests to ``pattern`` given to
    ``handler`` (a refusal or a report as a test wants it); the ritual reset after."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(WAIT_S * 1000)
    try:
        page = context.new_page()
        page.route(pattern, handler)
        page.goto(rig_server.url + "calibrate")
        for step in ("blue", "pink", "yellow", "blank", "empty"):
            rig_server.post("/api/calibration/capture", {"step": step})
        expect(page.locator("#btn-fit")).to_be_enabled()
        yield page
    finally:
        context.close()
        rig_server.post("/api/calibration/reset", {})

"""The reveal's question on the scoreboard: "Was that a second pink card?" answered with a tap."""

from __future__ import annotations

import json
import re

import pytest

expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser


def test_a_question_notice_has_yes_and_no_buttons_that_answer_it(page, rig_server):
    answers = []

    def with_question(route):
        body = route.fetch().json()
        if not answers:
            body["notices"] = [*body.get("notices", []), {
                "key": "card-question", "kind": "warn", "text": "Was that a second pink card?",
                "ask": "/api/answer", "answers": ["yes", "no"]}]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    rig_server.new_game()
    page.route("**/api/rig", with_question)
    page.route("**/api/answer", _answered_into(answers))
    page.goto(rig_server.url)
    notice = page.locator('.notice[data-key="card-question"]')
    expect(notice).to_contain_text("Was that a second pink card?")
    expect(notice.locator("button[data-answer=no]")).to_be_visible()
    notice.locator("button[data-answer=yes]").click()
    expect(notice).to_have_count(0)  # answered: the page asks the rig again at once
    assert answers == [{"key": "card-question", "answer": "yes"}]
    assert page.js_errors == []
    page.unroute_all(behavior="ignoreErrors")  # a poll still on its way when the page closes


LONG_QUESTION = "Were the next 2 cards laid yellow, then yellow? (1 later card waits for the answer)"


def _button_in_reach(page, button) -> bool:
    """The button is drawn inside the window and is what a tap on its centre reaches (not cut off, not covered)."""
    return page.evaluate(
        """(b) => { const r = b.getBoundingClientRect();
            if (r.width < 1 || r.height < 1 || r.left < 0 || r.top < 0
                || r.right > innerWidth || r.bottom > innerHeight) return false;
            let box = b.parentElement;
            for (; box; box = box.parentElement) {
              const o = getComputedStyle(box).overflowX;
              const c = box.getBoundingClientRect();
              if (o !== "visible" && (r.left < c.left - 0.5 || r.right > c.right + 0.5)) return false;
            }
            return b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }""",
        button.element_handle())


def _unseen_before() -> str:
    """Round 24's longest question: a card that may lie under the blob just asked about (rig.vision.card_reveal)."""
    from rig.vision.card_reveal import _UNSEEN_BEFORE

    return _UNSEEN_BEFORE.text


@pytest.mark.parametrize("question", ["next-two", "unseen-before"])
@pytest.mark.parametrize("viewport", [{"width": 800, "height": 480}, {"width": 1920, "height": 1080},
                                      {"width": 390, "height": 844}], ids=["7inch", "tv", "phone"])
def test_a_long_question_keeps_its_answer_buttons_in_reach(browser, rig_server, viewport, question, artifacts):
    """A question too long for the notices' line, behind another notice, still shows yes and no: its words are
    cut (and a phone shows them whole), never its buttons."""
    text = LONG_QUESTION if question == "next-two" else _unseen_before()

    def with_question(route):
        body = route.fetch().json()
        body["notices"] = [{"key": "camera", "kind": "bad", "text": "Camera: no frame for 3 s"},
                           {"key": "card-question", "kind": "warn", "text": text,
                            "ask": "/api/answer", "answers": ["yes", "no"]}]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    rig_server.new_game()
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.route("**/api/rig", with_question)
        page.goto(rig_server.url)
        notice = page.locator('.notice[data-key="card-question"]')
        expect(notice).to_be_visible()
        for answer in ("yes", "no"):
            assert _button_in_reach(page, notice.locator(f"button[data-answer={answer}]")), (viewport, answer)
        if viewport["width"] < 640:  # a phone shows the question whole
            assert notice.locator(".notice-text").evaluate("(t) => t.scrollWidth <= t.clientWidth + 1")
        page.screenshot(path=str(artifacts / f"question-{question}-{viewport['width']}x{viewport['height']}.png"))
        page.locator("#notices-more").click()  # the notices opened (issue 26): the question read whole
        expect(page.locator("#notices")).to_have_class(re.compile(r"\bopen\b"))
        assert notice.locator(".notice-text").evaluate("(t) => t.scrollWidth <= t.clientWidth + 1")  # nothing cut
        page.screenshot(path=str(artifacts / f"question-{question}-{viewport['width']}x{viewport['height']}-open.png"))
        page.unroute_all(behavior="ignoreErrors")
    finally:
        context.close()


CARDS = ["blue", "pink", "yellow", "blank", "gray"]


def _comes_in_reach(page, selector: str) -> None:
    """Wait until the button ``selector`` is drawn inside the window, uncut and on top (:func:`_button_in_reach`), found
    anew each time: the notices are drawn again at each poll of the rig's status."""
    page.wait_for_function(
        """(sel) => { const b = document.querySelector(sel); if (!b) return false;
            const r = b.getBoundingClientRect();
            if (r.width < 1 || r.height < 1 || r.left < 0 || r.top < 0
                || r.right > innerWidth || r.bottom > innerHeight) return false;
            for (let box = b.parentElement; box; box = box.parentElement) {
              const c = box.getBoundingClientRect();
              if (getComputedStyle(box).overflowX !== "visible" && (r.left < c.left - 0.5 || r.right > c.right + 0.5)) return false;
            }
            return b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }""",
        arg=selector)
GLIMPSE = "Were the next 2 cards laid blue, then pink? (1 later card waits for the answer)"


def _card_question(text: str, answers: list, *, unread: bool = False) -> callable:
    """The rig's status with a card question that offers the cards it may have been (rig.app.notices), until answered:
    beside a camera notice, or (``unread``) about a card the camera cannot read, alone."""
    question = {"key": "card-question", "kind": "warn", "text": text, "ask": "/api/answer", "answers": ["yes", "no"],
                "cards": CARDS, **({"unread": True} if unread else {})}
    others = [] if unread else [{"key": "camera", "kind": "bad", "text": "Camera: no frame for 3 s"}]

    def with_question(route):
        body = route.fetch().json()
        if not answers:
            body["notices"] = [*others, question]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
    return with_question


def _answered_into(answers: list) -> callable:
    """The rig's answer endpoint, keeping each answer the page sends."""
    def answer(route):
        answers.append(json.loads(route.request.post_data))
        route.fulfill(status=200, content_type="application/json", body='{"ok": true}')
    return answer


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("viewport", [{"width": 800, "height": 480}, {"width": 1920, "height": 1080},
                                      {"width": 390, "height": 844}], ids=["7inch", "tv", "phone"])
def test_a_card_question_offers_the_card_it_was_and_books_it_with_one_tap(browser, rig_server, viewport, lang,
                                                                          artifacts):
    """Issue 24 part 3, round 36: "no — it was: blue, pink, yellow, blank, gray" (and "no card"), in reach on each
    screen and in German; a tap on a card answers in one request."""
    answers = []

    rig_server.new_game()
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.route("**/api/rig", _card_question(GLIMPSE, answers))
        page.route("**/api/answer", _answered_into(answers))
        page.goto(rig_server.url + f"?lang={lang}")
        notice = page.locator('.notice[data-key="card-question"]')
        expect(notice).to_be_visible()
        words = {"en": ("no card", "no, it was…", "it was:", "gray"), "de": ("keine Karte", "nein, es war…", "es war:", "grau")}
        no_card, it_was, was, gray = words[lang]
        expect(notice.locator("button[data-answer=no]")).to_have_text(no_card)
        expect(notice.locator("button[data-answer=was]")).to_have_text(it_was)
        for key in ("yes", "no", "was"):
            _comes_in_reach(page, f'.notice[data-key="card-question"] button[data-answer={key}]')
        name = f"card-question-{lang}-{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(artifacts / f"{name}.png"))
        notice.locator("button[data-answer=was]").click()
        expect(notice.locator(".notice-was")).to_have_text(was)
        expect(notice.locator("button[data-was]")).to_have_count(len(CARDS))
        page.screenshot(path=str(artifacts / f"{name}-cards.png"))
        for card in [*CARDS, "back"]:  # every card in reach (on a phone the words of the question may take lines)
            _comes_in_reach(page, f'.notice[data-key="card-question"] button[data-{"answer" if card == "back" else "was"}={card}]')
        expect(notice.locator("button[data-was=gray]")).to_have_text(gray)
        notice.locator("button[data-was=gray]").click()
        expect(notice).to_have_count(0)  # answered: the page asks the rig again at once
        assert answers == [{"key": "card-question", "answer": "no", "was": "gray"}]
        page.unroute_all(behavior="ignoreErrors")
    finally:
        context.close()


def test_the_cards_shown_go_back_to_yes_and_no_and_a_question_without_cards_offers_none(page, rig_server):
    answers = []
    rig_server.new_game()
    page.route("**/api/rig", _card_question(GLIMPSE, answers))
    page.goto(rig_server.url)
    notice = page.locator('.notice[data-key="card-question"]')
    notice.locator("button[data-answer=was]").click()
    expect(notice.locator("button[data-was]")).to_have_count(len(CARDS))
    for _ in range(2):  # the rig's status polled again meanwhile: the cards stay shown until answered
        with page.expect_request("**/api/rig"):
            pass
    expect(notice.locator("button[data-was]")).to_have_count(len(CARDS))
    notice.locator("button[data-answer=back]").click()
    expect(notice.locator("button[data-answer=yes]")).to_be_visible()
    expect(notice.locator("button[data-was]")).to_have_count(0)
    assert answers == [] and page.js_errors == []
    page.unroute_all(behavior="ignoreErrors")


#: round 37: the questions about a card the camera cannot read, as the flow shows them (rig.vision.card_view/_reveal)
UNREAD_QUESTIONS = ["Which card was just laid? The camera cannot read it",
                    "Which card was laid last? The camera cannot make it out",
                    "Which card was laid before the last one? The camera cannot tell"]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("viewport", [{"width": 800, "height": 480}, {"width": 1920, "height": 1080},
                                      {"width": 390, "height": 844}], ids=["7inch", "tv", "phone"])
def test_a_card_the_camera_cannot_read_is_asked_in_words_its_buttons_answer(browser, rig_server, viewport, lang,
                                                                          artifacts):
    """Issue 24 part 3, round 37: "which card was just laid?" with "entered" (by hand: yes), "no card" and "it was…"
    — not "enter it by hand, then answer yes" beside "no, it was…" (cut to "enter it by…" at 800x480). Each question
    whole on the one notice line at 800x480, in English and German; its buttons in reach; each answers as it says."""
    for text in UNREAD_QUESTIONS:
        answers = []

        rig_server.new_game()
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            page.route("**/api/rig", _card_question(text, answers, unread=True))
            page.route("**/api/answer", _answered_into(answers))
            page.goto(rig_server.url + f"?lang={lang}")
            notice = page.locator('.notice[data-key="card-question"]')
            expect(notice).to_be_visible()
            words = {"en": ("entered", "no card", "it was…", "Which card"), "de": ("eingegeben", "keine Karte", "es war…",
                                                                                  "Welche Karte")}[lang]
            for key, said in zip(("yes", "no", "was"), words):
                expect(notice.locator(f"button[data-answer={key}]")).to_have_text(said)
                _comes_in_reach(page, f'.notice[data-key="card-question"] button[data-answer={key}]')
            expect(notice.locator(".notice-text")).to_contain_text(words[3])
            whole = notice.locator(".notice-text").evaluate("(t) => t.scrollWidth <= t.clientWidth + 1")
            assert whole, f"{text!r} cut on {viewport} ({lang})"
            page.screenshot(path=str(artifacts / f"unread-{lang}-{viewport['width']}x{viewport['height']}-"
                                                 f"{UNREAD_QUESTIONS.index(text)}.png"))
            notice.locator("button[data-answer=was]").click()
            expect(notice.locator("button[data-was]")).to_have_count(len(CARDS))
            notice.locator("button[data-was=gray]").click()
            expect(notice).to_have_count(0)
            assert answers == [{"key": "card-question", "answer": "no", "was": "gray"}]
            page.unroute_all(behavior="ignoreErrors")
        finally:
            context.close()


def test_entered_by_hand_answers_yes(page, rig_server):
    answers = []

    rig_server.new_game()
    page.route("**/api/rig", _card_question(UNREAD_QUESTIONS[0], answers, unread=True))
    page.route("**/api/answer", _answered_into(answers))
    page.goto(rig_server.url)
    notice = page.locator('.notice[data-key="card-question"]')
    notice.locator("button[data-answer=yes]").click()
    expect(notice).to_have_count(0)
    assert answers == [{"key": "card-question", "answer": "yes"}] and page.js_errors == []
    page.unroute_all(behavior="ignoreErrors")

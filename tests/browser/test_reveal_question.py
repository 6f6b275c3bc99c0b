"""The reveal's question on the scoreboard: "Was that a second pink card?" answered with a tap."""

from __future__ import annotations

import json

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

    def answer(route):
        answers.append(json.loads(route.request.post_data))
        route.fulfill(status=200, content_type="application/json", body='{"ok": true}')

    rig_server.new_game()
    page.route("**/api/rig", with_question)
    page.route("**/api/answer", answer)
    page.goto(rig_server.url)
    notice = page.locator('.notice[data-key="card-question"]')
    expect(notice).to_contain_text("Was that a second pink card?")
    expect(notice.locator("button[data-answer=no]")).to_be_visible()
    notice.locator("button[data-answer=yes]").click()
    expect(notice).to_have_count(0)  # answered: the page asks the rig again at once
    assert answers == [{"key": "card-question", "answer": "yes"}]
    assert page.js_errors == []
    page.unroute_all(behavior="ignoreErrors")  # a poll still on its way when the page closes

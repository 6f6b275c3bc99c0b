"""Lunar Laser Frogs' turn flow on the camera side: whole sets of dice, evidence, card reveals.

The runner (:class:`rig.app.runner.Rig`, ``table`` here) calls these through the game's hooks with
itself; they use its public camera-side state (``tracker``, ``resuming``, ``roll_started_us``,
``cards``) and :meth:`~rig.app.runner.Rig.submit_event` / :meth:`~rig.app.runner.Rig.keep_evidence`.
"""

from __future__ import annotations

from typing import Any

from rig.errors import RigError
from rig.games.frogs.rules import Card, FrogsError

#: the cards a question about one card offers as its answer "no — it was: ..." (the game's card colours)
CARDS = tuple(card.value for card in Card)


def on_camera_event(table: Any, event: Any) -> bool:
    """A settled roll (a whole set of dice, kept as evidence) or a three-rolls violation."""
    kind = getattr(event, "type", None)
    if kind == "roll_settled":
        faces = [str(die.face) for die in event.reading.dice]
        resuming, table.resuming = table.resuming, None
        if resuming is not None and len(faces) == resuming[1]:
            table.tracker.resume(event.reading, resuming[0])  # the dice already in the box at a restart
            return True
        reading = event.reading.to_dict() if hasattr(event.reading, "to_dict") else None
        if event.new_dice == 0:  # a knocked die re-read: the engine takes whole sets only
            if len(faces) == 6:
                table.keep_evidence(table.submit_event({"type": "correction", "t_us": event.t_us, "what": "dice",
                                                        "faces": faces}), event.t_us, reading)
            return True
        payload = {"type": "roll_settled", "t_us": event.t_us, "dice": faces, "reading": reading}
        started, table.roll_started_us = table.roll_started_us, None
        if started is not None:
            payload["started_us"] = started
        table.keep_evidence(table.submit_event(payload), event.t_us, reading)
        return True
    if kind == "violation":
        state = table.service.state()
        turn = state.get("turn")
        if turn and turn["started"]:
            table.submit_event({"type": "violation", "t_us": event.t_us, "kind": event.kind,
                                "player": turn["roller"], "detail": event.detail})
        return True
    if kind == "dice_appeared":
        turn = table.service.state().get("turn")
        if turn and turn["started"]:
            table.asked[LATE_DICE] = (turn["number"], turn["roller"], event.if_thrown)
            more, roller = event.now - event.seen, turn["roller"]
            table.notice(LATE_DICE, f"one more die seen after the last roll: did {roller} throw it after that roll? "
                         "(no: it lay there all along, hidden in shade)" if more == 1 else f"{more} more dice seen after "
                         f"the last roll: did {roller} throw them after that roll? (no: they lay there all along, hidden "
                         "in shade)", "warn", ask=True)
        return True
    return False


#: the notice key of the question "thrown just now?" about dice seen after the last roll
LATE_DICE = "late-dice"


def answer_late_dice(table: Any, yes: bool) -> bool:
    """The players said whether the dice seen after the last roll were thrown then (yes: the violations
    stand, booked for the roller) or lay hidden (no: the set is completed, nothing broken)."""
    asked = _forget_late_dice(table)
    if asked is None:
        return False
    number, roller, if_thrown = asked
    turn = table.service.state().get("turn")
    if yes and turn and turn["number"] == number and turn["started"]:
        for kind, detail in if_thrown:  # booked now: the engine's clock stamps them
            table.submit_event({"type": "violation", "kind": kind, "player": roller, "detail": detail})
    return True


def _forget_late_dice(table: Any) -> tuple | None:
    """Take the question about dice seen after the last roll off the display; what it asked, if it was open."""
    table.notice(LATE_DICE, None)
    return table.asked.pop(LATE_DICE, None)


def on_frame(table: Any, t_us: int, frame: Any, state: dict) -> None:
    """In the reveal phase, read the card laid beside the dice (and forget a question of a turn gone by)."""
    turn = state.get("turn")
    asked = table.asked.get(LATE_DICE)
    if asked is not None and (not turn or turn["number"] != asked[0]):
        _forget_late_dice(table)
    if turn and turn["phase"] == "reveal":
        read_card(table, t_us, frame)
    elif table.cards is not None and table.cards.question is not None:  # the reveal is over (cards entered by hand)
        with table.cards_lock:
            table.cards = None
            table.notice(QUESTION, None)


#: the notice key of the reveal's question ("was that a second pink card?")
QUESTION = "card-question"


def read_card(table: Any, t_us: int, frame: Any) -> None:
    """Feed the frame's cards to the reveal; book what it says was laid, show what it asks."""
    from rig.vision.cards import CardReveal, read_cards

    try:
        view = read_cards(frame, table.profile)
    except RigError:
        return
    with table.cards_lock:
        if table.cards is None:
            table.cards = CardReveal(settle=table.card_frames)
        _book(table, t_us, table.cards.feed(view), view)


def on_answer(table: Any, key: str, yes: bool, was: str | None = None) -> bool:
    """The players answered the reveal's question: book its card (yes), or the card it was (``was``: "no — it was
    a gray card"), and the cards that waited; or the question about dice seen after the last roll
    (:func:`answer_late_dice`)."""
    from rig.vision.card_answer import NoCardQuestion, answer_was

    if key == LATE_DICE:
        return answer_late_dice(table, yes) if was is None else False
    with table.cards_lock:
        reveal = table.cards
        if key != QUESTION or reveal is None or reveal.question is None:
            return False
        if was is None:
            _book(table, None, reveal.answer(yes), None)  # booked now: the engine's clock stamps them
            return True
        try:
            booked = answer_was(reveal, Card.parse(was).value)
        except (NoCardQuestion, FrogsError):
            return False
        _book(table, None, booked, None)
        return True


def _book(table: Any, t_us: int | None, laid: list[str], view: Any) -> None:
    from rig.vision.card_answer import cards_offered

    reveal = table.cards
    for k, card in enumerate(laid):
        confidence = next((c.confidence for c in view.cards if c.card == card), 1.0) if view else 1.0
        event = {"type": "card_revealed", "card": card, "confidence": round(float(confidence), 3)}
        if t_us is not None:
            event["t_us"] = t_us + k
        table.submit_event(event)
    question = reveal.question
    if question is None:
        table.notice(QUESTION, None)
    else:
        waiting = len(reveal.held_cards)
        more = f" ({waiting} later {'card waits' if waiting == 1 else 'cards wait'} for the answer)" if waiting else ""
        table.notice(QUESTION, question.text[0].upper() + question.text[1:] + more, "warn", ask=True,
                     cards=cards_offered(question, CARDS), unread=question.unread)

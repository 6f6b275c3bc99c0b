"""What the league accepts: well-formed messages whose table is their topic's; the rest is refused."""

import json

import pytest

from rig.league.topics import EventMessage, MessageError, StateMessage, parse_resend, split_topic

EVENT = {"v": 1, "table": "t1", "seq": 5, "game_id": 1, "batch": 4, "status": "applied", "reason": None,
         "logged_at": "2026-11-23T10:00:00.000+00:00", "sent": 1.5,
         "event": {"type": "toss", "t_us": 9, "source": "gpio", "player": "Ben"}}


def payload(**changes):
    body = {**EVENT, **changes}
    return json.dumps({k: v for k, v in body.items() if v is not ...}).encode()


def test_an_event_round_trips():
    message = EventMessage.parse("rig/t1/events", payload())
    assert (message.table, message.seq, message.game_id, message.batch, message.sent) == ("t1", 5, 1, 4, 1.5)
    again = EventMessage.parse("rig/t1/events", message.payload())
    assert again == message


@pytest.mark.parametrize("topic, body, reason", [
    ("rig/t1/events", b"not json", "not JSON"),
    ("rig/t1/events", b"[1, 2]", "not a JSON object"),
    ("rig/t2/events", payload(), "forged"),
    ("rig/t1/events", payload(table="t2"), "forged"),
    ("rig/t1/events", payload(v=2), "version"),
    ("rig/t1/events", payload(seq=0), "'seq'"),
    ("rig/t1/events", payload(seq="5"), "'seq'"),
    ("rig/t1/events", payload(seq=True), "'seq'"),
    ("rig/t1/events", payload(batch=9), "cannot come after"),
    ("rig/t1/events", payload(status="maybe"), "'status'"),
    ("rig/t1/events", payload(event=["toss"]), "'event'"),
    ("rig/t1/events", payload(event={"t_us": 1}), "'event'"),
    ("rig/t1/events", payload(logged_at=...), "'logged_at'"),
    ("rig/t1/events", payload(event={"type": "game_started", "players": []}, game_id=2), "own seq"),
    ("rig/t1/events", b"{" + b" " * 300_000 + b"}", "too large"),
    ("rig/t+/events", payload(), "not a table name"),
    ("rig/t1/secrets", payload(), "not a league topic"),
    ("other/t1/events", payload(), "not a league topic"),
])
def test_malformed_or_forged_events_are_refused_with_the_reason(topic, body, reason):
    with pytest.raises(MessageError, match=reason):
        EventMessage.parse(topic, body)


def test_state_and_resend_messages():
    state = StateMessage("t1", 12, {"version": 12, "game": None})
    assert StateMessage.parse("rig/t1/state", state.payload()).seq == 12
    with pytest.raises(MessageError, match="forged"):
        StateMessage.parse("rig/t9/state", state.payload())
    with pytest.raises(MessageError, match="'from'"):
        parse_resend("rig/t1/resend", b'{"v": 1, "from": -3}')
    assert split_topic("rig/t1/state") == ("t1", "state")

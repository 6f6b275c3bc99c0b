"""The whole-log digest (issue 31): the league compares its copy of a table's log with the digest the table
announces, and names what differs — even where count and last seq agree; holes are asked for by range."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rig.league import audit
from rig.league.audit import DigestMessage, LogDigest
from rig.league.store import LeagueStore
from rig.league.topics import MessageError

from .test_store import messages, played


def digest_of(service, table="t1") -> DigestMessage:
    digest = LogDigest()
    digest.extend(service.log._conn)
    return digest.message(table, None)


def test_the_leagues_copy_and_the_tables_log_agree_block_by_block():
    service = played(2, 150)
    stream = messages("t1", service)
    store = LeagueStore(":memory:")
    store.apply([digest_of(service)])  # the digest first: the league waits for the events
    (table,) = store.tables()
    assert table["log"]["state"] == "checking" and table["missing"] == len(stream)
    store.apply(stream)
    check = store.tables()[0]["log"]
    assert check["state"] == "same" and check["checked_seq"] == len(stream) and check["differs"] == []
    assert "up to #%d is the table's" % len(stream) in check["text"]


def test_a_replaced_event_the_table_never_sent_again_shows_as_differing_with_the_same_count():
    service = played(2, 150)
    stream = messages("t1", service)
    forged = dataclasses.replace(stream[69], event={**stream[69].event, "t_us": 1})  # #70, in block #65-128
    store = LeagueStore(":memory:")
    store.apply(stream[:69] + [forged] + stream[70:] + [digest_of(service)])
    (table,) = store.tables()
    assert table["have"] == len(stream) and table["missing"] == 0 and table["rejected"] == 0  # count and last id agree
    assert table["log"]["state"] == "differs" and table["log"]["differs"] == [[65, 128]]
    assert "#65–128" in table["log"]["text"]
    store.apply(stream[64:128])  # the league asks for that range again: the real #70 names itself
    check = store.tables()[0]["log"]
    assert check["conflicts"] == [70] and "arrived with other content: #70" in check["text"]
    assert store.tables()[0]["rejected"] == 1


def test_gaps_are_the_missing_ranges_up_to_what_the_table_announced():
    service = played(3, 120)
    stream = messages("t1", service)
    store = LeagueStore(":memory:")
    store.apply(stream[:39] + stream[55:89] + stream[95:100])
    assert store.gaps("t1") == [(40, 55), (90, 95)]
    store.apply([digest_of(service)])
    assert store.gaps("t1") == [(40, 55), (90, 95), (101, len(stream))]
    store.apply(stream)
    assert store.gaps("t1") == [] and store.tables()[0]["log"]["state"] == "same"


def test_a_digest_message_round_trips_and_a_bad_one_is_refused_in_one_line():
    message = digest_of(played(1, 80))
    assert DigestMessage.parse("rig/t1/digest", message.payload()) == message
    signed = DigestMessage.parse("rig/t1/digest", message.payload(secret="s" * 16))
    assert signed.verify("s" * 16) and not signed.verify("t" * 16)
    body = json.loads(message.payload())
    for bad, words in (({**body, "table": "t2"}, "names table"), ({**body, "blocks": body["blocks"][1:]}, "blocks"),
                       ({**body, "digest": "0" * 64}, "does not match"), ({**body, "seq": -1}, "seq")):
        with pytest.raises(MessageError, match=words):
            DigestMessage.parse("rig/t1/digest", json.dumps(bad).encode())
    with pytest.raises(MessageError, match="not JSON"):
        DigestMessage.parse("rig/t1/digest", b"\xff\xfe")
    with pytest.raises(MessageError, match="'to'"):
        audit.parse_range("rig/t1/resend", b'{"v": 1, "from": 5, "to": 2}')

"""Events signed per table (issue 31): an HMAC under the table's ``[league] secret``, checked by the
league; a forged, changed or unsigned event is rejected and counted; a replayed (table, seq) with other
content is counted as rejected even without signatures (the health view compares content)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rig.config import RigConfig
from rig.errors import ConfigError
from rig.league.mqtt import BrokerSettings
from rig.league.service import League
from rig.league.store import LeagueStore
from rig.league.topics import EventMessage, MessageError

from .test_store import messages, played

SECRET = "0123456789abcdef-table-1"


def signed_stream(secret=SECRET):
    service = played(1, 40)
    return [EventMessage.parse("rig/t1/events", m.payload(secret=secret)) for m in messages("t1", service)]


def league(**secrets):
    return League(":memory:", BrokerSettings("127.0.0.1", 1883), secrets=secrets or {"t1": SECRET})


def test_a_signed_event_passes_and_a_forged_changed_or_unsigned_one_is_rejected():
    stream = signed_stream()
    judge = league()
    assert all(judge.authentic(m, "rig/t1/events") is m for m in stream)
    real = stream[3]
    changed = dataclasses.replace(real, event={**real.event, "player": "Mallory"})  # the signature of the real one
    forged = EventMessage.parse("rig/t1/events", dataclasses.replace(real, sig=None).payload(
        secret="not-the-tables-secret-at-all"))
    unsigned = EventMessage.parse("rig/t1/events", real.payload())
    for bad, words in ((changed, "fails its signature"), (forged, "fails its signature"), (unsigned, "not signed")):
        with pytest.raises(MessageError, match=words):
            judge.authentic(bad, "rig/t1/events")
    with pytest.raises(MessageError, match="no secret"):
        league(t2=SECRET).authentic(real, "rig/t1/events")


def test_a_replaced_event_is_counted_as_rejected_and_shown():
    stream = [m for m in signed_stream()]
    store = LeagueStore(":memory:")
    forged = dataclasses.replace(stream[5], event={**stream[5].event, "t_us": 1})
    store.apply(stream[:5] + [forged])  # the forgery came first (a loose ACL, no secrets)
    store.apply(stream[5:])  # then the table's real one: same (table, seq), other content
    (table,) = store.tables()
    assert table["rejected"] == 1 and table["missing"] == 0
    assert any("other content" in r["reason"] for r in store.rejects())
    store.apply(stream[:5] + stream[6:10])  # a replay with the same content is no conflict
    assert store.tables()[0]["rejected"] == 1


def test_the_secret_is_a_league_key_of_the_config_and_never_shown():
    config = RigConfig.parse(f'[league]\ntable = "t1"\nsecret = "{SECRET}"\n', source="rig.toml")
    assert config.league.secret == SECRET and SECRET not in repr(config.league)
    with pytest.raises(ConfigError, match="at least 16"):
        RigConfig.parse('[league]\ntable = "t1"\nsecret = "short"\n', source="rig.toml")


def test_the_publisher_signs_with_the_configured_secret(tmp_path):
    from rig.league.publisher import publisher_for

    config = RigConfig.parse(f'[league]\ntable = "t1"\nsecret = "{SECRET}"\n', source="rig.toml")
    publisher = publisher_for(config, tmp_path / "rig.sqlite3")
    assert publisher._secret == SECRET
    message = signed_stream()[0]
    assert json.loads(message.payload(secret=SECRET))["sig"] == message.sig


def test_rig_league_reads_a_secrets_file(tmp_path):
    from rig.cli.league import read_secrets

    path = tmp_path / "secrets.toml"
    path.write_text(f'[tables]\nt1 = "{SECRET}"\n')
    assert read_secrets(path) == {"t1": SECRET}
    path.write_text('[tables]\nt1 = "short"\n')
    with pytest.raises(Exception, match="at least 16"):
        read_secrets(path)

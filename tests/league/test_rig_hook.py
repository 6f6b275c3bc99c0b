"""``rig run`` with ``[league]`` publishes its log and shows the link; without it nothing of the league runs."""

from __future__ import annotations

import threading
import warnings

from gpiozero.pins.mock import MockFactory

from rig.config import LeagueConfig, RigConfig
from rig.league.service import League
from rig.app.runner import Rig

from .conftest import wait_for

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def league_config(broker, table="t1") -> RigConfig:
    settings = broker.settings(table)
    return RigConfig.parse(f'[league]\ntable = "{table}"\nport = {broker.port}\npassword = "{settings.password}"\n')


def test_a_rig_with_league_publishes_its_games_and_shows_the_link(broker, tmp_path):
    with League(tmp_path / "league.sqlite3", broker.settings("league")) as league, \
            Rig(league_config(broker), mode="sim", data_dir=tmp_path / "rig", camera=False,
                pin_factory=MockFactory()) as rig:
        wait_for(lambda: rig.status()["league"]["connected"], 10, "the rig to reach the broker")
        client = TestClient(rig.app(), client=("127.0.0.1", 50000), base_url="http://127.0.0.1:8080")
        page = client.get("/").text
        assert "/static/league-link.js" in page and client.get("/static/league-link.js").status_code == 200
        assert client.post("/api/sim/press", json={"player": "Ada"}).status_code == 202
        wait_for(lambda: league.store.counted().get("t1") == rig.service.log.last_seq() >= 2, 10,
                 "the league to count the rig's events")
        wait_for(lambda: client.get("/api/rig").json()["league"]["waiting"] == 0, 5, "the acknowledgements")
        link = client.get("/api/rig").json()["league"]
        assert link["table"] == "t1" and link["acked"] == link["logged"] and link["error"] is None
        (game,) = league.store.games(status="playing")
        assert game["players"] == ["Ada", "Ben", "Cleo", "Dev", "Eli"]
        broker.stop()  # the broker goes away: the rig plays on and says so
        wait_for(lambda: not rig.status()["league"]["connected"], 10, "the rig to notice")
        client.post("/api/sim/press", json={"player": "Ben"})
        wait_for(lambda: rig.status()["league"]["waiting"] >= 1, 5, "the toss to wait in the outbox")
        assert rig.service.state()["turn"]["tosses"]
        broker.start()
        wait_for(lambda: league.store.counted().get("t1") == rig.service.log.last_seq(), 20,
                 "the league to catch up after the outage")
    assert rig.publisher is None  # closed with the rig


def test_without_league_nothing_of_it_runs(tmp_path):
    before = {t.name for t in threading.enumerate()}
    with Rig(RigConfig.default(), mode="sim", data_dir=tmp_path, camera=False, pin_factory=MockFactory()) as rig:
        assert rig.publisher is None and "league" not in rig.status()
        started = {t.name for t in threading.enumerate()} - before
        assert not any("league" in name for name in started)
        assert "paho" not in " ".join(started)


def test_the_league_section_is_checked():
    import pytest

    from rig.errors import ConfigError

    config = RigConfig.parse('[league]\ntable = "table-7"\nhost = "league.local"\ntls = true\npassword = "s3cret"\n')
    assert config.league == LeagueConfig("table-7", "league.local", 8883, True, None, None, "s3cret")
    assert "s3cret" not in repr(config.league) and config.league.account == "table-7"
    assert any("league: table table-7" in line for line in config.describe())
    for text, message in [('[league]\nhost = "x"\n', "has no table"),
                          ('[league]\ntable = "rig/+"\n', "not a table name"),
                          ('[league]\ntable = "t"\nca_file = "ca.pem"\n', "tls = false"),
                          ('[league]\ntable = "t"\nport = 0\n', "out of range"),
                          ('[league]\ntable = "t"\nhots = "x"\n', "did you mean host")]:
        with pytest.raises(ConfigError, match=message):
            RigConfig.parse(text)


def test_the_example_acl_is_the_one_the_tests_run():
    from pathlib import Path

    from rig.league.broker import ACL, LEAGUE_ACCOUNT

    example = Path(__file__).parents[2] / "examples" / "mosquitto" / "acl"
    assert example.read_text() == ACL.format(league=LEAGUE_ACCOUNT)


def test_a_rig_whose_broker_is_not_there_starts_and_plays_and_says_so(tmp_path):
    from rig.league.broker import free_port

    config = RigConfig.parse(f'[league]\ntable = "t1"\nport = {free_port()}\npassword = "x"\n')
    with Rig(config, mode="sim", data_dir=tmp_path, camera=False, pin_factory=MockFactory()) as rig:
        rig.service.press("Ada")
        assert rig.service.state()["turn"]["phase"] == "rolling"
        wait_for(lambda: rig.status()["league"]["error"] and rig.status()["league"]["waiting"] >= 2, 10,
                 "the link to report the broker missing and the events waiting")
        link = rig.status()["league"]
        assert not link["connected"] and link["acked"] == 0 and "cannot connect" in link["error"]

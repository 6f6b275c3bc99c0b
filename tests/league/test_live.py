"""Tables and the league through a real Mosquitto: outages, SIGKILLs and restarts lose nothing and
count nothing twice; the ACL keeps each table to its own topic."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from rig.engine.paths import database_path
from rig.engine.service import EngineService
from rig.league.mqtt import make_client
from rig.league.publisher import Publisher
from rig.league.service import League
from rig.league.simtable import SimTable, TablePlayer
from tests.waiting import WAIT_S

from .conftest import league_standings, summed_histories, wait_for

CHILD = Path(__file__).parent / "table_child.py"


class Table:
    """A table in this process: its own log, a publisher, a player at (nearly) full speed."""

    def __init__(self, folder: Path, name: str, broker, seed: int) -> None:
        self.name = name
        self.service = EngineService.open(folder / name, clock="test")
        self.publisher = Publisher(database_path(folder / name), name, broker.settings(name),
                                   service=self.service).start()
        self.player = TablePlayer(SimTable(self.service, seed=seed), pace_s=0.002, name=name)

    def close(self) -> None:
        if self.player.is_alive():
            self.player.stop()
        self.publisher.close()
        self.service.close()


def caught_up(league, services) -> bool:
    counted = league.store.counted()
    return all(counted.get(name) == service.log.last_seq() for name, service in services.items())


def test_broker_crash_and_league_restart_lose_nothing_and_count_nothing_twice(broker, tmp_path):
    league = League(tmp_path / "league.sqlite3", broker.settings("league")).start()
    tables = [Table(tmp_path, name, broker, seed) for seed, name in enumerate(("t1", "t2"))]
    try:
        for table in tables:
            table.player.start()
        wait_for(lambda: league.store.counted().get("t1", 0) > 60, 20, "the league to follow t1")
        broker.kill()  # SIGKILL mid-game: the tables keep playing into their logs
        wait_for(lambda: all(not t.publisher.link()["connected"] and t.publisher.link()["waiting"] > 0
                             for t in tables), 5, "the tables to notice the broker is gone and keep events")
        broker.start()
        wait_for(lambda: all(t.publisher.link()["connected"] for t in tables), 15, "the tables to reconnect")
        league.close()  # the league goes away while the tables play on: the broker keeps its session
        played = {t.name: t.service.log.last_seq() for t in tables}
        wait_for(lambda: all(t.service.log.last_seq() >= played[t.name] + 20 for t in tables), 5,
                 "the tables to play on while the league is away")
        league = League(tmp_path / "league.sqlite3", broker.settings("league")).start()
        counted = dict(league.store.counted())
        wait_for(lambda: all(league.store.counted().get(t.name, 0) > counted.get(t.name, 0) for t in tables), 5,
                 "the restarted league to count the tables again")
        for table in tables:
            table.player.stop()
        services = {t.name: t.service for t in tables}
        wait_for(lambda: caught_up(league, services), 30, "the league to catch up")
        assert league_standings(league.store) == summed_histories(s.history() for s in services.values())
        health = {row["table"]: row for row in league.store.tables()}
        assert all(row["missing"] == 0 and row["rejected"] == 0 and row["online"] for row in health.values())
        with league.store._lock:
            (count,) = league.store._conn.execute("SELECT count(*) FROM events").fetchone()
        assert count == sum(s.log.count() for s in services.values())
    finally:
        for table in tables:
            table.close()
        league.close()


def spawn(folder: Path, broker, seed: int, steps: int) -> subprocess.Popen:
    child = subprocess.Popen([sys.executable, str(CHILD), str(folder), "t3", str(broker.port),
                              broker.passwords["t3"], str(seed), str(steps)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    return child


def test_a_rig_killed_mid_publish_resumes_from_its_cursor(broker, tmp_path):
    folder = tmp_path / "t3"
    with League(tmp_path / "league.sqlite3", broker.settings("league")) as league:
        child = spawn(folder, broker, seed=5, steps=0)
        wait_for(lambda: league.store.counted().get("t3", 0) > 150, 30, "the league to follow t3")
        child.send_signal(signal.SIGKILL)  # power cut while it plays and publishes
        child.wait(timeout=WAIT_S)
        child.stdout.close()
        with EngineService.open(folder, clock="check") as service:
            logged = service.log.last_seq()
            (cursor,) = service.log._conn.execute("SELECT acked_seq FROM league_outbox").fetchone()
        assert 0 < cursor <= logged
        child = spawn(folder, broker, seed=6, steps=120)
        assert child.stdout.readline().strip() == "acked"
        assert child.wait(timeout=WAIT_S) == 0
        child.stdout.close()
        with EngineService.open(folder, clock="check") as service:
            wait_for(lambda: caught_up(league, {"t3": service}), 20, "the league to catch up with t3")
            assert league_standings(league.store) == summed_histories([service.history()])
            (cursor,) = service.log._conn.execute("SELECT acked_seq FROM league_outbox").fetchone()
            assert cursor == service.log.last_seq()


def test_a_new_league_catches_up_from_retained_state_and_resend_requests(broker, tmp_path):
    table = Table(tmp_path, "t1", broker, seed=9)
    try:
        for _ in range(200):
            table.player.table.step()
        wait_for(lambda: table.publisher.link()["acked"] == table.service.log.last_seq(), 15,
                 "t1's events to be acknowledged")
        # this league was never subscribed: the broker kept nothing for it, only t1's retained state
        with League(tmp_path / "late.sqlite3", broker.settings("league"), client_id="late-league") as league:
            wait_for(lambda: caught_up(league, {"t1": table.service}), 30, "the late league to catch up")
            assert league_standings(league.store) == summed_histories([table.service.history()])
    finally:
        table.close()


def publish_as(broker, account: str, topic: str, payload: bytes):
    """Publish one QoS 1 message as ``account``; returns the broker's PUBACK reason code."""
    acks = []
    client = make_client(f"test-{account}", broker.settings(account))
    client.on_publish = lambda c, u, mid, reason, props: acks.append(reason)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        client.publish(topic, payload, qos=1)
        wait_for(lambda: acks, 5, "the PUBACK")
    finally:
        client.disconnect()
        client.loop_stop()
    return acks[0]


def test_the_acl_refuses_a_table_publishing_under_another_tables_topic(broker, tmp_path):
    with League(tmp_path / "league.sqlite3", broker.settings("league")) as league:
        wait_for(lambda: league.connected, 10, "the league to connect")
        forged = json.dumps({"v": 1, "table": "t2", "seq": 1, "game_id": 1, "batch": 1, "status": "applied",
                             "logged_at": "x", "event": {"type": "game_started", "t_us": 0, "source": "x",
                                                         "players": ["Eve", "Mal", "Oz"]}}).encode()
        reason = publish_as(broker, "t1", "rig/t2/events", forged)
        assert reason.is_failure and reason.getName() == "Not authorized"
        assert publish_as(broker, "league", "rig/t2/events", forged).is_failure  # the league only reads
        # in its own topic a table is heard, but a message naming another table is ignored and counted
        assert not publish_as(broker, "t1", "rig/t1/events", forged).is_failure
        assert not publish_as(broker, "t1", "rig/t1/events", b"\xff garbage").is_failure
        wait_for(lambda: len(league.store.rejects()) == 2, 10, "the league to refuse two messages")
        assert league.store.games() == [] and league.store.counted().get("t2") is None
        assert {row["table"]: row["rejected"] for row in league.store.tables()} == {"t1": 2}


def test_a_publisher_under_the_wrong_account_shows_the_refusal_and_sends_nothing(broker, tmp_path):
    with EngineService.open(tmp_path / "t1", clock="test") as service:
        service.submit({"type": "game_started", "players": ["Ada", "Ben", "Cleo"]})
        with Publisher(database_path(tmp_path / "t1"), "t1", broker.settings("t2"), service=service) as publisher:
            wait_for(lambda: publisher.link()["error"] and publisher.link()["waiting"], 10, "the refusal")
            link = publisher.link()
            assert "Not authorized" in link["error"] and link["acked"] == 0 and link["waiting"] == 1


@pytest.mark.parametrize("account, password", [("t1", "wrong"), ("nobody", "x")])
def test_a_bad_password_is_shown_on_the_link(broker, tmp_path, account, password):
    from dataclasses import replace

    with EngineService.open(tmp_path / "t1", clock="test") as service:
        settings = replace(broker.settings("t1"), username=account, password=password)
        with Publisher(database_path(tmp_path / "t1"), "t1", settings, service=service) as publisher:
            wait_for(lambda: publisher.link()["error"], 10, "the refusal")
            assert "refused the connection" in publisher.link()["error"]
            assert not publisher.link()["connected"]


def test_mqtt_is_version_5():
    assert make_client("x", __import__("rig.league.mqtt", fromlist=["x"]).BrokerSettings())._protocol == mqtt.MQTTv5


def test_a_restarted_league_gets_what_it_missed_from_its_persistent_session(broker, tmp_path):
    table = Table(tmp_path, "t2", broker, seed=3)
    try:
        with League(tmp_path / "league.sqlite3", broker.settings("league")) as league:
            wait_for(lambda: league.connected, 10, "the league to subscribe")
        for _ in range(150):  # played while the league is away: the broker queues it
            table.player.table.step()
        wait_for(lambda: table.publisher.link()["acked"] == table.service.log.last_seq(), 15,
                 "t2's events to be acknowledged")
        with League(tmp_path / "league.sqlite3", broker.settings("league")) as league:
            wait_for(lambda: caught_up(league, {"t2": table.service}), 15, "the league to catch up")
            assert league_standings(league.store) == summed_histories([table.service.history()])
        assert table.publisher.resends == 0  # it all came from the broker's queue, not from a resend
    finally:
        table.close()


def test_tls_with_the_brokers_ca_and_a_clear_error_without_it(tmp_path):
    import shutil
    from dataclasses import replace

    from rig.league.broker import LocalBroker, mosquitto_binary

    if mosquitto_binary() is None or shutil.which("openssl") is None:
        pytest.skip("needs mosquitto and openssl")
    with LocalBroker(["t1"], folder=tmp_path, tls=True) as broker:
        assert broker.settings("t1").tls
        table = Table(tmp_path, "t1", broker, seed=2)
        try:
            for _ in range(60):
                table.player.table.step()
            with League(tmp_path / "league.sqlite3", broker.settings("league")) as league:
                wait_for(lambda: caught_up(league, {"t1": table.service}), 15, "the league to follow over TLS")
            untrusted = replace(broker.settings("t1"), ca_file=None)  # the system's CAs do not know this one
            with Publisher(database_path(tmp_path / "t1"), "t1", untrusted, client_id="untrusted") as publisher:
                wait_for(lambda: publisher.link()["error"], 10, "the failure")
                assert "certificate is not trusted" in publisher.link()["error"]
        finally:
            table.close()

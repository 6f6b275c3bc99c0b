"""The league gets back what its copy lacks, from the table, by seq range (issue 31), through a real
Mosquitto: a league database put back from an older backup, events lost on the way (holes), and a copy
that holds a replaced event the table never sent again (found by the whole-log digest)."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import shutil
import sqlite3
import warnings

from rig.cli import main
from rig.league import audit
from rig.league.app import create_league_app
from rig.league.service import League
from rig.league.store import LeagueStore
from rig.league.topics import EventMessage, StateMessage

from .conftest import league_standings, summed_histories, wait_for
from .test_live import Table, caught_up

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def play(table: Table, steps: int) -> None:
    for _ in range(steps):
        table.player.table.step()
    wait_for(lambda: table.publisher.link()["acked"] == table.service.log.last_seq(), 15,
             f"{table.name}'s events to be acknowledged")


def stored(league_path) -> int:
    with sqlite3.connect(league_path) as conn:
        return conn.execute("SELECT count(*) FROM events").fetchone()[0]


def table_messages(table: Table) -> list[EventMessage]:
    log_id = table.publisher._log_id()
    return [EventMessage(table.name, e.seq, e.game_id, e.batch, e.status, e.reason, e.logged_at, e.event, log=log_id)
            for e in table.service.log.events()]


def settled(league, table) -> bool:
    row = {r["table"]: r for r in league.store.tables()}.get(table.name)
    return caught_up(league, {table.name: table.service}) and row is not None and row["log"]["state"] == "same"


def test_a_league_put_back_from_an_older_backup_gets_the_rest_from_the_table(broker, tmp_path):
    path, backup = tmp_path / "league.sqlite3", tmp_path / "backup.sqlite3"
    table = Table(tmp_path, "t1", broker, seed=4)
    try:
        with League(path, broker.settings("league")) as league:
            play(table, 120)
            wait_for(lambda: settled(league, table), 15, "the league to follow t1")
            with sqlite3.connect(path) as source, sqlite3.connect(backup) as copy:
                source.backup(copy)  # the night's backup
            backed_up = table.service.log.last_seq()
            play(table, 120)
            wait_for(lambda: settled(league, table), 15, "the league to follow t1 further")
        for suffix in ("", "-wal", "-shm"):  # the league's disk is lost; the backup is put back
            (tmp_path / f"league.sqlite3{suffix}").unlink(missing_ok=True)
        shutil.copy(backup, path)
        assert stored(path) == backed_up
        logged = table.service.log.last_seq()
        with League(path, broker.settings("league")) as league:  # the table plays no more: nothing new comes
            wait_for(lambda: settled(league, table), 30, "the league to get the events after its backup back")
            assert league_standings(league.store) == summed_histories([table.service.history()])
            (row,) = league.store.tables()
            assert row["missing"] == 0 and row["rejected"] == 0 and row["have"] == logged
        assert stored(path) == logged  # each event once
        assert table.publisher.resends >= 1
        # the range asked for, not the whole log; not all of it either: under load the broker can still hold events
        # the closed league had not acknowledged, and gives them to the new one on its (persistent) session
        assert 1 <= table.publisher.replayed < logged
    finally:
        table.close()


def test_events_lost_on_the_way_are_asked_for_by_range(broker, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="rig.league.publisher")
    path = tmp_path / "league.sqlite3"
    table = Table(tmp_path, "t2", broker, seed=6)
    try:
        play(table, 150)
        before = table.service.log.last_seq()
        stream = table_messages(table)
        assert len(stream) > 100
        store = LeagueStore(path)  # the league had everything but #40-55 and #90-95 (lost messages)
        store.apply(stream[:39] + stream[55:89] + stream[95:])
        assert store.gaps("t2") == [(40, 55), (90, 95)]
        store.close()
        with League(path, broker.settings("league")) as league:
            play(table, 30)  # the table plays on; the league notices the holes and asks for them
            wait_for(lambda: settled(league, table), 30, "the league to fill its holes")
            assert league_standings(league.store) == summed_histories([table.service.history()])
            assert league.store.gaps("t2") == []
        assert stored(path) == table.service.log.last_seq()
        asked = [(int(a), int(b)) for a, b in re.findall(r"asked for t2 #(\d+)-(\d+) again", caplog.text)]
        # exactly the holes, by seq; and, on a loaded machine, what the league may ask for again by design: a
        # hole's part still not in after RESEND_EVERY_S, or the stream's head when it stalled RESEND_AFTER_S
        # behind the table's retained state (events played after the league started, #before+1 on)
        assert asked[:2] == [(40, 55), (90, 95)], asked
        assert all(40 <= a <= b <= 55 or 90 <= a <= b <= 95 or a > before for a, b in asked[2:]), asked
        total = sum(b - a + 1 for a, b in asked)
        wait_for(lambda: table.publisher.replayed == total, 15, f"the table to replay the ranges asked for, {asked}")
    finally:
        table.close()


def played_stream(tmp_path, broker, name: str, *, seed: int, turns: int = 100) -> list[EventMessage]:
    """The event messages of a table that played *turns* inputs, the table closed again."""
    table = Table(tmp_path, name, broker, seed=seed)
    try:
        play(table, turns)
        return table_messages(table)
    finally:
        table.close()


def asking_league(tmp_path, broker) -> tuple[League, list[tuple[int, int | None]]]:
    """A league on its own store, not started, that notes the resend requests it would send."""
    league = League(tmp_path / "league.sqlite3", broker.settings("league"))
    league.store, league.connected, asked = LeagueStore(tmp_path / "league.sqlite3"), True, []
    league._ask = lambda _table, first, last: asked.append((first, last))
    return league, asked


def test_a_hole_asks_for_the_stream_head_only_once_the_head_stalls_too(broker, tmp_path):
    """The retained state announces seq 100 while #90-100 are still on their way (a loaded league folds
    late): the hole #40-55 is asked for at once, the head only if it stops coming (it came: 24 replayed, not 22)."""
    stream = played_stream(tmp_path, broker, "t2", seed=6)
    league, asked = asking_league(tmp_path, broker)
    head = len(stream)
    try:
        league.store.apply(stream[:39] + stream[55:89] + [StateMessage("t2", head, {})])
        league._ask_for_missing(0.0)
        league._ask_for_missing(1.0)
        league.store.apply(stream[89:95])  # the head moves on
        league._ask_for_missing(2.0)
        assert asked == [(40, 55)]
        league._ask_for_missing(3.0)
        league._ask_for_missing(4.0)
        assert asked == [(40, 55)]  # at most every RESEND_EVERY_S
        league._ask_for_missing(7.0)  # the head stood still since 2.0: now it is missing too
        assert asked == [(40, 55), (40, 55), (96, head)]
    finally:
        league.store.close()


def test_a_replaced_event_the_table_never_sent_again_is_found_and_named(broker, tmp_path, capsys):
    path = tmp_path / "league.sqlite3"
    table = Table(tmp_path, "t3", broker, seed=8)
    try:
        play(table, 100)
        stream = table_messages(table)
        forged = dataclasses.replace(stream[9], event={**stream[9].event, "t_us": 123})
        store = LeagueStore(path)  # a forgery took #10's place and the real one never reached the league
        store.apply(stream[:9] + [forged] + stream[10:])
        assert store.tables()[0]["missing"] == 0 and store.tables()[0]["rejected"] == 0
        store.close()
        with League(path, broker.settings("league")) as league:
            # the table's retained digest may lag its log (refreshed at most every second): wait for the one
            # of the whole log, and for the block it adds to be replayed
            wait_for(lambda: league.store.tables()[0]["log"]["conflicts"] == [10]
                     and league.store.tables()[0]["log"]["checked_seq"] == table.service.log.last_seq()
                     and table.publisher.replayed == 64, 30,
                     "the league to compare the whole log and name event #10")
            (row,) = league.store.tables()
            assert row["log"]["state"] == "differs" and row["log"]["differs"] == [[1, 64]]
            assert row["have"] == table.service.log.last_seq() and row["missing"] == 0  # the count alone agreed
            body = TestClient(create_league_app(league.store, status=league.status)).get("/api/tables").json()
            assert "arrived with other content: #10" in body["tables"][0]["log"]["text"]
            assert table.publisher.replayed == 64  # the block that differs, asked for again
            assert main(["league", "--health", "--data-dir", str(tmp_path)]) == 1  # beside the running league
            out = capsys.readouterr().out
            assert "t3: online" in out and "log differs" in out and "other content: #10" in out
        before = {f.name: (f.read_bytes(), f.stat().st_mtime_ns) for f in tmp_path.iterdir() if f.is_file()}
        assert not any(name.endswith(("-wal", "-shm")) for name in before)
        assert main(["league", "--health", "--data-dir", str(tmp_path)]) == 1  # the league stopped: immutable
        assert "log differs" in capsys.readouterr().out
        assert {f.name: (f.read_bytes(), f.stat().st_mtime_ns) for f in tmp_path.iterdir() if f.is_file()} == before
    finally:
        table.close()


def digest_of(messages: list[EventMessage]) -> audit.DigestMessage:
    digest = audit.LogDigest()
    for m in messages:
        digest.add_row((m.seq, m.game_id, m.batch, m.status, m.reason, m.logged_at, json.dumps(m.event)))
    return digest.message(messages[0].table, messages[0].log)


def test_a_digest_that_covers_more_of_the_log_asks_only_for_the_events_it_adds(broker, tmp_path):
    """The league read the table's digest of an earlier seq first (it lags the log), then the whole log's:
    each differing event is asked for once, not the overlap again (a stale-then-fresh digest made it 94)."""
    stream = played_stream(tmp_path, broker, "t3", seed=8)
    forged = dataclasses.replace(stream[9], event={**stream[9].event, "t_us": 123})
    league, asked = asking_league(tmp_path, broker)
    try:
        league.store.apply(stream[:9] + [forged] + stream[10:] + [digest_of(stream[:30])])
        league._ask_for_missing(0.0)
        assert asked == [(1, 30)]
        league.store.apply([digest_of(stream)])
        league._ask_for_missing(1.0)
        league._ask_for_missing(2.0)
        assert asked == [(1, 30), (31, 64)]
        assert league.store.tables()[0]["log"]["differs"] == [[1, 64]]
    finally:
        league.store.close()

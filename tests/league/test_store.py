"""The league's fold without a broker: de-duplication, holes, bad events, standings = histories."""

import random

from rig.engine.service import EngineService
from rig.league.simtable import SimTable
from rig.league.store import LeagueStore
from rig.league.topics import EventMessage

from .conftest import league_standings, summed_histories


def played(seed: int, steps: int) -> EngineService:
    service = EngineService.in_memory(clock="sim")
    table = SimTable(service, seed=seed)
    for _ in range(steps):
        table.step()
    return service


def messages(table: str, service: EngineService) -> list[EventMessage]:
    return [EventMessage(table, e.seq, e.game_id, e.batch, e.status, e.reason, e.logged_at, e.event)
            for e in service.log.events()]


def test_shuffled_duplicated_events_of_three_tables_give_the_tables_own_standings():
    rng = random.Random(3)
    services = {f"t{i}": played(i, 400 + 50 * i) for i in range(3)}
    stream = [m for name, service in services.items() for m in messages(name, service)]
    stream += rng.sample(stream, len(stream) // 3)  # duplicates
    rng.shuffle(stream)
    store = LeagueStore(":memory:")
    new = sum(store.apply(stream[i:i + 97]) for i in range(0, len(stream), 97))
    assert new == sum(s.log.count() for s in services.values())
    assert league_standings(store) == summed_histories(s.history() for s in services.values())
    assert {t["table"]: t["have"] for t in store.tables()} == {n: s.log.last_seq() for n, s in services.items()}
    finished = store.games(status="over")
    assert finished and all(g["winner"] in g["players"] for g in finished)


def test_an_event_after_a_hole_waits_until_the_hole_is_filled():
    service = played(1, 30)
    stream = messages("t1", service)
    store = LeagueStore(":memory:")
    store.apply(stream[:5] + stream[6:])
    (table,) = store.tables()
    assert (table["have"], table["known_last"], table["missing"], table["waiting"]) == (5, len(stream),
                                                                                          len(stream) - 5,
                                                                                          len(stream) - 6)
    store.apply([stream[5]])
    assert store.tables()[0]["have"] == len(stream)
    assert league_standings(store) == summed_histories([service.history()])


def test_events_the_engine_cannot_fold_mark_the_game_unreadable_without_stopping_the_league():
    store = LeagueStore(":memory:")
    start = EventMessage("t1", 1, 1, 1, "applied", None, "x",
                         {"type": "game_started", "t_us": 0, "source": "x", "players": ["Ada", "Ben", "Cleo"]})
    nonsense = EventMessage("t1", 2, 1, 2, "applied", None, "x", {"type": "teleport", "t_us": 1, "source": "x"})
    assert store.apply([start, nonsense]) == 2
    (game,) = store.games()
    assert game["status"] == "unreadable" and "cannot fold" in game["error"]
    assert store.standings() == []
    other = played(2, 60)
    store.apply(messages("t2", other))
    assert league_standings(store) == summed_histories([other.history()])


def test_a_league_database_is_not_some_other_file(tmp_path):
    import sqlite3

    import pytest

    from rig.engine.errors import LogError

    path = tmp_path / "other.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE x (y)")
    with pytest.raises(LogError, match="not a league database"):
        LeagueStore(path)
    store = LeagueStore(tmp_path / "league.sqlite3")
    store.close()
    LeagueStore(tmp_path / "league.sqlite3").close()  # reopening its own file is fine


def test_a_table_that_starts_a_new_event_log_is_refused_not_mixed_in():
    first, second = played(1, 80), played(2, 80)
    store = LeagueStore(":memory:")
    store.apply([EventMessage("t1", m.seq, m.game_id, m.batch, m.status, m.reason, m.logged_at, m.event, log="A")
                 for m in messages("t1", first)])
    before = league_standings(store)
    new_log = [EventMessage("t1", m.seq, m.game_id, m.batch, m.status, m.reason, m.logged_at, m.event, log="B")
               for m in messages("t1", second)]
    assert store.apply(new_log) == 0
    assert league_standings(store) == before == summed_histories([first.history()])
    assert "new event log" in store.rejects(1)[0]["reason"] and store.tables()[0]["rejected"] == len(new_log)

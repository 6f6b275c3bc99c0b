import sqlite3

import pytest

from rig.engine.errors import LogError
from rig.engine.log import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, EventLog, Pending

TOSS = {"type": "toss", "t_us": 5, "source": "gpio", "player": "Ben"}


def test_append_and_read_back_in_order(tmp_path):
    with EventLog(tmp_path / "rig.sqlite3") as log:
        first = log.append(TOSS, game_id=1)
        second = log.append({**TOSS, "t_us": 6}, game_id=1, status="refused", reason="nope")
        rows = log.events()
    assert [r.seq for r in rows] == [first, second] == [1, 2]
    assert rows[0].event == TOSS and rows[0].status == "applied"
    assert (rows[1].status, rows[1].reason) == ("refused", "nope")


def test_wal_and_full_sync(tmp_path):
    with EventLog(tmp_path / "rig.sqlite3") as log:
        facts = log.check()
    assert facts["journal_mode"] == "wal"
    assert facts["synchronous"] == "FULL"
    assert facts["schema_version"] == SCHEMA_VERSION
    assert facts["integrity"] == "ok"


def test_batch_shares_an_id_and_a_new_game_gets_its_own_seq(tmp_path):
    with EventLog(tmp_path / "rig.sqlite3") as log:
        log.append(TOSS)
        seqs = log.append_batch([Pending({"type": "game_ended", "t_us": 1, "source": "engine"}, game_id=None),
                                 Pending({"type": "game_started", "t_us": 1, "source": "api", "players": []},
                                         new_game=True)])
        rows = log.events()
    assert seqs == [2, 3]
    assert rows[1].batch == rows[2].batch == 2
    assert rows[2].game_id == 3
    assert log_ids_after_reopen(tmp_path) == [3]


def log_ids_after_reopen(tmp_path):
    with EventLog(tmp_path / "rig.sqlite3") as log:
        return log.game_ids()


def test_reopening_keeps_everything(tmp_path):
    path = tmp_path / "rig.sqlite3"
    with EventLog(path) as log:
        for i in range(5):
            log.append({**TOSS, "t_us": i})
    with EventLog(path) as log:
        assert [r.event["t_us"] for r in log.events()] == [0, 1, 2, 3, 4]
        assert log.schema_version == SCHEMA_VERSION


def test_a_text_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "rig.sqlite3"
    path.write_text("my shopping list\n")
    with pytest.raises(LogError, match="not a SQLite database"):
        EventLog(path)
    assert path.read_text() == "my shopping list\n"
    assert not (tmp_path / "rig.sqlite3-wal").exists()


def test_a_foreign_sqlite_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "rig.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('soup')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(LogError, match="another program"):
        EventLog(path)
    assert path.read_bytes() == before


def test_a_database_from_a_newer_rig_is_refused(tmp_path):
    path = tmp_path / "rig.sqlite3"
    EventLog(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(LogError, match="newer rig"):
        EventLog(path)
    assert path.read_bytes() == before


def test_a_damaged_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "rig.sqlite3"
    with EventLog(path) as log:
        log.append_batch([Pending({**TOSS, "t_us": i, "pad": "x" * 200}) for i in range(300)])
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data) - page, page):  # scribble over every page but the first
        data[offset:offset + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(LogError, match="left untouched"):
        EventLog(path)
    assert path.read_bytes() == before


def test_migrates_a_version_1_log(tmp_path):
    path = tmp_path / "rig.sqlite3"
    conn = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO events (game_id, batch, type, t_us, source, status, logged_at, body) "
                 "VALUES (NULL, 1, 'toss', 5, 'gpio', 'applied', 'then', '{\"type\": \"toss\"}')")
    conn.commit()
    conn.close()
    with EventLog(path) as log:
        assert log.schema_version == SCHEMA_VERSION == 5
        assert log.games() == []
        assert log.events()[0].event == {"type": "toss"}


def test_a_folder_in_the_way_is_refused(tmp_path):
    (tmp_path / "rig.sqlite3").mkdir()
    with pytest.raises(LogError, match="folder"):
        EventLog(tmp_path / "rig.sqlite3")


def test_create_false_does_not_create(tmp_path):
    with pytest.raises(LogError, match="no event log"):
        EventLog(tmp_path / "rig.sqlite3", create=False)
    assert not (tmp_path / "rig.sqlite3").exists()

"""Read-only commands leave the event log alone (issue 31): ``rig history`` and its exports open the file
``mode=ro&immutable=1`` when no ``-wal`` is beside it (a stopped rig), ``mode=ro`` when a rig is running;
the file's bytes and mtime stay the same and no ``-wal``/``-shm`` appears."""

from __future__ import annotations

import json
import os

import pytest

from rig.cli import main
from rig.engine.log import connect_read_only
from rig.engine.paths import database_path
from rig.engine.service import EngineService

from .test_history import finished_game

COMMANDS = (["--json"], [], ["--export", "csv"], ["--export", "json"], ["--dice"])


def snapshot(folder):
    """Every file in the data folder: its bytes and mtime."""
    return {path.name: (path.read_bytes(), path.stat().st_mtime_ns) for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("options", COMMANDS, ids=lambda o: " ".join(o) or "text")
def test_history_of_a_stopped_rig_touches_nothing(tmp_path, capsys, options):
    finished_game(tmp_path)
    before = snapshot(tmp_path)
    assert not any(name.endswith(("-wal", "-shm")) for name in before)  # a clean stop checkpoints the WAL
    assert main(["history", "--data-dir", str(tmp_path), *options]) == 0
    assert capsys.readouterr().out
    assert snapshot(tmp_path) == before


def test_history_beside_a_running_rig_reads_its_wal_and_creates_nothing(tmp_path, capsys):
    finished_game(tmp_path)
    with EngineService.open(tmp_path, clock="sim") as service:  # the rig runs: its -wal holds new events
        service.submit({"type": "game_started", "t_us": 9, "players": ["Zoe", "Yan", "Xia"]})
        names = sorted(path.name for path in tmp_path.iterdir())
        db = database_path(tmp_path)
        main_file = (db.read_bytes(), db.stat().st_mtime_ns)
        assert main(["history", "--data-dir", str(tmp_path), "--json"]) == 0
        history = json.loads(capsys.readouterr().out)
        assert history["games"][0]["players"] == ["Zoe", "Yan", "Xia"]  # what is still only in the -wal
        assert sorted(path.name for path in tmp_path.iterdir()) == names
        assert (db.read_bytes(), db.stat().st_mtime_ns) == main_file


def test_a_wal_without_its_shm_is_refused_in_one_line_and_nothing_is_created(tmp_path, capsys):
    finished_game(tmp_path)
    db = database_path(tmp_path)
    with EngineService.open(tmp_path, clock="sim") as service:
        service.submit({"type": "game_started", "t_us": 9, "players": ["Zoe", "Yan", "Xia"]})
        wal = db.with_name(db.name + "-wal").read_bytes()
    db.with_name(db.name + "-wal").write_bytes(wal)  # as a crash with the -shm removed leaves it
    before = snapshot(tmp_path)
    assert main(["history", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no rig.sqlite3-shm" in err and "Traceback" not in err
    assert snapshot(tmp_path) == before


def test_an_immutable_connection_cannot_write(tmp_path):
    finished_game(tmp_path)
    db = database_path(tmp_path)
    conn = connect_read_only(db)
    try:
        with pytest.raises(Exception, match="readonly"):
            conn.execute("DELETE FROM events")
    finally:
        conn.close()
    assert sorted(os.listdir(tmp_path)) == sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm")))

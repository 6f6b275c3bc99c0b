"""Storage refusals (issue 31): a refused database is never written (not by the checkpoint SQLite runs
when a connection closes), a full disk at the first start leaves no empty file behind and is named as
a full disk (not damage), a byte that is not UTF-8 in a logged body is reported as damage, never a crash."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys

import pytest

from rig.bench.storage import foreign, newer
from rig.engine.errors import LogError
from rig.engine.log import APPLICATION_ID, EventLog

TOSS = {"type": "toss", "t_us": 5, "source": "gpio", "player": "Ben"}


def fingerprint(folder):
    """Size and digest of every file but SQLite's shared-memory index (-shm: rebuilt from the WAL)."""
    return {p.name: (p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted(folder.iterdir()) if not p.name.endswith("-shm")}


def with_live_wal(path, build):
    """A database whose last writes are still in its -wal, as a crash (or a live writer) leaves it."""
    scratch = path.parent / "scratch"
    scratch.mkdir()
    conn = sqlite3.connect(scratch / path.name, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    build(conn)
    for part in scratch.iterdir():  # copied while the connection is open: the WAL is live
        shutil.copy(part, path.parent / part.name)
    conn.close()
    shutil.rmtree(scratch)
    assert (path.parent / (path.name + "-wal")).stat().st_size > 0


def unknown_tables(conn):
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("CREATE TABLE rig_meta (key TEXT)")


@pytest.mark.parametrize("build,words", [(foreign, "another program"), (newer, "newer rig"),
                                         (unknown_tables, "damaged")])
def test_a_refused_database_with_a_live_wal_stays_byte_identical(tmp_path, build, words):
    path = tmp_path / "rig.sqlite3"
    with_live_wal(path, build)
    before = fingerprint(tmp_path)
    with pytest.raises(LogError, match=words):
        EventLog(path)
    assert fingerprint(tmp_path) == before  # the main file did not grow, the -wal was not checkpointed away


FILL = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))  # a disk with no room beyond this
from rig.engine.log import open_log
from rig.errors import RigError
try:
    open_log(sys.argv[1]).close()  # what rig run does first
except RigError as exc:
    print(exc, file=sys.stderr)
    sys.exit(getattr(exc, "exit_code", 2))  # as rig.cli.main does
"""


def run_on_a_full_disk(data_dir, limit=0):
    return subprocess.run([sys.executable, "-c", FILL.format(limit=limit), str(data_dir)], capture_output=True,
                          text=True, timeout=300)


def test_a_full_disk_at_the_first_start_leaves_nothing_behind_and_says_so(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    child = run_on_a_full_disk(data)
    assert child.returncode == 75, child.stderr  # not 2: systemd restarts the rig until there is room
    assert "disk is full" in child.stderr or "storage failed" in child.stderr, child.stderr
    assert "rescue" not in child.stderr and child.stderr.count("\n") == 1
    assert list(data.iterdir()) == []  # no empty rig.sqlite3 refusing every later start
    with EventLog(data / "rig.sqlite3") as log:  # room again: it starts by itself
        log.append(TOSS)
        assert log.count() == 1


def test_a_full_disk_with_a_healthy_database_is_not_called_damage(tmp_path):
    data = tmp_path / "data"
    with EventLog(data / "rig.sqlite3") as log:
        log.append(TOSS)
    for part in data.glob("rig.sqlite3-*"):
        part.unlink()
    before = fingerprint(data)
    child = run_on_a_full_disk(data, limit=1)  # not even the -wal or -shm can be made
    assert child.returncode in (0, 75), child.stderr
    if child.returncode == 75:
        assert "rescue" not in child.stderr and "damaged" not in child.stderr, child.stderr
    after = {name: v for name, v in fingerprint(data).items() if not (name.endswith("-wal") and v[0] == 0)}
    assert after == before or child.returncode == 0  # an empty -wal SQLite made is no change


def test_a_byte_that_is_not_utf8_in_a_logged_body_is_damage_not_a_crash(tmp_path):
    path = tmp_path / "rig.sqlite3"
    with EventLog(path) as log:
        log.append(TOSS)
        log.append({**TOSS, "t_us": 6})
    conn = sqlite3.connect(path, isolation_level=None)
    body = conn.execute("SELECT body FROM events WHERE seq = 2").fetchone()[0].encode()
    conn.execute("UPDATE events SET body = CAST(? AS TEXT) WHERE seq = 2", (body.replace(b"Ben", b"B\xffn"),))
    conn.close()
    with EventLog(path) as log:
        first, second = log.events()
    assert first.damage is None and first.event == TOSS
    assert second.damage and "surrogate" in second.damage
    from rig.bench.fuzz import _run_cli

    code, err = _run_cli(["history", "--data-dir", str(tmp_path)])
    assert code in (0, 2) and "Traceback" not in err



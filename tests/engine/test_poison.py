"""No logged event, old poison or damaged file can break the engine: strict at the door, the fold
skips what it cannot apply (with a notice naming the database), schema 3 cleans old logs, damaged
files are refused with one line that says what to do (including -wal/-shm), a full disk loses nothing."""

from __future__ import annotations

import json
import os
import random
import sqlite3

import pytest

from rig.engine.errors import EventFormatError, LogError
from rig.engine.log import SCHEMA_VERSION, EventLog
from rig.engine.service import EngineService
from tests.waiting import wait_until

PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]
DEEP: list = [1]
for _ in range(40):
    DEEP = [DEEP]


def strict(value) -> str:
    return json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8").decode()


def started(tmp_path) -> EngineService:
    service = EngineService.open(tmp_path, clock="sim")
    service.submit({"type": "game_started", "players": PLAYERS})
    service.press("Ada", 1_000)
    return service


@pytest.mark.parametrize("event", [
    {"type": "toss", "player": float("nan")},
    {"type": "toss", "player": "Ben", "t_us": float("inf")},
    {"type": "toss", "player": "Ben", "t_us": 2**63},
    {"type": "toss", "player": "Ben", "t_us": 10**400},
    {"type": "toss", "player": "\ud800"},
    {"type": "\ud800", "player": "Ben"},
    {"type": "toss", "player": "Ben", "source": "\ud800"},
    {"type": "card_revealed", "card": "pink", "confidence": float("nan")},
    {"type": "game_started", "players": ["Ada", "B\ud800", "Cleo"]},
    {"type": "game_started", "players": ["Ada", "Ben\x00", "Cleo"]},
    {"type": "game_started", "players": ["Ada", "Eve\u202e", "Cleo"]},
    {"type": "game_started", "players": ["Ada", "x" * 125_000, "Cleo"]},
    {"type": "roll_settled", "dice": ["pink"] * 6, "reading": {"a": DEEP}},
])
def test_poison_is_refused_at_the_door_and_never_poisons_the_state(tmp_path, event):
    with started(tmp_path) as service:
        with pytest.raises(EventFormatError):
            service.submit(event)
        strict(service.state())
        strict(service.history())
    with EngineService.open(tmp_path, clock="sim") as again:  # the refusal is logged: replay it
        state = again.state()
        strict(state)
        strict(again.history())
        assert state["game"]["players"] == PLAYERS and state["turn"]["phase"] != "waiting"


def _poison_a_schema_2_log(path):
    """What a log written before the boundary looks like: NaN, 1e400 and a lone surrogate logged."""
    conn = sqlite3.connect(path)
    rows = [("refused", '{"player":NaN,"source":"display","t_us":5,"type":"toss"}'),
            ("refused", '{"player":"Ben","source":"display","t_us":1e400,"type":"toss"}'),
            ("refused", '{"player":"\\ud800","source":"display","t_us":7,"type":"toss"}')]
    for status, body in rows:
        conn.execute("INSERT INTO events (game_id, batch, type, t_us, source, status, reason, logged_at, body) "
                     "VALUES (1, 0, 'toss', 5, 'display', ?, 'refused', 'then', ?)", (status, body))
    conn.execute("UPDATE events SET batch = seq WHERE batch = 0")
    conn.execute("UPDATE games SET players = ? WHERE game_id = 1", ('["Ada","\\ud800"]',))
    conn.execute("DROP TABLE requests")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()


def test_schema_3_cleans_a_poisoned_log_and_the_game_resumes(tmp_path):
    with started(tmp_path) as service:
        phase = service.state()["turn"]["phase"]
        path = service.log.path
    _poison_a_schema_2_log(path)
    with EngineService.open(tmp_path, clock="sim") as service:
        assert service.log.schema_version == SCHEMA_VERSION
        state = service.state()
        strict(state)
        strict(service.history())
        assert state["game"]["players"] == PLAYERS and state["turn"]["phase"] == phase  # the game resumes
        assert any(n["player"] == "\\ud800" for n in state["notices"])  # shown, made safe
        assert [g["players"] for g in service.history()["games"]] == [PLAYERS]  # summaries rebuilt


#: rows a damaged or tampered log may hold: a card no game has, a body cut short, a list, no type
TAMPERED = [
    '{"card":"purple","source":"display","t_us":9,"type":"card_revealed"}',
    '{"player":"Ada","source":"gpio","t_us":1000,"type":"turn_started"',  # one byte cut
    '["a list", "not an object"]',
    '{"source":"gpio","t_us":1000}',  # no type
]


def _tamper(path, seq_of, body):
    conn = sqlite3.connect(path)
    seq = conn.execute(seq_of).fetchone()[0]
    conn.execute("UPDATE events SET body = ? WHERE seq = ?", (body, seq))
    conn.commit()
    conn.close()
    return seq


@pytest.mark.parametrize("body", TAMPERED)
def test_a_tampered_event_is_skipped_with_a_notice_naming_the_database(tmp_path, body):
    with started(tmp_path) as service:
        path = service.log.path
    seq = _tamper(path, "SELECT max(seq) FROM events WHERE status = 'applied'", body)
    with EngineService.open(tmp_path, clock="sim") as service:
        state = service.state()
        strict(state)
        skipped = [n for n in state["notices"] if n["type"] == "skipped"]
        assert skipped and f"#{seq}" in skipped[0]["reason"] and str(path) in skipped[0]["reason"]
        assert state["game"]["players"] == PLAYERS
        service.press("Ada", 2_000_000)  # and the rig plays on
        strict(service.state())


def test_an_undo_with_nothing_to_undo_in_a_tampered_log_is_skipped(tmp_path):
    with started(tmp_path) as service:
        path = service.log.path
    _tamper(path, "SELECT max(seq) FROM events WHERE status = 'applied'",
            '{"source":"display","t_us":9,"type":"correction","what":"undo"}')
    conn = sqlite3.connect(path)
    conn.execute("UPDATE events SET body = ? WHERE seq = 1",
                 ('{"source":"display","t_us":9,"type":"correction","what":"undo"}',))
    conn.commit()
    conn.close()
    with EngineService.open(tmp_path, clock="sim") as service:
        strict(service.state())


def _refused_line(path) -> str:
    with pytest.raises(LogError) as refused:
        EngineService.open(path.parent, clock="sim")
    message = str(refused.value)
    assert "\n" not in message and str(path) in message
    return message


def test_a_dropped_table_and_a_0_byte_file_are_refused_naming_the_wal_and_shm(tmp_path):
    with started(tmp_path) as service:
        path = service.log.path
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE games")
    conn.commit()
    conn.close()
    message = _refused_line(path)
    assert "'games' is missing" in message and "rig.sqlite3-wal" in message and "rig.sqlite3-shm" in message
    path.unlink()
    path.write_bytes(b"")
    assert "0 bytes" in _refused_line(path)
    assert path.stat().st_size == 0  # left untouched, never re-created


def test_random_byte_flips_either_open_cleanly_or_are_refused_in_one_line(tmp_path):
    """The campaign that found tracebacks at start-up: 20 seeded byte flips in a real log."""
    source = tmp_path / "source"
    with started(source) as service:
        for n in range(30):
            service.press(PLAYERS[1 + n % 3], 2_000_000 + n)
        path = service.log.path
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    original = path.read_bytes()
    rng = random.Random(16)
    outcomes = []
    for trial in range(20):
        data = bytearray(original)
        for _ in range(rng.choice([1, 1, 4])):
            data[rng.randrange(100, len(data))] ^= 1 << rng.randrange(8)
        folder = tmp_path / f"t{trial}"
        folder.mkdir()
        (folder / "rig.sqlite3").write_bytes(bytes(data))
        try:
            with EngineService.open(folder, clock="sim") as service:
                strict(service.state())
                strict(service.history())
            outcomes.append("opened")
        except LogError as exc:
            assert "\n" not in str(exc) and "rig.sqlite3" in str(exc)
            outcomes.append("refused")
    assert len(outcomes) == 20


def test_rig_history_refuses_a_damaged_database_in_one_line(tmp_path, capsys):
    from rig.cli import main

    with started(tmp_path) as service:
        path = service.log.path
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE events")
    conn.commit()
    conn.close()
    assert main(["history", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rig.sqlite3-wal" in err


def test_a_full_disk_is_a_clean_error_a_notice_and_loses_no_press(tmp_path):
    """SQLITE_FULL injected through max_page_count (a real SQLite 'database or disk is full')."""
    with started(tmp_path) as service:
        service.retry_s = 0.05
        conn = service.log._conn
        conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")
        with pytest.raises(LogError) as full:
            for n in range(500):
                service.submit({"type": "violation", "kind": "test", "detail": "x" * 200})
        assert "disk is full" in str(full.value) and "rollback" not in str(full.value)
        before = service.version
        results = service.press("Ben", 5_000_000)  # a toss during the outage
        assert results and not results[0]["ok"] and "kept" in results[0]["reason"]
        state = service.state()
        assert state["outage"]["waiting"] == 1
        assert "disk is full" in state["outage"]["reason"]
        conn.execute("PRAGMA max_page_count = 1000000")  # space again
        wait_until(lambda: not service.backlog, "the backlog to be written")
        assert not service.backlog and service.outage is None and service.version > before
        assert any(t["player"] == "Ben" for t in service.state()["turn"]["tosses"])
    with EventLog(tmp_path / "rig.sqlite3") as log:
        assert [e.event["t_us"] for e in log.events() if e.event.get("player") == "Ben"][-1] == 5_000_000


def _crashed_copy(tmp_path):
    """The data folder as a power cut leaves it: the database and its -wal (the rig never closed)."""
    import shutil

    service = started(tmp_path / "live")
    for n in range(40):
        service.press(PLAYERS[1 + n % 3], 2_000_000 + n)
    copy = tmp_path / "copy"
    copy.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(service.log.path.with_name("rig.sqlite3" + suffix), copy / ("rig.sqlite3" + suffix))
    expected = service.state()
    service.close()
    return copy, expected


def test_a_damaged_wal_is_refused_instead_of_dropping_acknowledged_events(tmp_path):
    copy, _ = _crashed_copy(tmp_path)
    wal = copy / "rig.sqlite3-wal"
    data = bytearray(wal.read_bytes())
    data[32 + 24 + 100] ^= 0x01  # a bit flips in the first frame's page
    wal.write_bytes(bytes(data))
    message = _refused_line(copy / "rig.sqlite3")
    assert "rig.sqlite3-wal is damaged" in message and "committed frame" in message
    assert wal.read_bytes() == bytes(data)  # left untouched


def test_a_wal_cut_short_by_a_crash_opens_with_every_committed_event(tmp_path):
    copy, expected = _crashed_copy(tmp_path)
    wal = copy / "rig.sqlite3-wal"
    wal.write_bytes(wal.read_bytes()[:-100])  # the last frame half-written: never acknowledged
    with EngineService.open(copy, clock="sim") as service:
        state = service.state()
        assert state["game"]["players"] == PLAYERS
        assert state["version"] <= expected["version"]


FULL_DISK_CHILD = r"""
import json, os, sys, time
from rig.engine.errors import LogError
from rig.engine.service import EngineService
folder = sys.argv[1]
os.system(f"mount -t tmpfs -o size=384k tmpfs {folder}")
filler = os.path.join(folder, "filler")
with open(filler, "wb") as handle:
    handle.write(b"x" * 200_000)
out = {}
with EngineService.open(os.path.join(folder, "data"), clock="sim") as service:
    service.retry_s = 0.05
    service.submit({"type": "game_started", "players": ["Ada", "Ben", "Cleo", "Dev"]})
    service.press("Ada", 1_000)
    try:
        for n in range(5000):
            service.submit({"type": "violation", "kind": "test", "detail": "x" * 500})
    except LogError as exc:
        out["error"] = str(exc)
    presses = 0
    while not service.backlog and presses < 500:  # what still fits is written; then they wait
        service.press("Ben", 9_000_000 + presses)
        presses += 1
    for extra in range(2):
        service.press("Cleo", 9_900_000 + extra)
    out["outage"] = service.state().get("outage")
    os.remove(filler)
    while service.backlog:  # written once there is space (the parent's timeout bounds the wait)
        time.sleep(0.02)
    times = [e.event["t_us"] for e in service.log.events() if e.event.get("type") == "toss"]
    out["lost"] = sorted(set([9_000_000 + n for n in range(presses)] + [9_900_000, 9_900_001]) - set(times))
    out["backlog"] = len(service.backlog)
print(json.dumps(out))
"""


def test_a_real_full_filesystem(tmp_path):
    """A 384 KiB tmpfs in a private mount namespace (root only; skipped elsewhere)."""
    import shutil
    import subprocess
    import sys

    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs root and unshare to mount a small filesystem")
    folder = tmp_path / "small"
    folder.mkdir()
    run = subprocess.run(["unshare", "-m", "--propagation", "private", sys.executable, "-c", FULL_DISK_CHILD,
                          str(folder)], capture_output=True, text=True, timeout=120)
    if run.returncode != 0 and ("Operation not permitted" in run.stderr or "unshare failed" in run.stderr):
        pytest.skip(f"this machine does not allow a private mount: {run.stderr.strip()[:120]}")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert "disk is full" in out["error"] and "rollback" not in out["error"]
    assert out["outage"]["waiting"] >= 3  # the press that did not fit and Cleo's two
    assert out["lost"] == [] and out["backlog"] == 0


@pytest.mark.parametrize("body", TAMPERED)
def test_the_referees_views_of_a_tampered_log_skip_the_event_too(tmp_path, body):
    """Past turns, die fairness and the exports replay the log as the fold does: a damaged row is left out."""
    from rig.engine.export import history_csv
    from rig.engine.turns import game_turns, logged_dice

    with started(tmp_path) as service:
        path = service.log.path
    _tamper(path, "SELECT max(seq) FROM events WHERE status = 'applied'", body)
    with EngineService.open(tmp_path, clock="sim") as service:
        game_id = service.state()["game"]["id"]
        strict(game_turns(service.log, game_id))
        assert isinstance(logged_dice(service.log), list)
        assert history_csv(service.history()).startswith("number,game_id,game")


def test_a_skipped_event_is_one_line_in_the_journal_not_a_traceback(caplog):
    import logging

    from rig.engine.engine import fold

    start = {"type": "game_started", "players": PLAYERS, "t_us": 1, "source": "api", "clock": "sim", "options": {}}
    broken = {"type": {"a": 1}, "t_us": 5, "source": "gpio"}  # unhashable where a type is looked up
    skipped = []
    with caplog.at_level(logging.INFO):
        fold([[(1, start)], [(2, broken)]], skipped)
    assert [seq for seq, _ in skipped] == [2]
    assert [r for r in caplog.records if "#2" in r.getMessage()]  # said, in one line
    assert not [r for r in caplog.records if r.exc_info and r.levelno >= logging.INFO]

"""Loss is never silent (issue 31): the last acknowledged sequence number is kept outside the WAL
(``rig.sqlite3-acked``); a log that ends before it at a start — a -wal cut short or with a flipped bit
in its last frame, a -wal deleted with its -shm kept — says how many acknowledged events were lost, on
the scoreboard (``GET /api/rig`` notices) and in ``rig doctor``, until a person clears it."""

from __future__ import annotations

import shutil

import pytest

from rig.engine.log import ACKED_SUFFIX, LOSS_SUFFIX, EventLog, open_log

TOSS = {"type": "toss", "t_us": 5, "source": "gpio", "player": "Ben"}


def crashed_copy(tmp_path, events=20):
    """The data folder as a power cut leaves it: every event acknowledged, all of them still in the -wal."""
    live, data = tmp_path / "live", tmp_path / "data"
    data.mkdir()
    log = open_log(live)
    for n in range(events):
        log.append({**TOSS, "t_us": n})
    for part in live.iterdir():
        shutil.copy(part, data / part.name)
    log.close()
    assert (data / "rig.sqlite3-wal").stat().st_size > 0
    return data


def test_a_clean_log_reports_no_loss(tmp_path):
    data = crashed_copy(tmp_path)
    with open_log(data) as log:
        assert log.count() == 20 and log.loss is None
        log.append(TOSS)
    with open_log(data) as log:
        assert log.loss is None and log.count() == 21
    assert not (data / f"rig.sqlite3{LOSS_SUFFIX}").exists()


def damage_wal_tail(data, how):
    wal = data / "rig.sqlite3-wal"
    raw = bytearray(wal.read_bytes())
    if how == "deleted":
        wal.unlink()  # the -shm is kept
    elif how == "truncated":
        wal.write_bytes(bytes(raw[:-100]))
    elif how == "bit flip":
        raw[-10] ^= 0x10
        wal.write_bytes(bytes(raw))


@pytest.mark.parametrize("how", ["deleted", "truncated", "bit flip"])
def test_a_log_that_ends_before_the_acknowledged_mark_says_so_and_keeps_saying_it(tmp_path, how):
    data = crashed_copy(tmp_path)
    damage_wal_tail(data, how)
    with open_log(data) as log:
        found = log.count()
        assert found < 20  # SQLite dropped the tail in silence ...
        assert log.loss is not None and log.loss["lost"] == 20 - found and log.loss["acked"] == 20  # ... we do not
        log.append(TOSS)  # the rig plays on
    with open_log(data) as log:  # the next start still says it, until a person deletes the record
        assert log.loss is not None and log.loss["lost"] == 20 - found
    (data / f"rig.sqlite3{LOSS_SUFFIX}").unlink()
    with open_log(data) as log:
        assert log.loss is None


def test_the_scoreboard_and_rig_doctor_show_the_loss(tmp_path):
    from rig.config import RigConfig
    from rig.doctor import FAIL, Context, run_checks, check_database
    from rig.app.runner import Rig

    data = crashed_copy(tmp_path)
    damage_wal_tail(data, "deleted")
    with Rig(RigConfig.default(), mode="sim", data_dir=data, seed=1, camera=False) as rig:
        notices = [n for n in rig.status()["notices"] if n["key"] == "log-loss"]
    assert notices and notices[0]["kind"] == "bad" and "acknowledged event(s) were lost" in notices[0]["text"]
    from dataclasses import replace

    ctx = Context.create(replace(RigConfig.default(), data_dir=data), on_pi=False, env={})
    (result,) = run_checks(ctx, (check_database,))
    assert result.status == FAIL and "acknowledged event(s) lost" in result.detail
    assert f"rig.sqlite3{LOSS_SUFFIX}" in result.fix


def test_the_mark_is_outside_the_wal_and_follows_every_append(tmp_path):
    path = tmp_path / "rig.sqlite3"
    with EventLog(path) as log:
        log.append(TOSS)
        log.append_batch([])  # nothing appended: the mark stays
        log.append(TOSS)
        assert (tmp_path / f"rig.sqlite3{ACKED_SUFFIX}").read_text().strip().lstrip("0") == "2"

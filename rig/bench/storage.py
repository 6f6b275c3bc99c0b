"""``rig bench storage``: bad luck on the disk; count refused files changed and losses unnoticed.

Each case builds a data folder as a crash leaves it (every event acknowledged, the last ones still in
the ``-wal``), then damages it and starts the event log on it:

- ``--flips`` random bit flips, in the database file or in its ``-wal`` (seeded);
- truncations of the ``-wal`` and of the database file; a deleted ``-wal`` with its ``-shm`` kept;
- foreign and newer-schema SQLite files with a live ``-wal``;
- a full disk at the first start and with a healthy log (an ``RLIMIT_FSIZE`` child: no byte may be
  written beyond the limit), then the start again once there is room.

Counted: refused files not byte-identical afterwards (``-shm``, SQLite's shared-memory index, aside),
starts that lost acknowledged events without a notice (the log ends before the acknowledged mark and
:attr:`rig.engine.log.EventLog.loss` says nothing), crashes (anything but a :class:`LogError`), empty
files left by a full disk, starts that did not come back once there was room.
"""

from __future__ import annotations

import hashlib
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from rig import argtypes

EVENTS = 20
TOSS = {"type": "toss", "t_us": 5, "source": "gpio", "player": "Ben"}


def add_arguments(parser) -> None:
    parser.add_argument("--flips", type=argtypes.amount, default=100, help="random bit flips in the db and its -wal (default 100)")
    parser.add_argument("--seed", type=argtypes.seed, default=16)


def fingerprint(folder: Path) -> dict[str, tuple[int, str]]:
    return {p.name: (p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted(folder.iterdir()) if p.is_file() and not p.name.endswith("-shm")
            and not (p.name.endswith("-wal") and p.stat().st_size == 0)}


def crashed(folder: Path, events: int = EVENTS) -> None:
    """``folder`` as a power cut leaves it: ``events`` acknowledged, the last ones still in the -wal."""
    from rig.engine.log import open_log

    live = folder.parent / (folder.name + "-live")
    log = open_log(live)
    for n in range(events):
        log.append({**TOSS, "t_us": n})
    folder.mkdir(parents=True)
    for part in live.iterdir():
        shutil.copy(part, folder / part.name)
    log.close()
    shutil.rmtree(live)


def live_wal(folder: Path, build) -> None:
    """A SQLite file of another kind (``build(conn)``) with its last writes still in a live -wal."""
    scratch = folder.parent / (folder.name + "-scratch")
    scratch.mkdir(parents=True)
    conn = sqlite3.connect(scratch / "rig.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    build(conn)
    folder.mkdir(parents=True)
    for part in scratch.iterdir():
        shutil.copy(part, folder / part.name)
    conn.close()
    shutil.rmtree(scratch)


def foreign(conn: sqlite3.Connection) -> None:
    """Builds a SQLite file of another program (for :func:`live_wal`)."""
    conn.execute("CREATE TABLE notes (a)")
    conn.executemany("INSERT INTO notes VALUES (?)", [(i,) for i in range(50)])


def newer(conn: sqlite3.Connection) -> None:
    """Builds a rig database of a newer schema than this rig knows (for :func:`live_wal`)."""
    from rig.engine.log import APPLICATION_ID, SCHEMA_VERSION

    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY)")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


def start(folder: Path) -> dict[str, Any]:
    """Open the event log over ``folder`` as ``rig run`` does: what happened."""
    from rig.engine.errors import LogError
    from rig.engine.log import open_log

    before = fingerprint(folder)
    try:
        log = open_log(folder)
    except LogError as exc:
        changed = fingerprint(folder) != before
        return {"outcome": "refused", "changed": changed, "reason": str(exc)[:160]}
    except Exception as exc:  # noqa: BLE001 - what we are counting
        return {"outcome": "crash", "changed": fingerprint(folder) != before, "reason": f"{type(exc).__name__}: {exc}"}
    try:
        found = log.count()
        loss = log.loss
    except Exception as exc:  # noqa: BLE001
        log.close()
        return {"outcome": "crash", "changed": False, "reason": f"{type(exc).__name__}: {exc}"}
    log.close()
    return {"outcome": "opened", "found": found, "lost": EVENTS - found, "noticed": loss is not None,
            "changed": False}


FULL = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
from rig.engine.log import open_log
from rig.errors import RigError
try:
    log = open_log(sys.argv[1])
    log.append({{"type": "toss", "t_us": 1, "source": "gpio", "player": "Ben"}})
    log.close()
except RigError as exc:
    print(exc, file=sys.stderr)
    sys.exit(getattr(exc, "exit_code", 2))
"""


def full_disk(folder: Path, limit: int) -> dict[str, Any]:
    before = fingerprint(folder) if folder.exists() else {}
    child = subprocess.run([sys.executable, "-c", FULL.format(limit=limit), str(folder)], capture_output=True,
                           text=True, timeout=600)
    after = fingerprint(folder) if folder.exists() else {}
    empty = [p.name for p in folder.iterdir() if p.is_file() and p.stat().st_size == 0
             and not p.name.endswith(("-wal", "-shm"))] if folder.exists() else []
    again = start(folder)  # room again: it must start by itself
    return {"code": child.returncode, "line": child.stderr.strip()[:200], "empty_left": empty,
            "changed": child.returncode != 0 and {k: v for k, v in after.items()} != before,
            "restarted": again["outcome"] == "opened", "says_damaged": "rescue" in child.stderr}


def campaign(work: Path, flips: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    changed = crashes = silent = noticed = lost_total = 0
    examples: list[str] = []
    cases = 0

    def judge(name: str, result: dict[str, Any]) -> None:
        nonlocal changed, crashes, silent, noticed, lost_total, cases
        cases += 1
        outcomes[result["outcome"]] += 1
        if result["outcome"] == "refused" and result["changed"]:
            changed += 1
            examples.append(f"{name}: refused but changed on disk")
        if result["outcome"] == "crash":
            crashes += 1
            examples.append(f"{name}: {result['reason']}")
        if result["outcome"] == "opened" and result["lost"] > 0:
            lost_total += result["lost"]
            if result["noticed"]:
                noticed += 1
            else:
                silent += 1
                examples.append(f"{name}: {result['lost']} acknowledged event(s) lost without a notice")

    for n in range(flips):
        folder = work / f"flip{n}"
        crashed(folder)
        target = folder / rng.choice(["rig.sqlite3", "rig.sqlite3-wal"])
        data = bytearray(target.read_bytes())
        bit = rng.randrange(len(data) * 8)
        data[bit // 8] ^= 1 << (bit % 8)
        target.write_bytes(bytes(data))
        judge(f"bit {bit} of {target.name}", start(folder))
    for n, cut in enumerate((1, 100, 4096, 4120, 8000)):
        folder = work / f"walcut{n}"
        crashed(folder)
        wal = folder / "rig.sqlite3-wal"
        wal.write_bytes(wal.read_bytes()[:-cut])
        judge(f"-wal cut by {cut} bytes", start(folder))
    for n, keep in enumerate((0, 100, 4096)):
        folder = work / f"dbcut{n}"
        crashed(folder)
        db = folder / "rig.sqlite3"
        db.write_bytes(db.read_bytes()[:keep])
        judge(f"db cut to {keep} bytes", start(folder))
    folder = work / "walgone"
    crashed(folder)
    (folder / "rig.sqlite3-wal").unlink()
    judge("-wal deleted, -shm kept", start(folder))

    for name, build in (("foreign", foreign), ("newer", newer)):
        folder = work / name
        live_wal(folder, build)
        judge(f"{name} file with a live -wal", start(folder))
    first = full_disk(work / "full-first", 0)
    folder = work / "full-healthy"
    crashed(folder)
    (folder / "rig.sqlite3-wal").unlink(missing_ok=True)
    healthy = full_disk(folder, 1)
    return {"cases": cases, "outcomes": dict(outcomes), "refused_changed": changed, "crashes": crashes,
            "lost_silently": silent, "lost_noticed": noticed, "events_lost": lost_total,
            "full_first": first, "full_healthy": healthy, "examples": examples[:8]}


def run(args) -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rig-bench-storage-") as work:
        figures = campaign(Path(work), args.flips, args.seed)
    first, healthy = figures["full_first"], figures["full_healthy"]
    print(f"storage: {figures['cases']} damaged data folders in {time.perf_counter() - started:.0f} s "
          f"({args.flips} bit flips in the db or its -wal, cuts of both, a deleted -wal, foreign and newer files "
          f"with a live -wal): {figures['outcomes']}")
    print(f"  refused files changed on disk: {figures['refused_changed']}; crashes: {figures['crashes']}; "
          f"starts that lost acknowledged events: {figures['lost_noticed'] + figures['lost_silently']} "
          f"({figures['events_lost']} events), without a notice: {figures['lost_silently']}")
    print(f"  full disk at the first start: exit {first['code']}, empty files left: {len(first['empty_left'])}, "
          f"called damaged: {first['says_damaged']}, started again once there was room: {first['restarted']}")
    print(f"  full disk with a healthy log: exit {healthy['code']}, files changed: {healthy['changed']}, "
          f"called damaged: {healthy['says_damaged']}, started again once there was room: {healthy['restarted']}")
    for example in figures["examples"]:
        print(f"  {example}")
    ok = (figures["refused_changed"] == 0 and figures["crashes"] == 0 and figures["lost_silently"] == 0
          and not first["empty_left"] and first["restarted"] and healthy["restarted"]
          and not first["says_damaged"] and not healthy["says_damaged"])
    return 0 if ok else 1

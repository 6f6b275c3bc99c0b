"""``rig bench league``: N simulated tables at full speed through a real Mosquitto into ``rig league``.

Starts a local Mosquitto (Debian's), ``rig league`` as its own process, and ``--tables`` simulated
tables in this process (each a real EngineService with its SQLite log, fsync on, and a league
publisher) playing as fast as they can. Prints:

- events/s logged by the tables and counted by the league in the steady phase (``--seconds``);
- publish → league-counted latency p50/p99 (publisher's ``sent`` to the league's commit, same clock);
- a broker outage of ``--outage`` seconds (60 in the full run) while the tables play on: the backlog,
  and the catch-up time from the broker's restart until the league has counted everything the
  tables had logged when it came back.
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rig import argtypes


def add_arguments(parser) -> None:
    parser.add_argument("--tables", type=argtypes.count, default=50, metavar="N", help="simulated tables, 1-50 (default 50)")
    parser.add_argument("--seconds", type=argtypes.span, default=20.0, metavar="S", help="steady phase (default 20 s)")
    parser.add_argument("--outage", type=argtypes.span, default=60.0, metavar="S",
                        help="broker outage (default 60 s; 0 skips it)")
    parser.add_argument("--dir", type=Path, metavar="DIR", help="folder for the throw-away logs (default: temp)")


def _percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class _LeagueReader:
    """Reads the league process's database (read-only) for the counts and latencies."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = None

    def _db(self):
        if self._conn is None and self.path.exists():
            self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
        return self._conn

    def counted(self) -> dict[str, int]:
        db = self._db()
        if db is None:
            return {}
        try:
            return dict(db.execute("SELECT name, have FROM tables").fetchall())
        except sqlite3.OperationalError:  # the schema is being created
            return {}

    def log_checks(self) -> dict[str, tuple[int | None, int | None]]:
        """Table -> (the seq its whole log was compared up to, 1 same / 0 differs) (rig.league.audit)."""
        try:
            return {t: (checked, same) for t, checked, same in
                    self._db().execute("SELECT table_name, checked_seq, same FROM digests").fetchall()}
        except sqlite3.OperationalError:
            return {}

    def latencies(self, since: float, until: float) -> list[float]:
        rows = self._db().execute("SELECT applied - sent FROM events WHERE applied BETWEEN ? AND ? "
                                  "AND sent IS NOT NULL", (since, until)).fetchall()
        return sorted(row[0] for row in rows)


def _wait(predicate, timeout: float, step: float = 0.05) -> float | None:
    """Seconds until ``predicate()`` holds, or None after ``timeout``."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if predicate():
            return time.monotonic() - start
        time.sleep(step)
    return None


def run(args) -> int:
    from rig.engine.paths import database_path
    from rig.engine.service import EngineService
    from rig.errors import RigError
    from rig.league.broker import LEAGUE_ACCOUNT, LocalBroker
    from rig.league.publisher import Publisher
    from rig.league.simtable import SimTable, TablePlayer

    if not 1 <= args.tables <= 50:
        raise RigError("--tables must be 1 to 50")
    if args.seconds < 1 or args.outage < 0:
        raise RigError("--seconds must be at least 1 and --outage at least 0")
    names = [f"t{i:02d}" for i in range(1, args.tables + 1)]
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="rig-bench-league-") as tmp, LocalBroker(names) as broker:
        folder = Path(tmp)
        (folder / "league.pw").write_text(broker.passwords[LEAGUE_ACCOUNT])
        league_db = folder / "league" / "league.sqlite3"
        league = subprocess.Popen(
            [sys.executable, "-m", "rig", "league", "--broker", f"127.0.0.1:{broker.port}", "--password-file",
             str(folder / "league.pw"), "--data-dir", str(league_db.parent), "--port", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        reader = _LeagueReader(league_db)
        tables, opened = [], []
        try:
            if _wait(lambda: league_db.exists(), 30) is None:
                raise RigError("rig league did not start: " + league.stderr.read1().decode(errors="replace"))
            for index, name in enumerate(names):
                service = EngineService.open(folder / name, clock="bench")
                publisher = Publisher(database_path(folder / name), name, broker.settings(name),
                                      service=service).start()
                opened += [publisher, service]
                tables.append((name, service, publisher, TablePlayer(SimTable(service, seed=index), name=name)))
            print(f"league benchmark: {len(names)} tables at full speed -> mosquitto 127.0.0.1:{broker.port} "
                  f"-> rig league (own process); {os.cpu_count()} CPUs")
            for *_, player in tables:
                player.start()

            def logged() -> int:
                return sum(service.log.last_seq() for _, service, _, _ in tables)

            # steady phase
            time.sleep(min(3.0, args.seconds / 4))  # warm up
            t0, logged0, counted0 = time.time(), logged(), sum(reader.counted().values())
            time.sleep(args.seconds)
            t1, logged1, counted1 = time.time(), logged(), sum(reader.counted().values())
            span = t1 - t0
            lat = reader.latencies(t0, t1)
            print(f"  steady {span:.0f} s: tables logged {(logged1 - logged0) / span:,.0f} events/s, "
                  f"league counted {(counted1 - counted0) / span:,.0f} events/s")
            if lat:
                print(f"  publish -> league-counted latency: p50 {1000 * statistics.median(lat):.0f} ms, "
                      f"p99 {1000 * _percentile(lat, 0.99):.0f} ms, max {1000 * lat[-1]:.0f} ms "
                      f"({len(lat):,} events)")
            if args.outage:
                broker.stop()
                down = time.monotonic()
                time.sleep(args.outage)
                targets = {name: service.log.last_seq() for name, service, _, _ in tables}
                backlog = sum(targets.values()) - sum(reader.counted().values())
                broker.start()
                print(f"  broker outage {time.monotonic() - down:.0f} s: the tables played on, "
                      f"{backlog:,} events waiting in their logs")
                took = _wait(lambda: all(reader.counted().get(n, 0) >= target for n, target in targets.items()),
                             max(120.0, 4 * args.outage))
                if took is None:
                    print("  catch-up: NOT caught up within the time limit")
                else:
                    print(f"  catch-up after the broker's restart: {took:.1f} s "
                          f"({backlog / max(took, 1e-9):,.0f} events/s while the tables kept playing)")
            for *_, player in tables:
                player.stop()
            final = {name: service.log.last_seq() for name, service, _, _ in tables}
            took = _wait(lambda: all(reader.counted().get(n, 0) >= final[n] for n in final), 120)
            counted = reader.counted()
            lost = sum(max(0, final[n] - counted.get(n, 0)) for n in final)
            print(f"  end: {sum(final.values()):,} events logged, {sum(counted.values()):,} counted by the league, "
                  f"{lost} missing" + (f" (drained {took:.1f} s after the tables stopped)" if took is not None else ""))
            took = _wait(lambda: all(reader.log_checks().get(n, (None,))[0] == final[n] for n in final), 60)
            checks = reader.log_checks()
            same = sum(1 for n in final if checks.get(n) == (final[n], 1))
            differ = sum(1 for n in final if checks.get(n, (None, None))[1] == 0)
            print(f"  whole logs compared by digest: {same} of {len(final)} tables the same up to their last event, "
                  f"{differ} differ" + (f" ({took:.1f} s after the drain)" if took is not None else
                                         " (not all compared within 60 s)"))
        finally:
            for *_, player in tables:
                if player.is_alive():
                    player.stop()
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=16) as pool:  # each publisher says goodbye to the broker
                list(pool.map(lambda thing: thing.close(), [t for t in opened if isinstance(t, Publisher)]))
            for thing in opened:
                thing.close()
            league.terminate()
            try:
                league.wait(timeout=10)
            except subprocess.TimeoutExpired:
                league.kill()
            league.stderr.close()
    return 0

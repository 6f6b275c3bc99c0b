"""``rig bench events``: how long appending one event to the log takes, with fsync on.

Appends ``--count`` toss events to a fresh log (WAL, ``synchronous=FULL``: one fsync per
commit) and prints p50/p99/max; then the same with ``synchronous=OFF`` (no fsync) in the
same run, as a ratio, and the full path through the engine (check + append + fold); then the cost
of the one check an event gets where it comes in (:func:`rig.engine.events.decode_event`, no log),
and of a new game's at ``POST /api/games`` (its request decoded once into :class:`rig.engine.events.NewGame`).
The log goes in a temporary folder inside ``--dir`` (default: the data folder, whose disk
is the one that matters; fsync on a RAM disk such as /tmp is nearly free).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from rig import argtypes


def add_arguments(parser) -> None:
    parser.add_argument("--count", type=argtypes.count, default=500, metavar="N", help="events per measurement (default 500)")
    parser.add_argument("--dir", type=Path, metavar="DIR",
                        help="folder for the throw-away log (default: the data folder, else the temp folder)")


def _percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered), p99, ordered[-1]


def _time_appends(path: Path, count: int, synchronous: str) -> list[float]:
    from rig.engine.log import EventLog

    log = EventLog(path)
    try:
        log._conn.execute(f"PRAGMA synchronous={synchronous}")
        samples = []
        for i in range(count):
            event = {"type": "toss", "t_us": 1_000_000 + i, "source": "bench", "player": "Ben"}
            start = time.perf_counter_ns()
            log.append(event, game_id=1)
            samples.append((time.perf_counter_ns() - start) / 1000)
        return samples
    finally:
        log.close()


def _time_engine(path: Path, count: int) -> list[float]:
    from rig.engine.log import EventLog
    from rig.engine.service import EngineService

    service = EngineService(EventLog(path), clock="bench")
    try:
        service.submit({"type": "game_started", "t_us": 0, "source": "bench", "players": ["Ada", "Ben", "Cleo", "Dev"]})
        service.press("Ada", 1)
        samples = []
        for i in range(count):
            start = time.perf_counter_ns()
            service.press(("Ben", "Cleo", "Dev")[i % 3], 10 + i)
            samples.append((time.perf_counter_ns() - start) / 1000)
        return samples
    finally:
        service.close()


#: a roll as the camera submits it: six faces and the reading (the largest event on the hot path)
ROLL = {"type": "roll_settled", "t_us": 5, "source": "camera", "clock": "bench", "started_us": 3,
        "dice": ["blue", "pink", "yellow", "blank", "pink+blue", "blue"],
        "reading": {"status": "ok", "dice": [{"face": "blue", "x": 1.5, "y": 2.5, "box": [1, 2, 3, 4],
                                              "confidence": 0.9}] * 6}}
TOSS = {"type": "toss", "t_us": 5, "source": "gpio", "clock": "bench", "player": "Ben"}


def _time_checks(event: dict, count: int) -> float:
    """µs per check of ``event`` at its door (the best of five runs of ``count``)."""
    from rig.engine.events import decode_event

    best = float("inf")
    for _ in range(5):
        start = time.perf_counter_ns()
        for _ in range(count):
            decode_event(event)
        best = min(best, (time.perf_counter_ns() - start) / count / 1000)
    return best


#: a new game as ``POST /api/games`` takes it
NEW_GAME = {"players": ["Ada", "Ben", "Cleo", "Dev"], "turns_each": 3, "options": {"tie_window_us": 40}}


def _time_new_game(count: int) -> float:
    """µs per new-game request at its door: the body decoded once into its request type and made into
    its typed ``game_started`` event (what ``POST /api/games`` does before the engine; best of five)."""
    from rig.engine.events import decode_new_game

    best = float("inf")
    for _ in range(5):
        start = time.perf_counter_ns()
        for _ in range(count):
            decode_new_game(NEW_GAME).event(t_us=5, source="display")
        best = min(best, (time.perf_counter_ns() - start) / count / 1000)
    return best


def run(args) -> int:
    from rig.engine.paths import resolve_data_dir
    from rig.errors import RigError

    if args.count < 10:
        raise RigError("--count must be at least 10")
    base = args.dir
    if base is None:
        base = resolve_data_dir()
        try:
            base.mkdir(parents=True, exist_ok=True)
        except OSError:
            base = Path(tempfile.gettempdir())
    with tempfile.TemporaryDirectory(dir=base, prefix="rig-bench-") as folder:
        folder = Path(folder)
        print(f"event log append latency, {args.count} events, log in {folder}")
        full = _time_appends(folder / "full.sqlite3", args.count, "FULL")
        off = _time_appends(folder / "off.sqlite3", args.count, "OFF")
        engine = _time_engine(folder / "engine.sqlite3", args.count)
    rows = [("append, fsync on (synchronous=FULL)", full), ("append, fsync off (synchronous=OFF)", off),
            ("engine submit (toss), fsync on", engine)]
    print(f"  {'':<38} {'p50 µs':>9} {'p99 µs':>9} {'max µs':>9}")
    for name, samples in rows:
        p50, p99, worst = _percentiles(samples)
        print(f"  {name:<38} {p50:>9.0f} {p99:>9.0f} {worst:>9.0f}")
    ratio = _percentiles(full)[0] / max(_percentiles(off)[0], 1e-9)
    print(f"  fsync costs {ratio:.1f}x the no-fsync append (p50, same run)")
    checks = 20 * args.count
    print(f"event check at the door (decoded once into its type), best of 5 x {checks}: "
          f"toss {_time_checks(TOSS, checks):.2f} µs, roll_settled with its reading {_time_checks(ROLL, checks):.2f} µs, "
          f"new game (POST /api/games) {_time_new_game(checks):.2f} µs")
    return 0

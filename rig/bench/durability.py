"""``rig bench durability``: SIGKILL the rig at random points of a scripted game; count what is lost.

A child process plays a seeded script of inputs (button presses and releases, rolls, cards, copy
choices, corrections, undos, junk) through the real :class:`~rig.engine.service.EngineService` and
its SQLite log, printing ``ack N`` after each input returned (acknowledged). Each life of the child
may play only a few inputs (its budget), so a loaded machine that lets it run ahead of the parent
cannot use up the script in a few kills. The parent kills it with SIGKILL at random moments
(sometimes during start-up and replay, sometimes inside an input), checks after every kill
that every acknowledged input is in the log, restarts it (it resumes after the last input in the
log), and at the end compares state, history and log with an uninterrupted run of the same script.

Figures: kills, acknowledged inputs lost, poisoned states (a restart that cannot answer its state
as JSON), whether the end equals the uninterrupted run.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rig import argtypes

PLAYERS = ("Ada", "Ben", "Cleo", "Dev")
FACES = ("blue", "pink", "yellow", "blank", "pink+blue", "yellow+pink", "blue+yellow")
CARDS = ("blue", "pink", "yellow", "blank", "gray", "purple")
S = 1_000_000


def add_arguments(parser) -> None:
    parser.add_argument("--kills", type=argtypes.count, default=250, help="SIGKILLs to land (default 250)")
    parser.add_argument("--steps", type=argtypes.count, default=1000, help="inputs in the script (default 1000)")
    parser.add_argument("--seed", type=argtypes.seed, default=16)


def script(seed: int, steps: int) -> list[tuple]:
    """A seeded list of inputs: ``("press", player, t_us)``, ``("release", player, t_us, held_us)``,
    ``("submit", event)``; mostly what a table does, some of it refused (refusals are logged too)."""
    rng = random.Random(seed)
    out: list[tuple] = [("submit", {"type": "game_started", "players": list(PLAYERS), "t_us": 1})]
    t = S
    for _ in range(steps - 1):
        t += rng.randrange(1_000, 400_000)
        kind = rng.choices(["press", "release", "roll", "card", "copy", "score", "undo", "correct", "new"],
                           [30, 12, 18, 12, 6, 6, 2, 3, 1])[0]
        player = rng.choice(PLAYERS)
        if kind == "press":
            out.append(("press", player, t))
        elif kind == "release":
            out.append(("release", player, t, rng.choice([50_000, 1_500_000])))
        elif kind == "roll":
            out.append(("submit", {"type": "roll_settled", "t_us": t, "dice": [rng.choice(FACES) for _ in range(6)]}))
        elif kind == "card":
            out.append(("submit", {"type": "card_revealed", "t_us": t, "card": rng.choice(CARDS)}))
        elif kind == "copy":
            out.append(("submit", {"type": "copy_chosen", "t_us": t, "player": player}))
        elif kind == "score":
            out.append(("submit", {"type": "turn_scored", "t_us": t}))
        elif kind == "undo":
            out.append(("submit", {"type": "correction", "t_us": t, "what": "undo"}))
        elif kind == "correct":
            out.append(("submit", {"type": "correction", "t_us": t, "what": "card", "index": rng.randrange(3),
                                   "card": rng.choice(CARDS)}))
        else:
            out.append(("submit", {"type": "game_started", "t_us": t, "players": rng.sample(PLAYERS, 3)}))
    return out


def play(service, step: tuple, index: int) -> None:
    """One input, its events marked with the source ``s<index>`` (refusals are part of the script)."""
    source = f"s{index}"
    if step[0] == "press":
        service.press(step[1], step[2], source=source)
    elif step[0] == "release":
        service.release(step[1], step[2], step[3], source=source)
    else:
        try:
            service.submit({**step[1], "source": source})
        except ValueError:
            pass


def logged_steps(log) -> set[int]:
    return {int(e.event["source"][1:]) for e in log.events()
            if isinstance(e.event.get("source"), str) and e.event["source"][:1] == "s" and e.event["source"][1:].isdigit()}


def child(data_dir: str, seed: int, steps: int, budget: int | None = None) -> None:
    """The killed process: resume after the last input in the log, ``ack N`` after each; after
    ``budget`` inputs it waits (for its kill) until its stdin closes."""
    from rig.engine.service import EngineService

    todo = script(seed, steps)
    with EngineService.open(data_dir, clock="bench") as service:
        done = logged_steps(service.log)
        for played, i in enumerate(range(max(done) + 1 if done else 0, len(todo))):
            if played == budget:
                sys.stdin.read()
                return
            play(service, todo[i], i)
            print(f"ack {i}", flush=True)
    print("done", flush=True)


def _spawn(data_dir: Path, seed: int, steps: int, budget: int | None = None) -> subprocess.Popen:
    code = f"from rig.bench.durability import child; child({str(data_dir)!r}, {seed}, {steps}, {budget})"
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def _comparable(history: dict[str, Any]) -> dict[str, Any]:
    for game in history["games"]:
        game.pop("started_at", None)
        game.pop("ended_at", None)
    return history


def campaign(work: Path, *, kills: int, seed: int, steps: int) -> dict[str, Any]:
    """Run the campaign in ``work``; returns the figures."""
    from rig.engine.log import EventLog, open_log
    from rig.engine.service import EngineService

    rng = random.Random(seed)
    straight_dir, killed_dir = work / "straight", work / "killed"
    todo = script(seed, steps)
    with EngineService.open(straight_dir, clock="bench") as service:
        for i, step in enumerate(todo):
            play(service, step, i)
    with open_log(straight_dir) as log:
        durable = logged_steps(log)  # inputs that write something (some presses write nothing)

    landed = lost = poisoned = restarts = 0
    acked: set[int] = set()
    finished = False
    while landed < kills and not finished:
        target = rng.choice([0, 0, 1, 1, 2, 3, 5])  # 0: kill during start-up and replay
        proc = _spawn(killed_dir, seed, steps, budget=target + 1)  # the kill may land inside input target + 1
        restarts += 1
        seen = 0
        while seen < target:
            line = proc.stdout.readline()
            if not line:
                break
            if line == "done\n":
                finished = True
                break
            acked.add(int(line.split()[1]))
            seen += 1
        if not finished:
            time.sleep(rng.choice([0, 0, 0.0002, 0.0005, 0.001, 0.003]))
            os.kill(proc.pid, signal.SIGKILL)
        rest, _ = proc.communicate(timeout=60)  # closes its stdin too
        for line in rest.splitlines():
            if line.startswith("ack "):
                acked.add(int(line.split()[1]))
            finished = finished or line == "done"
        landed += proc.returncode == -signal.SIGKILL
        if (killed_dir / "rig.sqlite3").exists():
            with EventLog(killed_dir / "rig.sqlite3") as log:
                lost = max(lost, len((acked & durable) - logged_steps(log)))
    if not finished:
        proc = _spawn(killed_dir, seed, steps)
        out, _ = proc.communicate(timeout=600)
        finished = out.endswith("done\n")
    with EngineService.open(straight_dir, clock="bench") as straight, \
            EngineService.open(killed_dir, clock="bench") as killed:
        state = killed.state()
        try:
            json.dumps(state, allow_nan=False).encode("utf-8")
        except (ValueError, UnicodeEncodeError):
            poisoned += 1
        same = (state == straight.state()
                and _comparable(killed.history()) == _comparable(straight.history())
                and [e.event for e in killed.log.events()] == [e.event for e in straight.log.events()])
    return {"kills": landed, "restarts": restarts, "acked": len(acked), "acked_lost": lost,
            "poisoned_states": poisoned, "finished": finished, "equals_uninterrupted_run": same,
            "inputs": steps}


def run(args) -> int:
    with tempfile.TemporaryDirectory(prefix="rig-bench-kills-") as work:
        start = time.perf_counter()
        figures = campaign(Path(work), kills=args.kills, seed=args.seed, steps=args.steps)
        seconds = time.perf_counter() - start
    print(f"durability: {figures['kills']} SIGKILLs at random points over {figures['inputs']} scripted inputs "
          f"({figures['restarts']} starts, {seconds:.0f} s)")
    print(f"  acknowledged inputs: {figures['acked']}, lost: {figures['acked_lost']}")
    print(f"  poisoned states: {figures['poisoned_states']}")
    print(f"  end state, history and log equal the uninterrupted run: {figures['equals_uninterrupted_run']}")
    return 0 if figures["acked_lost"] == 0 and figures["equals_uninterrupted_run"] else 1

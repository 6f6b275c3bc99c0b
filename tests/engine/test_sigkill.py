"""Kill the rig (SIGKILL) at random points of a simulated game; the restarted rig must end up
exactly where an uninterrupted run does: same state, same history."""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from engine_play import make_script, run_step
from rig.engine.service import EngineService
from sigkill_child import marked
from tests.waiting import WAIT_S

CHILD = Path(__file__).parent / "sigkill_child.py"
PLAYERS = ["Ada", "Ben", "Cleo", "Dev"]
SEED = 8


def spawn(data_dir, budget=None):
    return subprocess.Popen([sys.executable, str(CHILD), str(data_dir), str(SEED), "-" if budget is None else str(budget),
                             *PLAYERS], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def comparable_history(history):
    for game in history["games"]:
        game.pop("started_at")
        game.pop("ended_at")
    return history


def test_sigkill_at_random_points_then_resume_equals_an_uninterrupted_run(tmp_path):
    rng = random.Random(2024)
    straight_dir, killed_dir = tmp_path / "straight", tmp_path / "killed"
    steps, _ = make_script(SEED, PLAYERS)
    with EngineService.open(straight_dir, clock="sim") as service:
        for i, step in enumerate(steps):
            run_step(service, marked(step, i))
    total = len(steps)

    kills = 0
    for _ in range(5):
        target = rng.randrange(1, total // 8)  # five lives use under total steps: every one is killed
        child = spawn(killed_dir, budget=target + 1)  # the kill may land inside step target + 1
        seen = 0
        while seen < target:
            line = child.stdout.readline()
            if not line or line == "done\n":
                break
            seen += 1
        time.sleep(rng.choice([0, 0.0005, 0.001, 0.002]))  # land inside a later append, sometimes
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=WAIT_S)
        child.stdin.close()
        child.stdout.close()
        kills += child.returncode == -signal.SIGKILL
    child = spawn(killed_dir)
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 0 and out.endswith("done\n")
    assert kills == 5

    with EngineService.open(straight_dir, clock="sim") as straight, EngineService.open(killed_dir, clock="sim") as killed:
        assert straight.state()["game"]["status"] == "over"
        assert killed.state() == straight.state()
        assert comparable_history(killed.history()) == comparable_history(straight.history())
        assert [e.event for e in killed.log.events()] == [e.event for e in straight.log.events()]


def test_fifty_sigkills_lose_no_acknowledged_input(tmp_path):
    """The CI-sized campaign of `rig bench durability`: 50 kills at random points (some during start-up
    and replay) of a script with refusals, corrections, undos and new games."""
    from rig.bench.durability import campaign

    figures = campaign(tmp_path, kills=50, seed=16, steps=400)  # each life plays 6 inputs at most: 50 kills use under 300
    assert figures["kills"] >= 50
    assert figures["acked_lost"] == 0 and figures["poisoned_states"] == 0
    assert figures["finished"] and figures["equals_uninterrupted_run"]

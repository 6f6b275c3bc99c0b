"""Child process of test_sigkill.py: play a seeded game through the real EngineService and log.

Usage: python sigkill_child.py DATA_DIR SEED BUDGET NAME... ; resumes after the last step found in
the log (each step's events carry the source ``step<i>``), prints ``step <i>`` after each; after
BUDGET steps (``-``: no limit) it waits for its kill until stdin closes, so it cannot run ahead of
the parent on a loaded machine.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from engine_play import make_script, run_step  # noqa: E402
from rig.engine.service import EngineService  # noqa: E402


def marked(step, i):
    source = f"step{i}"
    if step[0] == "press":
        return ("press", step[1], step[2], source)
    if step[0] == "release":
        return ("release", step[1], step[2], step[3], source)
    return ("submit", {**step[1], "source": source})


def main() -> int:
    data_dir, seed, budget, players = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    steps, _ = make_script(seed, players)
    with EngineService.open(data_dir, clock="sim") as service:
        done = [int(e.event["source"][4:]) for e in service.log.events() if e.event["source"].startswith("step")]
        start = max(done) + 1 if done else 0
        for played, i in enumerate(range(start, len(steps))):
            if str(played) == budget:
                sys.stdin.read()
                return 0
            run_step(service, marked(steps[i], i))
            print(f"step {i}", flush=True)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

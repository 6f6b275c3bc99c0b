"""``rig bench start``: how long the ``rig`` command takes to start and finish (issue 28).

Runs each command as a user would (the ``rig`` script beside this Python, in a fresh process), once
unmeasured to warm the caches (byte code, the profile's colour table in the cache folder), then
``--repeat`` times, and prints min / median / max wall time against the targets: ``rig --help``
0.3 s, ``rig score`` 0.3 s, ``rig doctor`` 1 s; and ``rig run --sim`` until its page answers.
The machine's load average is printed with the figures: on a shared machine they move with it.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from rig import argtypes

#: (label, arguments after ``rig``, target in seconds or None)
COMMANDS = (
    ("rig --help", ["--help"], 0.3),
    ("rig score FILE", ["score", "{example}"], 0.3),
    ("rig doctor", ["doctor"], 1.0),
    ("rig config check FILE", ["config", "check", "{config}"], None),
)


def add_arguments(parser) -> None:
    parser.add_argument("--repeat", type=argtypes.count, default=5, metavar="N", help="measured runs per command (default 5)")
    parser.add_argument("--no-run", action="store_true", help="leave out `rig run` to its first page")


def rig_command() -> list[str]:
    """The ``rig`` console script of this environment (as a user runs it), else ``python -m rig``."""
    script = Path(sys.executable).with_name("rig")
    return [str(script)] if script.exists() else [sys.executable, "-m", "rig"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # warm means with byte code, as on any normal machine
    env.pop("RIG_CONFIG", None)
    return env


def time_command(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env=env)
    return time.perf_counter() - start, done.returncode


def time_first_page(env: dict[str, str]) -> float:
    """``rig run --sim --port 0``: seconds from start to the first HTTP 200 of its page."""
    with tempfile.TemporaryDirectory(prefix="rig-bench-start-") as tmp:
        start = time.perf_counter()
        proc = subprocess.Popen([*rig_command(), "run", "--sim", "--port", "0", "--data-dir", tmp],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        try:
            url = None
            for line in proc.stdout:
                match = re.search(r"scoreboard at (http://\S+)", line)
                if match:
                    url = match.group(1)
                    break
            if url is None:
                raise RuntimeError("rig run did not print its address")
            while True:
                try:
                    with urllib.request.urlopen(url, timeout=5) as answer:
                        if answer.status == 200:
                            return time.perf_counter() - start
                except OSError:
                    time.sleep(0.01)
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def run(args) -> int:
    import json

    from rig import registry

    package = Path(__file__).resolve().parents[1]
    config = package / "examples" / "rig.toml"
    work = Path(tempfile.mkdtemp(prefix="rig-bench-start-"))
    example = work / "turn.json"  # the default game's shipped example turn
    example.write_text(json.dumps(registry.get(registry.DEFAULT).example_request()))
    env = _env()
    load = os.getloadavg()
    print(f"rig start-up: {args.repeat} runs each after one warm-up run (byte code and colour table cached); "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")
    print(f"  {'command':<24} {'min':>7} {'median':>7} {'max':>7}  target")
    met = True
    for label, words, target in COMMANDS:
        argv = [*rig_command(), *(w.format(example=example, config=config) for w in words)]
        time_command(argv, env)  # warm-up
        samples, codes = [], set()
        for _ in range(args.repeat):
            seconds, code = time_command(argv, env)
            samples.append(seconds)
            codes.add(code)
        median = statistics.median(samples)
        verdict = ""
        if target is not None:
            ok = median <= target
            met &= ok
            verdict = f"≤ {target:g} s {'met' if ok else 'NOT met'}"
        note = "" if codes <= {0} else f"  (exit {', '.join(map(str, sorted(codes)))})"
        print(f"  {label:<24} {min(samples):>6.2f}s {median:>6.2f}s {max(samples):>6.2f}s  {verdict}{note}")
    if not args.no_run:
        time_first_page(env)  # warm-up
        samples = [time_first_page(env) for _ in range(max(1, args.repeat // 2))]
        print(f"  {'rig run → first page':<24} {min(samples):>6.2f}s {statistics.median(samples):>6.2f}s "
              f"{max(samples):>6.2f}s")
    shutil.rmtree(work, ignore_errors=True)
    print("all start-up targets met" if met else "some start-up targets NOT met (see the load average above)")
    return 0

"""The house rules kept by tools, inside ``make test`` (issue 17).

``lint-imports`` checks the layer contracts written in ``pyproject.toml`` (``[tool.importlinter]``:
the rules import nothing of the rig's; vision and engine never import hardware, display or the
command line; the camera adapters and factory do not import each other; the simulator and the
calibration desk do not reach back into the runner; no import circles), and ``ruff check`` the
modest rule set of ``[tool.ruff.lint]`` (pyflakes and a few) on the whole tree.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def run(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / tool), *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_layer_contracts_are_kept():
    result = run("lint-imports", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_ruff_finds_nothing():
    result = run("ruff", "check", "--no-cache", "rig", "tests")
    assert result.returncode == 0, result.stdout + result.stderr

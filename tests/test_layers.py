"""The house rules kept by tools, inside ``make test`` (issue 17).

``lint-imports`` checks the layer contracts written in ``pyproject.toml`` (``[tool.importlinter]``:
the rules import nothing of the rig's; vision and engine never import hardware, display or the
command line; the camera adapters and factory do not import each other; the simulator and the
calibration desk do not reach back into the runner; nothing below the composition root ``rig.app``
imports it; no import circles), and ``ruff check`` the modest rule set of ``[tool.ruff.lint]``
(pyflakes and a few) on the whole tree; and a game is named only inside its own package (the rest of
the rig asks the registry).
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


#: the games that ship with the rig, and the files outside them allowed to name one: the registry (its
#: DEFAULT) and the documented example config (a link to examples/rig.toml, lists the names to choose from)
SHIPPED = ("frogs", "blitz", "lego", "banana")
NAMES_A_GAME = {"rig/registry.py", "rig/examples/rig.toml"}


def test_a_game_is_named_only_in_its_own_package():
    named = {}
    for path in sorted((ROOT / "rig").rglob("*")):
        if not path.is_file() or path.suffix not in (".py", ".js", ".css", ".html", ".toml", ".json"):
            continue
        where = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8").lower()
        games = [name for name in SHIPPED if name in text and not where.startswith(f"rig/games/{name}/")]
        if games and where not in NAMES_A_GAME:
            named[where] = games
    assert named == {}


def test_imports_for_type_hints_count_as_arrows_and_no_module_is_over_500_lines():
    """Issue 29: a circle made of TYPE_CHECKING imports is a circle (the contracts see those imports
    too), and each module is one idea: none over 500 lines but the few still to split."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert config["exclude_type_checking_imports"] is False
    long = {str(path.relative_to(ROOT)): count for path in sorted((ROOT / "rig").rglob("*.py"))
            if (count := len(path.read_text().splitlines())) > 500}
    assert set(long) <= STILL_LONG, f"over 500 lines: {long}"


#: modules over 500 lines not split yet (issue 29): the list only shrinks
STILL_LONG: set[str] = set()

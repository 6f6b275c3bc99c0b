"""`rig` starts light (issue 28): `rig --help` imports no subcommand module, `rig score` no numpy or
OpenCV; the lines `rig --help` shows without importing are the modules' own."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from rig.cli import COMMAND_MODULES, SUMMARIES, build_parser


def loaded_after(argv: list[str]) -> set[str]:
    """The modules a fresh interpreter has imported after ``rig ARGV`` ran."""
    code = ("import sys\nfrom rig.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "import json\nprint('\\nMODULES ' + json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    line = [x for x in done.stdout.splitlines() if x.startswith("MODULES ")][-1]
    return set(json.loads(line[len("MODULES "):]))


def test_every_command_module_has_its_help_line():
    missing = [name for name in COMMAND_MODULES if name not in SUMMARIES]
    assert missing == [], "add (command name, help line) for these to SUMMARIES in rig/cli/__init__.py"


def test_rig_help_imports_no_subcommand():
    loaded = loaded_after(["--help"])
    assert not {m for m in loaded if m.startswith("rig.cli.")}
    assert not {"numpy", "cv2", "rig.config", "rig.registry", "rig.bench"} & loaded


def test_rig_score_imports_neither_numpy_nor_opencv(tmp_path):
    loaded = loaded_after(["score", "rig/games/frogs/examples/turn.json"])
    assert "rig.cli.score" in loaded
    assert not {"numpy", "cv2", "starlette", "gpiozero", "rig.cli.run", "rig.cli.bench"} & loaded


def test_the_help_lines_shown_without_importing_are_the_modules_own():
    full = build_parser()  # every module imported and registered
    (commands,) = [a for a in full._actions if a.__class__.__name__ == "_SubParsersAction"]
    own = {action.dest: action.help for action in commands._choices_actions}
    assert {name: summary for name, summary in SUMMARIES.values()} == {n: own[n] for n, _ in SUMMARIES.values()}
    assert set(SUMMARIES) <= set(COMMAND_MODULES)


@pytest.mark.parametrize("command", ["score", "doctor", "config", "bench"])
def test_the_command_run_gets_its_whole_parser(command, capsys):
    parser = build_parser(command, lazy=True)
    with pytest.raises(SystemExit):
        parser.parse_args([command, "--help"])
    out = capsys.readouterr().out
    assert out.startswith(f"usage: rig {command}") and "options:" in out


def help_pages(parser):
    """Every (sub)command's parser under ``parser``, itself first."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from help_pages(sub)


def test_every_help_page_is_plain_text_and_names_its_defaults():
    for parser in help_pages(build_parser()):
        out = parser.format_help()
        assert "``" not in out, f"{parser.prog} --help shows reST markup"
        if "--data-dir" in out:
            assert "default" in out.split("--data-dir", 2)[-1].split("\n  -")[0], f"{parser.prog} --data-dir: no default"

"""Files that are not what a command expects (issue 31): /dev/zero, a FIFO without a writer, a sparse
2 GB file, a folder; input bytes that are not UTF-8 and field names that carry a newline or a terminal
escape sequence. Every one: exit 2, one printable line on stderr, no traceback, no unbounded read."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rig.bench.fuzz import _run_cli
from rig.vision.profile import default_profile_path

PROFILE = str(default_profile_path())


def one_clean_line(code, err):
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err and all(c.isprintable() for c in err[:-1]), repr(err)


@pytest.fixture
def odd_files(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as handle:
        handle.truncate(2 * 1024**3)  # sparse: no disk used
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    return {"/dev/zero": "/dev/zero", "fifo": str(fifo), "huge": str(huge), "folder": str(folder)}


COMMANDS = {
    "config check": lambda path: ["config", "check", "-q", path],
    "read --profile": lambda path: ["read", "--profile", path, PROFILE],
    "read --params": lambda path: ["read", "--game", "pips", "--params", path, PROFILE],
    "score": lambda path: ["score", path],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "huge", "folder"])
def test_odd_files_are_refused_in_one_line_without_reading_them_whole(odd_files, command, kind):
    # in a child process with a memory ceiling: an unbounded read of /dev/zero dies there, not here;
    # the timeout only turns a hang on the FIFO into a failure instead of a stuck suite
    argv = COMMANDS[command](odd_files[kind])
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
            "from rig.cli import main; sys.exit(main(sys.argv[1:]))")
    child = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120,
                           stdin=subprocess.DEVNULL)
    err = child.stderr
    if kind == "fifo" and child.returncode == 0:  # no writer: read as empty (an empty config is a valid one)
        assert err == ""
        return
    one_clean_line(child.returncode, err)
    words = {"/dev/zero": "too big", "fifo": "", "huge": "too big", "folder": "folder"}[kind]
    assert words in err, err


def test_invalid_utf8_inside_a_json_string_is_one_line():
    code, err = _run_cli(["score", "-"], b'{"game": "\xff\xfe"}')
    one_clean_line(code, err)
    assert "not UTF-8 text (byte 10 is 0xff)" in err


@pytest.mark.parametrize("name", ["x\ny", "\x1b[2J\x1b[31mred", "rtl\u202eevil", "a\rb", "bell\x07"])
def test_field_names_from_the_input_reach_the_terminal_escaped(name):
    import json

    from rig import registry

    turn = registry.get(registry.DEFAULT).example_request()
    turn[name] = 1
    code, err = _run_cli(["score", "-"], json.dumps(turn).encode())
    one_clean_line(code, err)
    assert "\x1b" not in err and "\u202e" not in err

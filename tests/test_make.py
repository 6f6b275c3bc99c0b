"""The two quick-start commands (issue 28): ``make run`` installs only what the rig runs on, takes
``PORT=``, says how to reach ``rig``; a Python that cannot make a venv is named in one line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[1]
# not the settings of a `make test` this suite may run under
ENV = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PORT", "RUN_ARGS", "VENV",
                                                     "TEST_FSYNC", "TEST_TMP"}}
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def dry_run(*args: str, venv: Path) -> str:
    done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), *args, f"VENV={venv}"],
                          capture_output=True, text=True, env=ENV)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_run_installs_the_runtime_only_and_takes_a_port(tmp_path):
    out = dry_run("run", "PORT=8081", venv=tmp_path / "venv")
    assert "pip install --quiet --disable-pip-version-check --no-compile -e .\n" in out  # byte code as imported
    assert "[test]" not in out  # no pytest, playwright, ruff ... to start the rig
    assert f"{tmp_path}/venv/bin/rig run --port 8081" in out
    assert f"The rig command is {tmp_path}/venv/bin/rig" in out


def test_make_run_passes_run_args_through(tmp_path):
    out = dry_run("run", "RUN_ARGS=--listen 0.0.0.0", venv=tmp_path / "venv")
    assert out.rstrip().endswith("/venv/bin/rig run  --listen 0.0.0.0")


def test_make_test_installs_the_test_tools(tmp_path):
    assert "-e '.[test]'" in dry_run("test", venv=tmp_path / "venv")


def test_make_test_runs_without_fsync_in_its_own_temp_dir_unless_told(tmp_path):
    out = dry_run("test", f"TEST_TMP={tmp_path / 't'}", venv=tmp_path / "venv")
    assert "eatmydata=eatmydata" in out  # installed with the test tools
    (pytest_line,) = [line for line in out.splitlines() if "-m pytest" in line]
    assert "$(command -v eatmydata) " in pytest_line
    assert f"PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX={tmp_path / 't'}/pycache " in pytest_line
    assert f"--basetemp={tmp_path / 't'}/last" in pytest_line
    synced = dry_run("test", "TEST_FSYNC=on", venv=tmp_path / "venv")
    assert "eatmydata" not in [line for line in synced.splitlines() if "-m pytest" in line][0]


def test_the_last_runs_temp_files_are_kept_and_older_ones_removed(tmp_path):
    def test_tmp():
        done = subprocess.run(["sh", str(ROOT / "scripts" / "test-tmp.sh"), str(tmp_path / "t")],
                              capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout == "", done.stderr

    test_tmp()
    assert list((tmp_path / "t").iterdir()) == []
    (tmp_path / "t" / "last" / "popen-gw0").mkdir(parents=True)
    (tmp_path / "t" / "last" / "popen-gw0" / "log.db").write_text("x")
    test_tmp()  # the next run: what the last left is moved aside at once and removed in the background
    assert not (tmp_path / "t" / "last").exists()
    wait_until(lambda: list((tmp_path / "t").iterdir()) == [], "the background removal of the run before")
    no_dir = subprocess.run(["sh", str(ROOT / "scripts" / "test-tmp.sh")], capture_output=True, text=True)
    assert no_dir.returncode == 2 and no_dir.stderr.strip() == "usage: test-tmp.sh DIR"


def fake_python(tmp_path: Path, body: str) -> Path:
    python = tmp_path / "python3"
    python.write_text(f"#!/bin/sh\n{body}\nexec {sys.executable} \"$@\"\n")
    python.chmod(0o755)
    return python


def make_venv(python: Path | str, venv: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(ROOT / "scripts" / "make-venv.sh"), str(python), str(venv)],
                          capture_output=True, text=True)


def test_a_python_without_venv_support_is_named_in_one_line(tmp_path):
    # stock Debian: python3 without the python3-venv package has no ensurepip
    python = fake_python(tmp_path, 'case "$*" in *ensurepip*) echo "ModuleNotFoundError: ensurepip" >&2; exit 1;; esac')
    done = make_venv(python, tmp_path / "venv")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"make: {python} cannot create a virtual environment: sudo apt-get install python3-venv "
        "(Debian's python3 leaves it out), then make again"]
    assert not (tmp_path / "venv").exists()


def test_a_missing_python_is_named_in_one_line(tmp_path):
    done = make_venv(tmp_path / "no-python3", tmp_path / "venv")
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and "is not installed" in done.stderr


def test_a_half_made_venv_is_made_again(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /nowhere\n")
    (venv / "bin" / "python").write_text("#!/bin/sh\nexit 1\n")  # what a failed `python3 -m venv` leaves
    (venv / "bin" / "python").chmod(0o755)
    done = make_venv(sys.executable, venv)
    assert done.returncode == 0, done.stderr
    assert subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "--version"], capture_output=True).returncode == 0


def test_a_port_in_the_environment_does_not_move_the_rig(tmp_path):
    done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), "run", f"VENV={tmp_path}/venv"],
                          capture_output=True, text=True, env=dict(ENV, PORT="3000"))
    assert done.stdout.rstrip().endswith("/venv/bin/rig run"), done.stdout

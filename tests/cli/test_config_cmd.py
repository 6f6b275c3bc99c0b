"""`rig config check|example|wiring`: validate without starting anything; show the example; draw the wiring."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from rig.cli import main
from rig.config import RigConfig

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "rig.toml"


def test_check_accepts_the_example_and_summarises_it(capsys):
    assert main(["config", "check", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{EXAMPLE}: OK\n")
    assert "5 players:" in out and "Dev" in out and "beam" in out and "GPIO5" in out
    assert "camera: picamera2 1280x960 @ 30 fps" in out


def test_check_quiet_prints_nothing_when_valid(capsys):
    assert main(["config", "check", "-q", str(EXAMPLE)]) == 0
    assert capsys.readouterr().out == ""


def test_check_refuses_with_file_line_and_key_on_one_stderr_line(tmp_path, capsys):
    path = tmp_path / "rig.toml"
    text = EXAMPLE.read_text(encoding="utf-8").replace('pin = "GPIO22"', 'pin = "GPIO27"')
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index('pin = "GPIO27"', text.splitlines().index('name = "Cleo"')) + 1
    assert main(["config", "check", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"rig config: error: {path}:{line}: players[2].pin: GPIO27 is already used by Ben\n"


def test_check_of_a_missing_file_and_of_broken_toml(tmp_path, capsys):
    assert main(["config", "check", str(tmp_path / "none.toml")]) == 2
    assert "none.toml: no such config file" in capsys.readouterr().err
    broken = tmp_path / "broken.toml"
    broken.write_text("[camera]\nwidth = = 3\n", encoding="utf-8")
    assert main(["config", "check", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not valid TOML" in err and "line 2" in err


def test_check_warns_about_reserved_pins_and_missing_files(tmp_path, capsys):
    path = tmp_path / "rig.toml"
    path.write_text('[camera]\nsource = "replay:rec"\n'
                    + "".join(f'[[players]]\nname = "P{i}"\npin = "GPIO{n}"\n' for i, n in enumerate((17, 14, 22))),
                    encoding="utf-8")
    assert main(["config", "check", str(path)]) == 0  # valid: warnings do not fail the check
    out = capsys.readouterr().out
    assert "warning: players[1].pin: GPIO14 (P1) is also the serial console (UART TX)" in out
    assert f"warning: camera.source: the recording {tmp_path / 'rec'} does not exist" in out


def test_check_refuses_a_missing_profile_and_deep_nesting(tmp_path, capsys):
    path = tmp_path / "rig.toml"
    path.write_text('profile = "missing.toml"\n', encoding="utf-8")
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"profile: {tmp_path / 'missing.toml'} does not exist" in err
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    assert main(["config", "check", str(path)]) == 2
    assert "nested too deeply" in capsys.readouterr().err


def test_example_prints_the_shipped_example_which_checks(tmp_path, capsys):
    assert main(["config", "example"]) == 0
    out = capsys.readouterr().out
    assert out == EXAMPLE.read_text(encoding="utf-8")
    written = tmp_path / "rig.toml"
    written.write_text(out, encoding="utf-8")
    assert len(RigConfig.load(written).players) == 5


def test_wiring_writes_an_svg(tmp_path, capsys):
    out = tmp_path / "wiring.svg"
    assert main(["config", "wiring", str(EXAMPLE), "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out} (5 players)\n"
    root = ET.parse(out).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "Rig wiring: rig.toml" in out.read_text(encoding="utf-8")


def test_wiring_without_a_file_draws_the_default_and_prints_the_table(capsys, monkeypatch):
    monkeypatch.delenv("RIG_CONFIG", raising=False)
    assert main(["config", "wiring", "--table"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "| player | part | terminal | goes to | header pin |"
    assert "| Eli | button | NO | GPIO6 | 31 |" in out
    assert "| Eli | button | COM | GND rail | 25 |" in out
    assert main(["config", "wiring", "--title", "Kitchen table"]) == 0
    assert "Kitchen table" in capsys.readouterr().out


def test_wiring_into_a_missing_folder_is_a_clean_error(tmp_path, capsys):
    assert main(["config", "wiring", str(EXAMPLE), "-o", str(tmp_path / "no" / "such" / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rig config: error: cannot write") and "Traceback" not in err


def test_the_rig_command_runs_it_end_to_end(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text("[server]\nport = 99999\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rig", "config", "check", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == f"rig config: error: {path}:2: server.port: 99999 is out of range (1 to 65535)\n"

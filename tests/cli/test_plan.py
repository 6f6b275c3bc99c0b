"""`rig plan`: from the config's [build] section, options, SVG, JSON, exit codes."""

from __future__ import annotations

import json

from rig.cli import main


def test_plan_from_config_prints_the_figures_and_writes_the_svg(tmp_path, capsys):
    config = tmp_path / "rig.toml"
    config.write_text('[camera]\nwidth = 1920\nheight = 1080\n[build]\nbox = [300, 220, 40]\ncamera = "cm3"\n'
                      'height_cm = 45\n', encoding="utf-8")
    svg = tmp_path / "plan.svg"
    assert main(["plan", "--config", str(config), "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert "lens 45 cm above" in out and "1920x1080" in out and "die:" in out and "sensor mode:" in out
    assert svg.read_text().startswith("<svg")
    assert main(["plan", "--config", str(config), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["box_mm"] == [300.0, 220.0, 40.0] and data["frame"] == [1920, 1080] and data["fits"]


def test_plan_that_does_not_fit_exits_1_and_bad_input_2(tmp_path, capsys):
    assert main(["plan", "--camera", "cm3-wide", "--height", "45"]) == 1
    assert "too small" in capsys.readouterr().out
    assert main(["plan", "--box", "5", "5", "5"]) == 2
    assert "error: box" in capsys.readouterr().err
    bad = tmp_path / "rig.toml"
    bad.write_text('[build]\ncamera = "gopro"\n', encoding="utf-8")
    assert main(["plan", "--config", str(bad)]) == 2
    assert "build.camera" in capsys.readouterr().err

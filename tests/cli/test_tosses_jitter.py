"""``rig tosses --calibrate-jitter``: the tie window measured on the inputs (gpiozero mock pins here)."""

import re

import pytest
from gpiozero import Device

from rig.cli import main


@pytest.fixture
def mock_env(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)


def test_calibrate_jitter_on_mock_pins_prints_the_spread_and_a_window(mock_env, capsys):
    code = main(["tosses", "--pin", "Ada=GPIO17", "--pin", "Ben=GPIO27", "--pin", "Cleo=GPIO22",
                 "--calibrate-jitter", "--simulate", "--rounds", "6"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Firing 6 simultaneous edges at 3 inputs on mock pins" in out
    assert "6 of 6 rounds with an edge on all 3 inputs — simulated" in out
    window = int(re.search(r"suggested: \[tosses\] tie_window_us = (\d+)", out).group(1))
    worst = int(re.search(r"worst (\d+) µs", out).group(1))
    assert window >= worst and window >= 1


def test_calibrate_jitter_refuses_a_drive_pin_with_simulate(mock_env, capsys):
    code = main(["tosses", "--pin", "Ada=GPIO17", "--pin", "Ben=GPIO27", "--calibrate-jitter", "--simulate",
                 "--drive", "GPIO20"])
    assert code == 2
    assert "leave out --drive" in capsys.readouterr().err


def test_calibrate_jitter_on_mock_pins_with_a_drive_pin_sees_no_edges(mock_env, capsys):
    # gpiozero's mock pins are not wired together: the output's edges never reach the inputs
    code = main(["tosses", "--pin", "Ada=GPIO17", "--pin", "Ben=GPIO27", "--calibrate-jitter", "--drive", "GPIO20",
                 "--rounds", "2"])
    out = capsys.readouterr().out
    assert code == 2 and "0 of 2 rounds with an edge on all 2 inputs (4 edges missed)" in out

"""``rig tosses`` on gpiozero's mock pins."""

import threading
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from rig.cli import main
from tests.waiting import WAIT_S


@pytest.fixture
def mock_env(monkeypatch):
    """GPIOZERO_PIN_FACTORY=mock, and no pin factory chosen yet."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)


def test_simulate_shows_presses_with_timestamps_gaps_and_bounce(mock_env, capsys):
    code = main(["tosses", "--pin", "Ada=GPIO17", "--pin", "Ben=GPIO27:beam", "--pin", "Cleo=BOARD15", "--simulate"])
    out = capsys.readouterr().out
    assert code == 0
    assert "3 inputs on mock pins" in out and "lockout 30 ms" in out
    assert "  Cleo         GPIO22  button" in out
    tosses = [line.split() for line in out.splitlines() if line.startswith("toss ")]
    assert len(tosses) == 6 and {t[1] for t in tosses} == {"Ada", "Ben", "Cleo"}
    times = [int(t[3]) for t in tosses]
    assert times == sorted(times) and tosses[0][4] == "µs"
    assert all(t[5] == "gap" and t[7] == "ms" for t in tosses[1:])
    assert abs(float(tosses[1][6]) - (times[1] - times[0]) / 1000) < 0.001
    assert out.count("bounce edges dropped") >= 6
    assert "  Ben          GPIO27  beam     2 tosses" in out


def test_players_from_the_config_file(mock_env, tmp_path, capsys):
    config = tmp_path / "rig.toml"
    config.write_text(
        "[tosses]\nlockout_ms = 25\n"
        + "".join(f'[[players]]\nname = "{n}"\npin = "{p}"\n'
                  for n, p in [("Ada", "GPIO5"), ("Ben", "GPIO6"), ("Cleo", "GPIO26")])
    )
    assert main(["tosses", "--config", str(config), "--simulate", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "lockout 25 ms" in out and "  Ada          GPIO5   button" in out
    assert sum(line.startswith("toss ") for line in out.splitlines()) == 6


def test_live_mode_stops_after_count(monkeypatch, capsys):
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)

    def press_when_open():
        deadline = time.monotonic() + WAIT_S  # the command opens its pins (slow on a loaded machine)
        while time.monotonic() < deadline:
            try:
                pins = {str(p): p for p in list(factory.pins.values())}
            except RuntimeError:  # the command is opening pins right now
                continue
            if "GPIO27" in pins and pins["GPIO27"].when_changed is not None:
                for _ in range(2):
                    pins["GPIO27"].drive_low()
                    time.sleep(0.05)
                    pins["GPIO27"].drive_high()
                    time.sleep(0.05)
                return
            time.sleep(0.01)

    presser = threading.Thread(target=press_when_open)
    presser.start()
    try:
        code = main(["tosses", "--pin", "Ben=GPIO27", "--count", "2", "--duration", "10"])
    finally:
        presser.join()
        factory.reset()
    out = capsys.readouterr().out
    assert code == 0
    assert [line.split()[1] for line in out.splitlines() if line.startswith("toss ")] == ["Ben", "Ben"]


def test_same_pin_twice_is_refused(mock_env, capsys):
    assert main(["tosses", "--pin", "Ada=GPIO17", "--pin", "Ben=17"]) == 2
    assert "player 'Ben': pin GPIO17 is already used by player 'Ada'" in capsys.readouterr().err


def test_bad_pin_argument_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["tosses", "--pin", "Ada=GPIO99"])
    assert exc.value.code == 2
    assert "GPIO99 is not a GPIO on the 40-pin header" in capsys.readouterr().err


def test_no_inputs_given(capsys):
    assert main(["tosses"]) == 2
    assert "give --config FILE or --pin" in capsys.readouterr().err


def test_no_gpio_says_so(no_gpio, capsys):
    assert main(["tosses", "--pin", "Ada=GPIO17"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rig tosses: error: no GPIO on this machine") and err.count("\n") == 1
    assert "GPIOZERO_PIN_FACTORY=mock" in err


@pytest.fixture
def plain_machine(monkeypatch):
    """No GPIOZERO_PIN_FACTORY, no pin factory chosen, no config file anywhere."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("RIG_CONFIG", raising=False)
    monkeypatch.setattr("rig.config.default_config_path", lambda: None)


def test_simulate_needs_no_config_and_no_environment(plain_machine, capsys):
    assert main(["tosses", "--simulate"]) == 0
    out = capsys.readouterr().out
    assert "5 inputs on mock pins" in out and "  Eli          GPIO6   button" in out  # the default players
    assert sum(line.startswith("toss ") for line in out.splitlines()) == 10  # two rounds


def test_simulate_honours_count(plain_machine, capsys):
    assert main(["tosses", "--simulate", "--count", "3"]) == 0
    out = capsys.readouterr().out
    assert sum(line.startswith("toss ") for line in out.splitlines()) == 3
    assert " 1 toss,  " in out and " 0 tosses," in out  # plurals in the summary


def test_count_below_one_and_no_inputs_say_what_to_do(plain_machine, capsys):
    assert main(["tosses", "--simulate", "--count", "0"]) == 2
    assert "--count must be at least 1" in capsys.readouterr().err
    assert main(["tosses"]) == 2
    err = capsys.readouterr().err
    assert "give --config FILE or --pin" in err and "--simulate tries it on simulated pins" in err

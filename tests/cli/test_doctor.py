"""`rig doctor` in simulation: MockFactory pins, the virtual camera, a stuck input, a missing profile,
an unwritable data directory, the service's states, a damaged database."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from rig.config import CameraConfig, RigConfig
from rig.doctor import (
    CHECKS,
    FAIL,
    NA,
    PASS,
    Check,
    Context,
    check_light,
    format_report,
    run_checks,
)
from rig.hardware.gpio_mock import TickPin
from tests.test_config import THREE

ROOT = Path(__file__).resolve().parents[2]



@pytest.fixture
def factory():
    pins = MockFactory(pin_class=TickPin)
    yield pins
    pins.close()


def config_in(tmp_path: Path, text: str = "", **changes) -> RigConfig:
    config = RigConfig.parse(f'data_dir = "{tmp_path / "data"}"\n' + text, base=tmp_path)
    return replace(config, **changes) if changes else config


def doctor(config, *, factory=None, run=None, systemctl=None, on_pi=False, only=(), **kw) -> dict[str, Check]:
    """Run the doctor's checks (``only`` those, e.g. ``("check_gpio",)``, to keep a test quick)."""
    ctx = Context.create(config, on_pi=on_pi, env={}, pin_factory=factory, systemctl=systemctl,
                         run=run or (lambda argv: (127, "", "unused")), **kw)
    results = run_checks(ctx, [c for c in CHECKS if not only or c.__name__ in only])
    assert [r.status for r in results if r.status not in (PASS, FAIL, NA)] == []
    return {r.name: r for r in results}


def failed(results: dict[str, Check]) -> list[str]:
    return [name for name, r in results.items() if r.status == FAIL]


def test_simulated_rig_passes_every_applicable_check(tmp_path, factory):
    results = doctor(config_in(tmp_path, THREE), factory=factory)
    assert failed(results) == []
    assert results["gpio"].status == PASS
    assert "3 pins exist and are free (Ada GPIO17, Ben GPIO27, Cleo GPIO22)" in results["gpio"].detail
    assert results["inputs idle"].status == PASS
    assert results["camera"].status == PASS and results["camera"].detail.startswith("virtual: 640x480 frame")
    assert results["data dir"].status == PASS
    assert results["database"].status == NA  # no game played yet
    assert results["service"].status == NA and results["picamera2"].status == NA
    report = format_report(list(results.values()), header="rig doctor")
    lines = report.splitlines()
    assert lines[0] == "rig doctor" and len(lines) == len(results) + 2  # no failure: no fix lines
    assert re.fullmatch(rf"{len(results)} checks: \d+ passed, 0 failed, \d+ not applicable here: "
                        "all applicable checks pass", lines[-1])


def test_stuck_button_and_blocked_beam_fail_with_the_fix(tmp_path, factory):
    factory.pin("GPIO17").wire_low()  # Ada's button held down (or wired to NC)
    factory.pin("GPIO27").wire_low()  # Ben's beam blocked
    results = doctor(config_in(tmp_path, THREE), factory=factory, only=("check_gpio", "check_inputs_idle"))
    idle = results["inputs idle"]
    assert idle.status == FAIL
    assert "Ada (GPIO17) button is down" in idle.detail and "Ben (GPIO27) beam is blocked" in idle.detail
    assert "Cleo" not in idle.detail
    assert "NO and COM terminals, not NC" in idle.fix and "emitter has power" in idle.fix
    assert results["gpio"].status == PASS  # the pins themselves are fine


def test_a_pin_held_by_another_program_fails_gpio(tmp_path, factory):
    other = Button("GPIO22", pin_factory=factory)
    try:
        results = doctor(config_in(tmp_path, THREE), factory=factory, only=("check_gpio", "check_inputs_idle"))
    finally:
        other.close()
    gpio = results["gpio"]
    assert gpio.status == FAIL and "Cleo" in gpio.detail and "GPIO22" in gpio.detail
    assert "sudo systemctl stop rig" in gpio.fix
    assert results["inputs idle"].status == NA


def test_missing_profile_fails_with_how_to_calibrate(tmp_path, factory):
    results = doctor(config_in(tmp_path, 'profile = "calibration/mine.toml"\n' + THREE), factory=factory)
    profile = results["profile"]
    assert profile.status == FAIL
    assert profile.detail == f"{(tmp_path / 'calibration' / 'mine.toml').resolve()} does not exist"
    assert "rig calibrate" in profile.fix
    assert failed(results) == ["profile"]


def test_a_broken_profile_fails(tmp_path, factory):
    (tmp_path / "p.toml").write_text("this is not a profile\n", encoding="utf-8")
    results = doctor(config_in(tmp_path, 'profile = "p.toml"\n' + THREE), factory=factory, only=("check_profile",))
    assert results["profile"].status == FAIL and "rig calibrate" in results["profile"].fix


def test_a_real_camera_without_a_profile_fails(tmp_path, factory):
    config = config_in(tmp_path, THREE, camera=CameraConfig("usb:0"))
    ctx = Context.create(config, on_pi=False, env={}, pin_factory=factory, systemctl=None)
    from rig.doctor import check_profile

    result = check_profile(ctx)
    assert result.status == FAIL and result.detail == "no calibration profile configured"


def test_unwritable_data_directory_fails(tmp_path, factory):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    config = replace(config_in(tmp_path, THREE), data_dir=blocker / "rig")
    results = doctor(config, factory=factory, only=("check_data_dir",))
    assert results["data dir"].status == FAIL
    assert results["data dir"].detail == f"{blocker / 'rig'} cannot be created: {blocker} is a file"
    config = replace(config, data_dir=blocker)
    results = doctor(config, factory=factory, only=("check_data_dir",))
    assert results["data dir"].detail == f"{blocker} is a file, not a folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_read_only_data_directory_fails(tmp_path, factory):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        results = doctor(replace(config_in(tmp_path, THREE), data_dir=folder), factory=factory,
                         only=("check_data_dir",))
    finally:
        folder.chmod(0o755)
    assert results["data dir"].status == FAIL and "not writable" in results["data dir"].detail
    assert "chown" in results["data dir"].fix


def test_the_data_dir_option_wins_over_the_config(tmp_path, factory):
    results = doctor(config_in(tmp_path, THREE), factory=factory, data_dir=tmp_path / "explicit",
                     only=("check_data_dir",))
    assert str(tmp_path / "explicit") in results["data dir"].detail


def test_a_healthy_event_log_passes_and_a_damaged_one_fails(tmp_path, factory):
    from rig.engine.log import open_log

    config = config_in(tmp_path, THREE)
    with open_log(config.data_dir) as log:
        log.append({"type": "game_started", "t_us": 1, "source": "test", "players": ["Ada", "Ben", "Cleo"]})
    database = doctor(config, factory=factory, only=("check_database",))["database"]
    assert database.status == PASS and "1 events" in database.detail and "integrity ok" in database.detail
    (config.data_dir / "rig.sqlite3").write_bytes(b"garbage, not SQLite" * 100)
    database = doctor(config, factory=factory, only=("check_database",))["database"]
    assert database.status == FAIL and "not a SQLite database" in database.detail
    assert "move the file away" in database.fix


def test_on_a_laptop_gpio_and_the_pi_camera_do_not_apply(tmp_path):
    config = config_in(tmp_path, THREE, camera=CameraConfig("picamera2"),
                       profile=None)
    results = doctor(config)  # no pin factory, not a Pi, no GPIOZERO_PIN_FACTORY
    assert results["gpio"].status == NA and "not a Raspberry Pi" in results["gpio"].detail
    assert results["inputs idle"].status == NA
    assert results["camera"].status == NA and results["picamera2"].status == NA
    assert results["light"].status == NA


def test_on_a_pi_without_picamera2_the_fix_says_how_to_install_it(tmp_path, factory, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("picamera2", "libcamera") else real(name, *a))
    config = config_in(tmp_path, THREE, camera=CameraConfig("picamera2"))
    from rig.doctor import check_picamera2

    result = check_picamera2(Context.create(config, on_pi=True, env={}, pin_factory=factory, systemctl=None))
    assert result.status == FAIL and "python3-picamera2" in result.fix and "--system-site-packages" in result.fix


def test_a_replay_that_does_not_exist_fails_the_camera(tmp_path, factory):
    config = config_in(tmp_path, '[camera]\nsource = "replay:nothing-here"\n' + THREE)
    camera = doctor(config, factory=factory)["camera"]
    assert camera.status == FAIL and "rig record" in camera.fix
    assert doctor(config, factory=factory)["light"].status == NA


def fake_systemctl(states: dict[str, str]):
    calls = []

    def run(argv):
        calls.append(argv[1:])
        verb = argv[1]
        if verb == "is-active":
            return (0 if states["active"] == "active" else 3), states["active"], ""
        if verb == "show":
            return 0, states.get("load", "loaded"), ""
        if verb == "is-enabled":
            return 0, states.get("enabled", "enabled"), ""
        raise AssertionError(argv)

    return run, calls


def test_service_running_passes_and_leaves_camera_and_pins_alone(tmp_path, factory):
    run, calls = fake_systemctl({"active": "active"})
    results = doctor(config_in(tmp_path, THREE), factory=factory, run=run, systemctl="/bin/systemctl")
    assert results["service"].status == PASS and results["service"].detail == "rig.service is active (enabled)"
    assert ["is-active", "rig"] in calls
    for name in ("gpio", "inputs idle"):
        assert results[name].status == NA
    assert "sudo systemctl stop rig" in results["gpio"].detail
    assert results["camera"].status == PASS  # the virtual camera is nobody's


@pytest.mark.parametrize(
    "states, status, words",
    [
        ({"active": "failed"}, FAIL, "journalctl -u rig"),
        ({"active": "inactive", "enabled": "disabled"}, FAIL, "sudo systemctl enable --now rig"),
        ({"active": "inactive"}, PASS, "inactive (enabled)"),
        ({"active": "inactive", "load": "not-found"}, NA, "not installed"),
    ],
)
def test_service_states(tmp_path, factory, states, status, words):
    run, _ = fake_systemctl(states)
    service = doctor(config_in(tmp_path, THREE), factory=factory, run=run, systemctl="/bin/systemctl",
                     only=("check_service",))["service"]
    assert service.status == status
    assert words in service.detail + service.fix


def test_systemd_not_running_does_not_apply(tmp_path, factory):
    run = lambda argv: (1, "", "System has not been booted with systemd as init system (PID 1). Can't operate.")  # noqa: E731
    service = doctor(config_in(tmp_path, THREE), factory=factory, run=run, systemctl="/bin/systemctl",
                     only=("check_service",))["service"]
    assert service.status == NA and "systemd is not running here" in service.detail


def test_an_invalid_config_fails_and_the_checks_that_need_it_do_not_apply(factory):
    ctx = Context.create(None, config_error="rig.toml:3: camera.widht: unknown key", on_pi=False, env={},
                         pin_factory=factory, systemctl=None)
    results = {r.name: r for r in run_checks(ctx)}
    assert results["config"].status == FAIL and "camera.widht" in results["config"].detail
    assert "docs/config.md" in results["config"].fix
    for name in ("camera", "gpio", "profile"):
        assert results[name].status == NA


def test_a_crashing_check_is_a_failure_not_a_traceback(tmp_path):
    def check_boom(ctx):
        raise KeyError("oops")

    (result,) = run_checks(Context.create(config_in(tmp_path), on_pi=False, env={}, systemctl=None), [check_boom])
    assert result.status == FAIL and result.name == "boom" and "KeyError" in result.detail


@pytest.mark.parametrize(
    "value, words",
    [(10, "too dark"), (255, "blown out")],
)
def test_light_check_refuses_dark_and_blown_out_frames(tmp_path, value, words):
    ctx = Context.create(config_in(tmp_path), on_pi=False, env={}, systemctl=None)
    ctx.frame = np.full((120, 160, 3), value, np.uint8)
    result = check_light(ctx)
    assert result.status == FAIL and words in result.detail and "docs/building.md#lighting" in result.fix


def test_the_rig_command_with_mock_pins(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text(f'data_dir = "{tmp_path / "data"}"\n' + THREE, encoding="utf-8")
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock")
    env.pop("RIG_CONFIG", None)
    done = subprocess.run([sys.executable, "-m", "rig", "doctor", "--config", str(path)], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].startswith("rig doctor on ")
    assert any(line.split()[:2] == ["PASS", "gpio"] for line in lines)
    assert any(line.split()[:3] == ["PASS", "inputs", "idle"] for line in lines)
    assert done.returncode == (1 if " FAIL " in done.stdout else 0)


def test_json_output(tmp_path, capsys, monkeypatch):
    from rig.cli import main

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    path = tmp_path / "rig.toml"
    path.write_text(f'data_dir = "{tmp_path / "data"}"\n' + THREE, encoding="utf-8")
    code = main(["doctor", "--config", str(path), "--json"])
    results = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(results["data dir"]) == {"name", "status", "detail", "fix"}
    assert results["data dir"]["status"] == "pass"
    assert code == (1 if any(r["status"] == "fail" for r in results.values()) else 0)


def test_the_rig_command_exits_1_on_a_failure(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text("[server]\nport = 0\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rig", "doctor", "--config", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    assert "FAIL  config" in done.stdout and f"{path}:2: server.port" in done.stdout
    assert "fix: correct that line" in done.stdout


def virtual_frame(lighting: str):
    import itertools

    from rig.hardware.virtual import VirtualTable

    with VirtualTable(seed=3, realtime=False, lighting=lighting) as table:
        table.roll(6)
        for _, frame in itertools.islice(table.frames(), 12):
            pass
    assert table.settled
    return frame


@pytest.fixture(scope="module")
def neutral_profile():
    from rig.vision.profile import Profile, default_profile_path

    return Profile.load(default_profile_path())


def light_check(tmp_path, frame, profile) -> Check:
    ctx = Context.create(config_in(tmp_path), on_pi=False, env={}, systemctl=None)
    ctx.frame, ctx.profile = frame, profile
    return check_light(ctx)


def test_light_check_reads_dice_under_the_calibrated_light(tmp_path, neutral_profile):
    result = light_check(tmp_path, virtual_frame("neutral"), neutral_profile)
    assert result.status == PASS
    assert "6 dice read" in result.detail and "match the profile" in result.detail


@pytest.mark.parametrize("lighting", ["warm", "dim"])
def test_light_check_fails_when_the_light_changed_since_calibration(tmp_path, neutral_profile, lighting):
    result = light_check(tmp_path, virtual_frame(lighting), neutral_profile)
    assert result.status == FAIL
    assert "The light changed — recalibrate" in result.detail  # beyond what the reader corrects
    assert "rig calibrate" in result.fix and "docs/building.md#lighting" in result.fix


# --------------------------------------------------------------------------- on the Pi (issue 14)


def test_picamera2_found_but_failing_to_import_fails_the_check(tmp_path, factory, monkeypatch):
    """find_spec says yes, the import says ValueError (NumPy 2 in the venv): the doctor must import it."""
    import importlib.abc
    import importlib.machinery
    import importlib.util

    class BrokenPicamera2(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, name, path=None, target=None):
            if name in ("picamera2", "libcamera"):
                return importlib.machinery.ModuleSpec(name, self)
            return None

        def create_module(self, spec):
            return None

        def exec_module(self, module):
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    monkeypatch.setattr(sys, "meta_path", [BrokenPicamera2(), *sys.meta_path])
    for name in ("picamera2", "libcamera"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert importlib.util.find_spec("picamera2") is not None
    config = config_in(tmp_path, THREE, camera=CameraConfig("picamera2"))
    from rig.doctor import check_picamera2

    result = check_picamera2(Context.create(config, on_pi=True, env={}, pin_factory=factory, systemctl=None))
    assert result.status == FAIL and "numpy.dtype size changed" in result.detail
    assert "NumPy 2" in result.detail and "constraints-pi.txt" in result.fix


@pytest.mark.parametrize("answer, status, words", [
    ("throttled=0x0", PASS, "no under-voltage"),
    ("throttled=0x50005", FAIL, "under-voltage now"),
    ("throttled=0x80000", FAIL, "soft temperature limit since boot"),
])
def test_power_reads_vcgencmd_get_throttled(tmp_path, answer, status, words):
    from rig.doctor import check_power

    calls = []

    def run(argv):
        calls.append(argv)
        return 0, answer, ""

    result = check_power(Context.create(config_in(tmp_path), on_pi=True, env={}, systemctl=None, run=run))
    assert calls == [["vcgencmd", "get_throttled"]]
    assert result.status == status and words in result.detail
    if status == FAIL and "under-voltage" in words:
        assert "power supply" in result.fix


def test_gpiozero_releases_the_rig_excludes_fail(tmp_path, monkeypatch):
    import importlib.metadata

    from rig.doctor import check_packages

    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version",
                        lambda dist: "2.0.1.post1" if dist == "gpiozero" else real(dist))
    result = check_packages(Context.create(config_in(tmp_path), on_pi=False, env={}, systemctl=None))
    assert result.status == FAIL and "gpiozero 2.0.1.post1" in result.detail


def test_a_read_only_working_directory_is_named_for_lgpio():
    from rig.hardware.tosses import lgpio_workdir_problem

    assert "LG_WD" in lgpio_workdir_problem({"GPIOZERO_PIN_FACTORY": "lgpio"}, "/no/such/folder")
    assert lgpio_workdir_problem({"GPIOZERO_PIN_FACTORY": "lgpio", "LG_WD": str(ROOT)}, "/no/such/folder") is None


def test_the_dice_sizes_kept_are_listed(tmp_path, factory):
    from rig.vision.kept_size import FILE_NAME, KeptDieSize

    config = config_in(tmp_path, THREE)
    sizes = doctor(config, factory=factory, only=("check_die_sizes",))["dice sizes"]
    assert sizes.status == NA and "none kept yet" in sizes.detail
    KeptDieSize(config.data_dir / FILE_NAME, "banana", "kitchen").put((960, 1280), 61.0)
    sizes = doctor(config, factory=factory, only=("check_die_sizes",))["dice sizes"]
    assert sizes.status == PASS and "banana, table kitchen, 1280x960: 61 px" in sizes.detail

"""The picamera2 adapter driven through the stand-in (tests/hardware/picamera2_standin.py).

The stand-in behaves as libcamera does on a Pi: AE off with nothing set freezes at 1 ms, and the
Camera Module 3 lens sits at 1 m until told otherwise. So a frozen exposure or an unfocused lens
fails these tests.
"""

import dataclasses
import importlib.abc
import sys

import numpy as np
import pytest

from rig.errors import HardwareError
from rig.hardware.camera import CameraLostError, open_source
from rig.hardware.picamera import PiCamera, import_picamera2
from tests.hardware import picamera2_standin as standin
from tests.waiting import wait_until


@pytest.fixture
def scene(monkeypatch):
    """A fresh stand-in camera and scene, installed as ``picamera2`` / ``libcamera`` for this test only."""
    fresh = standin.Scene()
    monkeypatch.setattr(standin, "SCENE", fresh)
    for name, module in standin.modules().items():
        monkeypatch.setitem(sys.modules, name, module)
    yield fresh
    assert fresh.opened == [], "a test left the camera open"


def sharpness(frame) -> float:
    import cv2

    return float(cv2.Laplacian(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


def read(cam, n=3):
    for _ in range(n):
        t_us, frame = cam.read()
    return frame


@dataclasses.dataclass
class Settings:
    exposure_us: int | None = None
    analogue_gain: float | None = None
    colour_gains: tuple | None = None
    lens_position: float | None = None


def test_without_calibrated_values_ae_awb_settle_then_lock_to_the_metadata(scene):
    with PiCamera(width=320, height=240) as cam:
        frame = read(cam)
        md = cam.last_metadata
        assert 80 < frame.mean() < 180, "frame too dark: exposure frozen at libcamera's 1 ms default?"
        assert md["ExposureTime"] > 5 * standin.AGC_DEFAULT_EXPOSURE_US
        assert cam.locked and md["AeState"] == 0  # AE off after settling: AeStateIdle
        assert md["ColourGains"] == pytest.approx(scene.right_gains, rel=0.02)
        # what it locked to is what it reports, and what calibration would store
        assert cam.settings()["exposure_us"] == md["ExposureTime"] == cam.exposure_us


def test_the_locked_exposure_is_a_whole_number_of_flicker_periods(scene):
    with PiCamera(width=320, height=240, flicker_hz=50) as cam:
        means = [read(cam, 1).mean() for _ in range(6)]
        assert cam.last_metadata["ExposureTime"] % 10_000 == 0
        assert max(means) - min(means) < 1.0  # no pulsing from frame to frame
    scene.mains_hz = 60
    with PiCamera(width=320, height=240, flicker_hz=60) as cam:
        read(cam)
        assert cam.last_metadata["ExposureTime"] % 8_333 == 0


def test_ae_off_with_nothing_set_is_what_the_old_adapter_did_and_is_near_black(scene):
    """The stand-in reproduces libcamera's frozen 1 ms: the check above would catch it."""
    cam = standin.Picamera2(0)
    try:
        cam.configure(cam.create_video_configuration(main={"size": (320, 240), "format": "RGB888"},
                                                     controls={"AeEnable": False, "AwbEnable": False}))
        cam.start()
        request = cam.capture_request()
        frame, md = request.make_array("main"), request.get_metadata()
        request.release()
        assert md["ExposureTime"] == 1000 and md["AnalogueGain"] == 1.0 and frame.mean() < 15
    finally:
        cam.close()


def test_a_profile_with_values_starts_locked_to_them(scene):
    profile = Settings(exposure_us=20_000, analogue_gain=1.6, colour_gains=(1.8, 1.5))
    with PiCamera(width=320, height=240, profile=profile, focus=40) as cam:
        read(cam)
        md = cam.last_metadata
        assert (md["ExposureTime"], md["AnalogueGain"], md["ColourGains"]) == (20_000, 1.6, (1.8, 1.5))
        assert cam.locked and md["AeState"] == 0


def test_focus_from_the_config_distance(scene):
    with PiCamera(width=320, height=240, focus=40) as cam:
        frame = read(cam)
        assert cam.last_metadata["LensPosition"] == pytest.approx(2.5)
        assert cam.last_metadata["FocusFoM"] > 15_000
        assert sharpness(frame) > 200, "blurred: the lens was left at 1 m"
        assert "40 cm" in cam.focus_detail


def test_an_autofocus_cycle_without_config_then_manual_hold(scene):
    scene.distance_m = 0.33
    with PiCamera(width=320, height=240) as cam:
        read(cam)
        assert cam.last_metadata["LensPosition"] == pytest.approx(1 / 0.33, rel=0.01)
        assert cam._cam.af_mode == 0  # held in manual: AfModeManual
        assert "autofocus cycle" in cam.focus_detail
        assert cam.settings()["lens_position"] == pytest.approx(1 / 0.33, rel=0.01)


def test_the_profiles_lens_position_is_used(scene):
    with PiCamera(width=320, height=240, profile=Settings(lens_position=2.5)) as cam:
        read(cam)
        assert cam.last_metadata["LensPosition"] == pytest.approx(2.5)
        assert "profile" in cam.focus_detail


def test_the_unfocused_default_would_fail(scene):
    """The lens at its 1 m default, as the old adapter left it: blurred, low FocusFoM."""
    with PiCamera(width=320, height=240, focus=100) as cam:
        frame = read(cam)
        assert cam.last_metadata["FocusFoM"] < 5_000 and sharpness(frame) < 100


def test_a_camera_without_autofocus_keeps_working(scene):
    scene.autofocus = False
    with PiCamera(width=320, height=240, focus=40) as cam:  # the stand-in raises on an unadvertised AfMode
        frame = read(cam)
        assert frame.shape == (240, 320, 3) and 80 < frame.mean() < 180
        assert "LensPosition" not in cam.last_metadata and "fixed-focus" in cam.focus_detail
        assert "lens_position" not in cam.settings()


def test_lock_button_locks_the_live_values_and_unlock_returns_to_auto(scene):
    with PiCamera(width=320, height=240) as cam:
        read(cam)
        cam.unlock_exposure()
        assert not cam.locked
        scene.lux = 0.5  # the light dims; AE follows it
        read(cam, 25)
        live = cam.last_metadata
        locked = cam.lock_exposure()
        assert locked["exposure_us"] == live["ExposureTime"]
        assert cam._cam.set_log[-1]["AeEnable"] is False
        assert cam._cam.set_log[-1]["ExposureTime"] == live["ExposureTime"]
        frame = read(cam)
        assert 80 < frame.mean() < 180


def test_every_request_is_released(scene):
    with PiCamera(width=160, height=120, focus=40) as cam:
        for _ in range(12):  # more than buffer_count: a leaked request would starve the camera
            cam.read()
        assert cam._cam.held == 0


def test_flips_and_crop(scene):
    with PiCamera(width=320, height=240, focus=40, hflip=True, vflip=True, crop=(0.25, 0.0, 0.5, 1.0)) as cam:
        frame = read(cam)
        assert frame.shape == (240, 160, 3)
        assert cam._cam.camera_config["transform"].hflip and cam._cam.camera_config["transform"].vflip


def test_an_unplugged_camera_is_lost_not_a_crash(scene):
    with PiCamera(width=160, height=120, focus=40, timeout_s=0.2) as cam:
        cam.read()
        scene.unplugged = True
        with pytest.raises(CameraLostError, match="no frame for 0.2 s"):
            cam.read()


def test_no_camera_and_a_busy_camera_are_named(scene):
    scene.cameras = 0
    with pytest.raises(HardwareError, match="no camera number 0 found"):
        PiCamera().start()
    scene.cameras = 1
    with PiCamera(width=160, height=120, focus=40):
        with pytest.raises(HardwareError, match="in use by another program"):
            PiCamera(width=160, height=120).start()


def test_open_source_passes_the_config_options(scene):
    from rig.config import RigConfig

    config = RigConfig.parse('[camera]\nsource = "picamera2"\nwidth = 320\nheight = 240\nfocus = 40\n'
                             'rotation = 180\nflicker_hz = 60\n')
    source = open_source(config.camera.source, **config.camera.options())
    assert isinstance(source, PiCamera)
    assert (source.focus, source.hflip, source.vflip, source.flicker_period_us) == (40.0, True, True, 8333)


class _BrokenNumpyFinder(importlib.abc.MetaPathFinder):
    """picamera2 failing at import as it does with NumPy 2 in the venv (picamera2 #1088, #1211)."""

    def find_spec(self, name, path=None, target=None):
        if name == "picamera2":
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. "
                             "Expected 96 from C header, got 88 from PyObject")
        return None


def test_any_import_failure_is_one_clear_line(monkeypatch):
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_BrokenNumpyFinder(), *sys.meta_path])
    with pytest.raises(HardwareError, match=r"importing picamera2 failed: ValueError: numpy.dtype size changed.*"
                                            r"NumPy 2 in the venv"):
        import_picamera2()
    monkeypatch.setitem(sys.modules, "picamera2", None)  # not installed at all
    with pytest.raises(HardwareError, match="apt install --no-install-recommends python3-picamera2"):
        PiCamera().start()


def test_frames_are_bgr(scene):
    """RGB888 is laid out B, G, R in memory: the stand-in's blue-cast raw shows it after AWB."""
    with PiCamera(width=320, height=240, focus=40) as cam:
        frame = read(cam)
        patch = frame[240 // 6 + 3, 320 // 4 + 320 // 16 + 3]  # the blue square
        assert patch[0] > patch[2] and isinstance(frame, np.ndarray)


# --------------------------------------------------------------------------- the rig with the Pi camera


def test_rig_starts_with_the_camera_missing_and_recovers_when_it_comes(scene, tmp_path):
    """A camera missing at start: the rig runs, the scoreboard says so, the watcher picks it up later."""
    from dataclasses import replace

    from gpiozero.pins.mock import MockFactory

    from rig.config import RigConfig
    from rig.app.runner import Rig

    scene.cameras = 0
    text = '[camera]\nsource = "picamera2"\nwidth = 320\nheight = 240\nfocus = 40\n'
    config = replace(RigConfig.parse(text), players=RigConfig.default().players[:3])
    with Rig(config, mode="real", data_dir=tmp_path / "data", pin_factory=MockFactory()) as rig:
        status = rig.status()
        assert status["camera"]["connected"] is False
        notice = {n["key"]: n for n in status["notices"]}["camera"]
        assert notice["kind"] == "bad" and "no camera number 0 found" in notice["text"]
        assert rig.healthy()  # the watchdog is happy: no restart loop
        scene.cameras = 1  # the ribbon cable pushed back in
        wait_until(lambda: rig.status()["camera"]["connected"], "the camera to connect")
        assert rig.status()["camera"]["connected"] is True
        assert not any(n["key"] == "camera" for n in rig.status()["notices"])
        # the calibration page shows the live values, the focus figure, and the lock state
        desk = rig.desk.status()["camera"]
        assert desk["locked"] is True and desk["focus_fom"] > 15_000 and "40 cm" in desk["focus"]
        assert desk["settings"]["exposure_us"] > 5000
        rig.desk.lock(False)
        assert rig.desk.status()["camera"]["locked"] is False
        rig.desk.lock(True)
        assert "exposure_us" in rig.desk.lock_detail


def test_calibration_stores_the_metadata_values(scene, tmp_path, monkeypatch):
    import time
    from dataclasses import replace
    from types import SimpleNamespace

    from gpiozero.pins.mock import MockFactory

    import rig.vision.calibrate as calibrate
    from rig.config import RigConfig
    from rig.app.runner import Rig
    from rig.vision.profile import Profile, default_profile_path

    seen = {}

    def fit_profile(samples, **kwargs):  # the colour fit is not what this test is about
        seen.update(kwargs)
        return SimpleNamespace(profile=Profile.load(default_profile_path()), separation={"blue/pink": 9.0},
                               lines=lambda _=None: [], warning_lines=lambda _=None: [], warnings=[])

    monkeypatch.setattr(calibrate, "fit_profile", fit_profile)
    text = '[camera]\nsource = "picamera2"\nwidth = 320\nheight = 240\nfocus = 40\n'
    config = replace(RigConfig.parse(text), players=RigConfig.default().players[:3])
    with Rig(config, mode="real", data_dir=tmp_path / "data", pin_factory=MockFactory()) as rig:
        while rig.watcher.frames_seen < 3:
            time.sleep(0.02)
        md = rig.source.last_metadata
        rig.desk.fit()
        assert seen["exposure_us"] == md["ExposureTime"] and seen["colour_gains"] == pytest.approx(md["ColourGains"], abs=1e-4)
        assert rig.desk.fitted.lens_position == pytest.approx(2.5)
        saved = rig.desk.profile_dir / "x.toml"
        rig.desk.fitted.save(saved)
        assert Profile.load(saved).lens_position == pytest.approx(2.5)


def test_rig_doctor_checks_the_pi_camera(scene, tmp_path):
    from rig.config import RigConfig
    from rig.doctor import PASS, Context, check_camera, check_picamera2

    config = RigConfig.parse('[camera]\nsource = "picamera2"\nwidth = 320\nheight = 240\nfocus = 40\n')
    ctx = Context.create(config, on_pi=True, env={}, systemctl=None)
    imported = check_picamera2(ctx)
    assert imported.status == PASS and "imports (numpy" in imported.detail
    result = check_camera(ctx)
    assert result.status == PASS, result
    assert "(locked)" in result.detail and "40 cm" in result.detail and "FocusFoM" in result.detail
    assert 80 < ctx.frame.mean() < 180


def test_rig_record_notes_the_camera_values_for_calibration(scene, tmp_path):
    import json

    from rig.cli import main

    config = tmp_path / "rig.toml"
    config.write_text('[camera]\nsource = "picamera2"\nwidth = 320\nheight = 240\nfocus = 40\n')
    assert main(["record", str(tmp_path / "rec"), "--frames", "2", "--config", str(config)]) == 0
    session = json.loads((tmp_path / "rec" / "recording.json").read_text())["sessions"][-1]
    assert session["camera"]["exposure_us"] > 5000 and session["camera"]["focus_fom"] > 15_000
    assert session["camera"]["lens_position"] == 2.5


def test_a_failing_autofocus_cycle_leaves_the_camera_working(scene, monkeypatch):
    def fails(self, wait=None, signal_function=None):
        raise TimeoutError()

    monkeypatch.setattr(standin.Picamera2, "autofocus_cycle", fails)
    with PiCamera(width=160, height=120) as cam:
        assert cam.read()[1].shape == (120, 160, 3)
        assert "did not converge: set camera.focus" in cam.focus_detail

"""On a real Raspberry Pi with the camera attached: frames arrive, with locked exposure and sensor timestamps.

Run with ``make hardware-test`` (sets RIG_HARDWARE=1); skipped everywhere else.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

pytestmark = [
    pytest.mark.hardware,
    pytest.mark.skipif(os.environ.get("RIG_HARDWARE") != "1",
                       reason="needs a real Raspberry Pi camera (RIG_HARDWARE=1)"),
]


def test_the_pi_camera_delivers_locked_frames_with_sensor_timestamps():
    from rig.hardware.camera import open_source, now_us

    camera = open_source("picamera2", width=1280, height=960, fps=15, exposure_us=10000, analogue_gain=2.0,
                         colour_gains=(1.8, 1.6))
    with camera:
        frames = [item for _, item in zip(range(10), camera.frames())]
        metadata = camera.last_metadata
    times = [t for t, _ in frames]
    assert all(f.shape == (960, 1280, 3) for _, f in frames)
    assert times == sorted(times) and len(set(times)) == len(times)
    assert abs(times[-1] - now_us()) < 5_000_000, "SensorTimestamp should be on the monotonic clock"
    assert abs(metadata["ExposureTime"] - 10000) < 500
    assert abs(metadata["AnalogueGain"] - 2.0) < 0.1


def test_the_watcher_reads_the_pi_camera():
    from rig.hardware.camera import CameraWatcher, open_source
    from rig.vision.rolls import RollTracker

    events = []
    tracker = RollTracker(read=lambda frame: SimpleNamespace(dice=(), status="ok", reasons=()))
    watcher = CameraWatcher(open_source("picamera2", width=640, height=480), tracker, events.append)
    with watcher:
        assert watcher.wait(2) is False  # a live camera never "ends"
    assert watcher.frames_seen > 5 and watcher.lost is None


def test_exposure_is_not_frozen_and_is_locked_after_settling():
    """No calibrated values: AE/AWB settle, then lock to the metadata (not libcamera's frozen 1 ms, gain 1.0)."""
    from rig.hardware.picamera import PiCamera

    with PiCamera(width=640, height=480) as camera:
        frames = [item for _, item in zip(range(10), camera.frames())]
        md = camera.last_metadata
        assert camera.locked and md.get("AeState", 0) == 0  # AeStateIdle: locked
        assert (md["ExposureTime"], md["AnalogueGain"]) != (1000, 1.0), "exposure frozen at libcamera's default"
        mean = float(frames[-1][1].mean())
        assert 40 < mean < 220, f"mean brightness {mean:.0f}: light the box (docs/building.md#lighting)"
        settings = camera.settings()
        assert settings["exposure_us"] == md["ExposureTime"] and len(settings["colour_gains"]) == 2


def focus_figure(camera, frames: int = 5) -> int:
    """libcamera's FocusFoM of the last of a few frames (the lens has moved by then)."""
    for _ in range(frames):
        camera.read()
    return int(camera.last_metadata["FocusFoM"])


def test_the_focus_figure_rises_when_the_lens_is_focused():
    """Camera Module 3: an autofocus cycle (or RIG_TEST_FOCUS_CM) beats the lens parked far away."""
    from rig.hardware.picamera import PiCamera

    focus = os.environ.get("RIG_TEST_FOCUS_CM", "auto")
    with PiCamera(width=640, height=480, focus=focus if focus == "auto" else float(focus)) as camera:
        if "fixed-focus" in camera.focus_detail:
            pytest.skip("this camera has no focus lens")
        sharp = focus_figure(camera)
        print(camera.focus_detail, "FocusFoM", sharp)
    with PiCamera(width=640, height=480, focus=1000) as camera:  # 0.1 dioptre: focused at 10 m
        far = focus_figure(camera)
    assert sharp > 1.2 * far, f"FocusFoM focused {sharp} vs far {far}: is the box 30-50 cm from the lens?"

"""Frame sources: the spec, replay of folders and videos, USB and picamera2 faults, the watcher."""

from __future__ import annotations

import ast
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from rig.errors import ConfigError, HardwareError
from rig.hardware.camera import CameraLostError, CameraWatcher, SourceSpec, open_source, track
from rig.hardware.picamera import PiCamera, locked_controls
from rig.hardware.replay import ReplaySource
from rig.hardware.usbcam import UsbCamera
from rig.hardware.virtual import VirtualTable
from tests.waiting import WAIT_S

RIG = Path(__file__).resolve().parents[2] / "rig"


@pytest.mark.parametrize(
    ("spec", "kind", "target"),
    [("picamera2", "picamera2", ""), ("usb:0", "usb", "0"), ("usb:/dev/video2", "usb", "/dev/video2"),
     ("replay:rec/a b", "replay", "rec/a b"), ("virtual", "virtual", ""), (" Virtual ", "virtual", "")],
)
def test_spec_parses_every_kind(spec, kind, target):
    parsed = SourceSpec.parse(spec)
    assert (parsed.kind, parsed.target) == (kind, target)


@pytest.mark.parametrize("spec", ["", "webcam", "usb:", "usb:front", "replay:", "virtual:3", "picamera2:1"])
def test_spec_refuses_what_it_does_not_know(spec):
    with pytest.raises(ConfigError, match="camera source"):
        SourceSpec.parse(spec)


def test_open_source_builds_each_kind_without_touching_the_camera(tmp_path):
    assert isinstance(open_source("picamera2", width=640, height=480, seed=1), PiCamera)
    usb = open_source("usb:3", width=800, height=600, fps=15)
    assert isinstance(usb, UsbCamera) and (usb.device, usb.width, usb.fps) == (3, 800, 15.0)
    replay = open_source(f"replay:{tmp_path}", width=9)
    assert isinstance(replay, ReplaySource) and replay.path == tmp_path and replay.realtime
    virtual = open_source("virtual", width=320, height=240, seed=4, realtime=False, profile=None)
    assert isinstance(virtual, VirtualTable) and (virtual.width, virtual.seed) == (320, 4)
    assert not virtual.started and repr(virtual) == "<VirtualTable 'virtual' 320x240@12fps stopped>"


def test_a_missing_usb_camera_is_a_hardware_error_naming_it():
    with pytest.raises(HardwareError, match=r"camera usb:9: no USB camera there"):
        with open_source("usb:9"):
            pass


def write_frames(folder: Path, count: int, *, named=True) -> list[np.ndarray]:
    folder.mkdir(parents=True, exist_ok=True)
    frames = []
    for i in range(count):
        frame = np.full((48, 64, 3), 20 * i, np.uint8)
        name = f"frame-{i + 1:06d}-{1_000_000 + i * 50_000}.png" if named else f"img{i:03d}.png"
        cv2.imwrite(str(folder / name), frame)
        frames.append(frame)
    return frames


def test_replay_of_a_recorded_folder_keeps_order_and_timestamps(tmp_path):
    frames = write_frames(tmp_path / "rec", 4)
    (tmp_path / "rec" / "recording.json").write_text("{}")
    with open_source(f"replay:{tmp_path / 'rec'}", realtime=False) as source:
        got = list(source.frames())
    assert [t for t, _ in got] == [1_000_000, 1_050_000, 1_100_000, 1_150_000]
    assert all(np.array_equal(a, b) for (_, a), b in zip(got, frames))
    assert source.frame_count == 4 and (source.width, source.height) == (64, 48)


def test_replay_without_timestamps_spaces_frames_by_fps_and_loops(tmp_path):
    write_frames(tmp_path, 3, named=False)
    source = ReplaySource(tmp_path, fps=10, loop=True, realtime=False)
    with source:
        times = [item[0] for _, item in zip(range(7), source.frames())]
    assert times == [0, 100_000, 200_000, 300_000, 400_000, 500_000, 600_000]


def test_replay_in_realtime_waits_for_each_frames_time(tmp_path, monkeypatch):
    import rig.hardware.replay as replay

    write_frames(tmp_path, 3)
    clock, sleeps = [7_000_000], []

    def sleep(seconds):
        sleeps.append(round(seconds * 1e6))
        clock[0] += round(seconds * 1e6)

    monkeypatch.setattr(replay, "now_us", lambda: clock[0])
    monkeypatch.setattr(replay.time, "sleep", sleep)
    with ReplaySource(tmp_path) as source:
        frames = source.frames()
        next(frames)
        clock[0] += 10_000  # the reader took 10 ms of the 50 ms between frames
        next(frames), next(frames)
    assert sleeps == [40_000, 50_000]


def test_replay_of_a_video_file(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    with open_source(f"replay:{path}", realtime=False) as source:
        got = list(source.frames())
    assert len(got) == 5
    assert [t for t, _ in got] == sorted(t for t, _ in got)
    assert abs(int(got[3][1].mean()) - 120) < 8


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p / "nothing", "no such folder or video file"),
    (lambda p: p, "the folder has no images"),
    (lambda p: (p / "notes.txt").write_text("hi") and p / "notes.txt", "not a video OpenCV can read"),
])
def test_replay_of_a_bad_path_names_it(tmp_path, make, message):
    path = make(tmp_path)
    with pytest.raises(HardwareError, match=message) as info:
        open_source(f"replay:{path}").start()
    assert f"replay:{path}" in str(info.value)


def test_replay_of_an_unreadable_image_names_the_file(tmp_path):
    write_frames(tmp_path, 1)
    (tmp_path / "frame-000002-2000000.png").write_bytes(b"not a png")
    with pytest.raises(HardwareError, match="cannot read image frame-000002-2000000.png"):
        list(ReplaySource(tmp_path, realtime=False).frames())


def test_track_feeds_every_frame_and_forwards_events(tmp_path):
    write_frames(tmp_path, 5)

    class Counter:
        def __init__(self):
            self.times = []

        def feed(self, t_us, frame):
            self.times.append(t_us)
            return [("event", t_us)] if len(self.times) == 3 else []

    counter, events = Counter(), []
    with ReplaySource(tmp_path, realtime=False) as source:
        assert track(source, counter, events.append) == 5
    assert events == [("event", 1_100_000)] and len(counter.times) == 5


# -- picamera2 ---------------------------------------------------------------------------
def test_picamera2_is_imported_only_inside_its_adapter():
    offenders = []
    for path in RIG.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n.split(".")[0] in ("picamera2", "libcamera") for n in names):
                offenders.append((path.relative_to(RIG).as_posix(), node.col_offset))
    assert {p for p, _ in offenders} <= {"hardware/picamera.py"}
    assert all(col > 0 for _, col in offenders), "picamera2 must be imported inside a function, not at module level"


def test_picamera2_is_never_imported_on_a_machine_without_it():
    code = (
        "import sys, rig.cli, rig.hardware, rig.hardware.camera, rig.hardware.picamera, rig.hardware.usbcam, "
        "rig.hardware.replay, rig.hardware.virtual, rig.vision.rolls, rig.cli.record\n"
        "from rig.errors import HardwareError\n"
        "from rig.hardware.camera import open_source\n"
        "rig.cli.build_parser()\n"
        "assert 'picamera2' not in sys.modules\n"
        "cam = open_source('picamera2')\n"
        "try:\n"
        "    cam.start()\n"
        "except HardwareError as exc:\n"
        "    print(exc)\n"
        "assert not cam.started\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "camera picamera2: the picamera2 package cannot be imported" in result.stdout


# The adapter's behaviour against picamera2 / libcamera is tested with the stand-in in test_picamera.py.


def test_picamera2_locks_exposure_and_white_balance_to_the_profile():
    profile = types.SimpleNamespace(exposure_us=12000, analogue_gain=1.5, colour_gains=(2.1, 1.7))
    assert PiCamera(fps=15, profile=profile).controls == {
        "AeEnable": False, "ExposureTime": 12000, "AnalogueGain": 1.5, "AwbEnable": False,
        "ColourGains": (2.1, 1.7), "FrameRate": 15.0}


def test_without_values_ae_and_awb_run_flicker_aware():
    assert PiCamera(fps=15, flicker_hz=60).controls == {
        "AeEnable": True, "AwbEnable": True, "FrameRate": 15.0, "AeFlickerMode": 1, "AeFlickerPeriod": 8333}


def test_explicit_camera_settings_beat_the_profile():
    profile = types.SimpleNamespace(exposure_us=12000, analogue_gain=1.5, colour_gains=None)
    assert locked_controls(profile, exposure_us=9000) == {
        "AeEnable": False, "ExposureTime": 9000, "AnalogueGain": 1.5, "AwbEnable": True}


# -- the watcher -------------------------------------------------------------------------
class Recorder:
    def __init__(self):
        self.events = []
        self.resets = 0
        self.frames = 0

    def feed(self, t_us, frame):
        self.frames += 1
        return []

    def reset_motion(self):
        self.resets += 1


def test_watcher_refuses_a_camera_missing_at_start(tmp_path):
    watcher = CameraWatcher(open_source(f"replay:{tmp_path / 'gone'}"), Recorder(), print)
    with pytest.raises(HardwareError, match="gone: no such folder"):
        watcher.start()
    assert not watcher.running


def test_watcher_plays_a_replay_to_its_end(tmp_path):
    write_frames(tmp_path, 6)
    tracker, seen = Recorder(), []
    with CameraWatcher(ReplaySource(tmp_path, realtime=False), tracker, seen.append) as watcher:
        assert watcher.wait(WAIT_S)
    assert tracker.frames == 6 and watcher.frames_seen == 6 and seen == []
    assert watcher.latest[0] == 1_250_000


def test_the_end_of_a_replay_is_an_expected_end(tmp_path):
    write_frames(tmp_path, 4)
    with CameraWatcher(ReplaySource(tmp_path, realtime=False), Recorder(), print) as watcher:
        assert watcher.wait(WAIT_S)
        assert watcher.ended and not watcher.running and watcher.lost is None
        assert "ended" in repr(watcher)
    looping = CameraWatcher(ReplaySource(tmp_path, realtime=False, loop=True), Recorder(), print)
    with looping:
        while looping.frames_seen < 10 and looping.running:
            time.sleep(0.01)
        assert looping.running and not looping.ended
    assert not looping.ended  # stopped by its owner: not the recording's end


def test_watcher_reports_loss_retries_and_recovers():
    table = VirtualTable(width=160, height=120, realtime=False, seed=2)
    tracker, events = Recorder(), []
    lost, back = threading.Event(), threading.Event()

    def on_event(event):
        events.append(event)
        (lost if event.type == "camera_lost" else back).set()

    flowing = threading.Event()

    def on_frame(t_us, frame):
        if back.is_set():
            flowing.set()

    watcher = CameraWatcher(table, tracker, on_event, on_frame=on_frame, backoff=(0.01, 0.02))
    with watcher:
        table.drop()
        assert lost.wait(WAIT_S)
        assert watcher.lost == "camera virtual: no frames (simulated unplug)"
        table.restore()
        assert back.wait(WAIT_S) and flowing.wait(WAIT_S)
    assert [e.type for e in events] == ["camera_lost", "camera_recovered"]
    assert events[0].t_us <= events[1].t_us
    assert tracker.resets == 1 and watcher.lost is None
    assert not table.started


class FakeCapture:
    """Stands in for cv2.VideoCapture on a USB webcam that accepts manual settings."""

    def __init__(self, device, backend):
        self.device, self.props, self.reads, self.unplugged, self.released = device, {}, 0, False, False
        self.taken_ms = 0.0  # no buffer timestamp (0: the driver gave none) until a frame is read

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.props[prop] = value
        return prop != cv2.CAP_PROP_WB_TEMPERATURE  # this driver refuses a white-balance temperature

    def read(self):
        if self.unplugged:
            return False, None
        self.reads += 1
        self.taken_ms = time.monotonic() * 1000 - 5.0  # the buffer was filled 5 ms before it was read
        return True, np.full((600, 800, 3), self.reads, np.uint8)

    def get(self, prop):
        assert prop == cv2.CAP_PROP_POS_MSEC  # the V4L2 buffer's timestamp (monotonic clock, ms)
        return self.taken_ms

    def release(self):
        self.released = True


def test_usb_camera_asks_for_manual_exposure_and_white_balance(monkeypatch):
    made = []

    def video_capture(device, backend):
        made.append(FakeCapture(device, backend))
        return made[-1]

    monkeypatch.setattr(cv2, "VideoCapture", video_capture)
    profile = types.SimpleNamespace(exposure_us=20000)
    camera = open_source("usb:2", width=800, height=600, fps=15, profile=profile, wb_temperature=4500, timeout_s=0)
    with camera:
        (t1, f1), (t2, f2) = [item for _, item in zip(range(2), camera.frames())]
        cap = made[0]
        assert cap.device == 2 and cap.props[cv2.CAP_PROP_FRAME_WIDTH] == 800
        assert cap.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1 and cap.props[cv2.CAP_PROP_EXPOSURE] == 200.0
        assert cap.props[cv2.CAP_PROP_AUTO_WB] == 0
        assert cap.props[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter_fourcc(*"MJPG")
        assert t2 == round(cap.taken_ms * 1000)  # the driver's timestamp, not the read time
        assert camera.applied == {"manual exposure": True, "manual white balance": True,
                                  "white balance temperature": False}
        assert t1 <= t2 and int(f2[0, 0, 0]) == 3 and (camera.width, camera.height) == (800, 600)
        cap.unplugged = True
        with pytest.raises(CameraLostError, match="camera usb:2: no frame for 0 s"):
            camera.read()
    assert cap.released


def test_usb_camera_flips_and_crops(monkeypatch):
    made = []

    class Gradient(FakeCapture):
        def read(self):
            frame = np.zeros((600, 800, 3), np.uint8)
            frame[:, :, 0] = np.arange(800) // 4  # blue rises left to right
            frame[:, :, 1] = (np.arange(600) // 4)[:, None]  # green rises top to bottom
            return True, frame

    def video_capture(device, backend):
        made.append(Gradient(device, backend))
        return made[-1]

    monkeypatch.setattr(cv2, "VideoCapture", video_capture)
    with open_source("usb:0", width=800, height=600, hflip=True, vflip=True, crop=(0.5, 0.0, 0.5, 0.5)) as camera:
        _, frame = camera.read()
    assert frame.shape == (300, 400, 3)
    # turned by 180°: the crop's top-left is the original's bottom-right corner region
    assert int(frame[0, 0, 0]) == (799 - 400) // 4 and int(frame[0, 0, 1]) == 599 // 4

"""A stand-in for picamera2 (and the bit of libcamera's Python module it needs), for CI.

picamera2 only installs on Raspberry Pi OS, so tests put this module in ``sys.modules`` as
``picamera2`` and ``libcamera`` (never outside tests). It honours picamera2's API and the
Raspberry Pi libcamera IPA's behaviour as read in their sources (picamera2 3e6dff0,
raspberrypi/libcamera 26bfadc):

- ``Picamera2.global_camera_info()``, ``Picamera2(num)``, ``camera_controls`` as
  ``{name: (min, max, default)}``, ``create_video_configuration``/``configure``/``start``,
  ``capture_request(wait=False)`` returning a job with ``get_result(timeout)``,
  ``capture_metadata(wait=seconds)``, ``set_controls`` (a control libcamera does not advertise
  raises ``RuntimeError("Control X is not advertised by libcamera")``, picamera2/controls.py),
  ``autofocus_cycle``, requests that must be ``release()``d (a double release raises, and with
  all ``buffer_count`` requests held no new frame comes).
- Controls take effect a couple of frames after they are set (the pipeline's delay).
- AGC (agc_channel.cpp): AE off with no ``ExposureTime`` ever given freezes at the start-up
  default ``default_exposure_time`` = 1000 µs, gain 1.0; AE on converges, ``AeState`` 1 ->
  2 (ipa_base.cpp), and with ``AeFlickerMode`` manual (1) + ``AeFlickerPeriod`` keeps the
  exposure a whole number of periods; ``AeFlickerMode`` auto (2) is refused (logged) by the
  Raspberry Pi IPA. The room's light flickers at twice the mains frequency, so other exposures
  pulse from frame to frame.
- AWB: on, the gains walk to the scene's; off, they stay at what was last used or set.
- Focus (af.cpp, imx708.json): ``AfMode`` manual (0) by default, the lens at ``LensPosition``
  1.0 dioptre (1 m) until told otherwise; the frame is blurred by the focus error and
  ``FocusFoM`` falls with it. A camera without a focus lens advertises no ``AfMode`` /
  ``LensPosition`` (ipa_base.cpp declares them only when a lens is present).
"""

from __future__ import annotations

import math
import time
import types
from dataclasses import dataclass, field

import numpy as np

AGC_DEFAULT_EXPOSURE_US = 1000  # agc_channel.cpp: config default_exposure_time
AF_DEFAULT_LENS = 1.0  # imx708.json rpi.af ranges.normal.default
AE_SEARCHING, AE_CONVERGED = 1, 2
AF_IDLE, AF_SCANNING, AF_FOCUSED = 0, 1, 2


@dataclass
class Scene:
    """What the camera looks at, and the camera itself."""

    lux: float = 1.0  # light on the box: 1.0 wants ~20 ms at gain 1.6
    distance_m: float = 0.4  # lens to the box bottom
    mains_hz: int = 50
    flicker_depth: float = 0.35
    autofocus: bool = True  # Camera Module 3; False: Camera Module 2 (fixed focus)
    cast: tuple[float, float] = (0.55, 0.65)  # raw red / blue relative to green: AWB wants (1/0.55, 1/0.65)
    cameras: int = 1
    unplugged: bool = False
    frame_us: int = 33_333
    opened: list = field(default_factory=list)

    @property
    def right_gains(self) -> tuple[float, float]:
        return (1 / self.cast[0], 1 / self.cast[1])


SCENE = Scene()


def _pattern(width: int, height: int) -> np.ndarray:
    """A grey box bottom with white and coloured squares (reflectances 0..1, linear RGB)."""
    img = np.full((height, width, 3), 0.35, np.float32)
    side = max(4, width // 10)
    colours = [(0.9, 0.9, 0.9), (0.2, 0.3, 0.85), (0.9, 0.4, 0.6), (0.85, 0.8, 0.2)]
    for i in range(8):
        x = (i % 4) * (width // 4) + width // 16
        y = (i // 4) * (height // 2) + height // 6
        img[y:y + side, x:x + side] = colours[i % 4]
    return img


class _Job:
    def __init__(self, fn):
        self._fn = fn

    def get_result(self, timeout=None):
        return self._fn(timeout)


class CompletedRequest:
    def __init__(self, cam, frame, metadata):
        self._cam, self._frame, self._metadata = cam, frame, metadata
        self.ref_count = 1

    def make_array(self, name):
        if name != "main":
            raise RuntimeError(f"Stream {name!r} is not defined")
        return np.copy(self._frame)

    def get_metadata(self):
        assert self.ref_count > 0
        return dict(self._metadata)

    def release(self):
        self.ref_count -= 1
        if self.ref_count < 0:
            raise RuntimeError("CompletedRequest: lock now has negative ref_count")
        if self.ref_count == 0:
            self._cam.held -= 1


class Transform:
    def __init__(self, hflip=0, vflip=0, transpose=0, rotation=0):
        self.hflip, self.vflip = bool(hflip), bool(vflip)
        if rotation == 180:
            self.hflip, self.vflip = not self.hflip, not self.vflip


class Picamera2:
    """See the module docstring."""

    @staticmethod
    def global_camera_info():
        return [{"Model": "imx708" if SCENE.autofocus else "imx219", "Location": 2, "Rotation": 180,
                 "Id": f"/base/axi/pcie@120000/rp1/i2c@{80000 + i}/imx708@1a", "Num": i}
                for i in range(SCENE.cameras)]

    def __init__(self, camera_num=0):
        if camera_num >= SCENE.cameras:
            raise IndexError("list index out of range")
        if camera_num in SCENE.opened:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        SCENE.opened.append(camera_num)
        self.num = camera_num
        self.started = False
        self.closed = False
        self.held = 0
        self.camera_config = None
        self.frames = 0
        self.set_log: list[dict] = []  # every set_controls / start controls, for tests
        self._pending: list[tuple[int, dict]] = []
        # the IPA's state
        self.ae = True
        self.awb = True
        self.exposure_us = AGC_DEFAULT_EXPOSURE_US
        self.gain = 1.0
        self.ae_converged = False
        self.flicker_mode = 0
        self.flicker_period = 0
        self.colour_gains = (1.0, 1.0)
        self.af_mode = 0
        self.lens = AF_DEFAULT_LENS
        self.af_state = AF_IDLE
        self._pattern = None

    # -- properties picamera2 has ----------------------------------------------------------------
    @property
    def camera_controls(self):
        controls = {
            "AeEnable": (False, True, True),
            "ExposureTime": (26, 66666, 20000),
            "AnalogueGain": (1.0, 16.0, 1.0),
            "AeFlickerMode": (0, 3, 0),
            "AeFlickerPeriod": (100, 1000000, None),
            "AwbEnable": (False, True, None),
            "ColourGains": (0.0, 32.0, None),
            "FrameDurationLimits": (33333, 120000, None),
        }
        if SCENE.autofocus:
            controls.update({"AfMode": (0, 2, 0), "AfTrigger": (0, 1, 0), "LensPosition": (0.0, 15.0, 1.0)})
        return controls

    # -- configure / start / stop ----------------------------------------------------------------
    def create_video_configuration(self, main={}, lores=None, raw={}, transform=None, colour_space=None,
                                   buffer_count=6, controls={}, display="main", encode="main", queue=True,
                                   sensor={}, use_case="video"):
        if self.closed:
            raise RuntimeError("Camera not opened")
        main = {"format": "XBGR8888", "size": (1280, 720), **main}
        return {"use_case": use_case, "main": main, "transform": transform or Transform(),
                "buffer_count": buffer_count, "controls": dict(controls)}

    def configure(self, camera_config=None):
        self._check(camera_config["controls"])
        self.camera_config = camera_config
        width, height = camera_config["main"]["size"]
        self._pattern = _pattern(width, height)

    def start(self, config=None, show_preview=False):
        if config is not None:
            self.configure(config)
        if not self.camera_config:
            raise RuntimeError("Camera has not been configured")
        if SCENE.unplugged:
            raise RuntimeError("Failed to start camera: Input/output error")
        self.started = True
        self._apply(self.camera_config["controls"])  # camera.start(controls): from the first frame

    def stop(self):
        self.started = False

    def close(self):
        if not self.closed:
            self.closed = True
            self.started = False
            SCENE.opened.remove(self.num)

    def cancel_all_and_flush(self):
        pass

    # -- controls ---------------------------------------------------------------------------------
    def _check(self, controls):
        for name in controls:
            real = "FrameDurationLimits" if name == "FrameRate" else name
            if real not in self.camera_controls:
                raise RuntimeError(f"Control {name} is not advertised by libcamera")

    def set_controls(self, controls):
        self._check(controls)
        self.set_log.append(dict(controls))
        self._pending.append((self.frames + 2, dict(controls)))  # takes effect a couple of frames on

    def _apply(self, controls):
        self.set_log.append(dict(controls))
        if "AeEnable" in controls:
            self.ae = bool(controls["AeEnable"])  # off: the last exposure stays (disableAutoExposure)
        if "ExposureTime" in controls and not self.ae:
            self.exposure_us = int(controls["ExposureTime"])
        if "AnalogueGain" in controls and not self.ae:
            self.gain = float(controls["AnalogueGain"])
        if "AeFlickerMode" in controls and controls["AeFlickerMode"] in (0, 1):  # auto (2): "not supported"
            self.flicker_mode = int(controls["AeFlickerMode"])
        if "AeFlickerPeriod" in controls:
            self.flicker_period = int(controls["AeFlickerPeriod"])
        if "AwbEnable" in controls:
            self.awb = bool(controls["AwbEnable"])
        if "ColourGains" in controls and not self.awb:
            self.colour_gains = tuple(float(g) for g in controls["ColourGains"])
        if "AfMode" in controls:
            self.af_mode = int(controls["AfMode"])
            if self.af_mode != 0:
                self.af_state = AF_IDLE
        if "LensPosition" in controls and self.af_mode == 0:
            self.lens = float(controls["LensPosition"])
        if controls.get("AfTrigger") == 0 and self.af_mode == 1:
            self.af_state, self._af_frames = AF_SCANNING, 8

    # -- frames -----------------------------------------------------------------------------------
    def _light(self, start_s: float, exposure_s: float) -> float:
        """The mean light over an exposure under lamps flickering at twice the mains frequency."""
        if not SCENE.mains_hz:
            return 1.0
        w = 2 * math.pi * 2 * SCENE.mains_hz
        return 1.0 + SCENE.flicker_depth * (math.cos(w * start_s) - math.cos(w * (start_s + exposure_s))) / (
            w * exposure_s)

    def _agc(self, measured: float) -> None:
        target = 0.45
        ratio = target / max(measured, 1e-4)
        self.ae_converged = self.frames > 6 and abs(ratio - 1) < 0.06
        total = self.exposure_us * self.gain * math.exp(0.7 * math.log(min(max(ratio, 0.1), 10)))
        exposure = min(total, 30_000)
        if self.flicker_mode == 1 and self.flicker_period and exposure >= self.flicker_period:
            exposure = (exposure // self.flicker_period) * self.flicker_period  # agc_channel.cpp: flicker periods
        self.exposure_us = max(26, int(exposure))
        self.gain = min(max(total / self.exposure_us, 1.0), 16.0)

    def _frame(self):
        while self._pending and self._pending[0][0] <= self.frames:
            self._apply(self._pending.pop(0)[1])
        if self.af_mode == 1 and self.af_state == AF_SCANNING:
            self._af_frames -= 1
            self.lens = 1 / SCENE.distance_m if self._af_frames <= 0 else self.lens + 0.2
            if self._af_frames <= 0:
                self.af_state = AF_FOCUSED
        t_s = self.frames * SCENE.frame_us / 1e6
        exposure_s = self.exposure_us / 1e6
        # raw green of a 0.35 grey: lux 1.0 at 20 ms x gain 1.6 is about right (0.45 of full scale)
        level = SCENE.lux * exposure_s * self.gain / 0.032 * 0.45 / 0.35 * self._light(t_s, exposure_s)
        raw = self._pattern * level
        raw[..., 0] *= SCENE.cast[0]
        raw[..., 2] *= SCENE.cast[1]
        rgb = raw * np.array([self.colour_gains[0], 1.0, self.colour_gains[1]], np.float32)
        error = abs(self.lens - 1 / SCENE.distance_m) if SCENE.autofocus else 0.0
        sigma = error * self._pattern.shape[1] / 160
        if sigma > 0.3:
            import cv2

            rgb = cv2.GaussianBlur(rgb, (0, 0), sigma)
        transform = self.camera_config["transform"]
        if transform.hflip:
            rgb = rgb[:, ::-1]
        if transform.vflip:
            rgb = rgb[::-1]
        frame = np.clip(rgb * 255, 0, 255).astype(np.uint8)[..., ::-1].copy()  # RGB888 is BGR in memory
        if self.ae:
            self._agc(float(raw[..., 1].mean()) / float(self._pattern[..., 1].mean()) * 0.35)  # the grey's level
        if self.awb:
            right = SCENE.right_gains
            self.colour_gains = tuple(g + 0.5 * (r - g) for g, r in zip(self.colour_gains, right))
        metadata = {
            "SensorTimestamp": time.monotonic_ns(),
            "ExposureTime": int(self.exposure_us),
            "AnalogueGain": float(self.gain),
            "DigitalGain": 1.0,
            "ColourGains": tuple(float(g) for g in self.colour_gains),
            "ColourTemperature": 4500,
            "AeState": (AE_CONVERGED if self.ae_converged else AE_SEARCHING) if self.ae else 0,
            "FrameDuration": SCENE.frame_us,
            "Lux": 400.0 * SCENE.lux,
            "FocusFoM": int(20000 / (1 + 4 * error * error)),
        }
        if SCENE.autofocus:
            metadata.update(LensPosition=float(self.lens), AfState=self.af_state)
        self.frames += 1
        return frame, metadata

    def _next_request(self, timeout):
        if SCENE.unplugged or not self.started:
            time.sleep(min(timeout or 0, 0.05))
            raise TimeoutError()
        if self.held >= self.camera_config["buffer_count"]:  # every buffer held by the caller
            time.sleep(min(timeout or 0, 0.05))
            raise TimeoutError()
        frame, metadata = self._frame()
        self.held += 1
        return CompletedRequest(self, frame, metadata)

    def capture_request(self, wait=None, signal_function=None, flush=None):
        if wait is False:
            return _Job(self._next_request)
        return self._next_request(None if wait in (None, True) else wait)

    def capture_metadata(self, wait=None, signal_function=None):
        def run(timeout):
            request = self._next_request(timeout)
            metadata = request.get_metadata()
            request.release()
            return metadata

        if wait is False:
            return _Job(run)
        return run(None if wait in (None, True) else wait)

    def autofocus_cycle(self, wait=None, signal_function=None):
        self.set_controls({"AfMode": 1, "AfTrigger": 0})  # AfModeAuto, AfTriggerStart
        for _ in range(40):
            metadata = self.capture_metadata(wait=wait)
            if metadata.get("AfState") in (AF_FOCUSED, 3):
                return metadata["AfState"] == AF_FOCUSED
        return False


def modules() -> dict[str, types.ModuleType]:
    """``{"picamera2": ..., "libcamera": ...}`` to put in ``sys.modules``."""
    import importlib.machinery

    picamera2 = types.ModuleType("picamera2")
    picamera2.__spec__ = importlib.machinery.ModuleSpec("picamera2", None)
    picamera2.Picamera2 = Picamera2
    picamera2.__version__ = "standin"
    libcamera = types.ModuleType("libcamera")
    libcamera.__spec__ = importlib.machinery.ModuleSpec("libcamera", None)
    libcamera.Transform = Transform
    return {"picamera2": picamera2, "libcamera": libcamera}

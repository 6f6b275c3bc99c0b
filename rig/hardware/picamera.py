"""The Raspberry Pi camera (Camera Module 3 and friends) through picamera2.

This is the only module that imports picamera2, and only when the camera is started, so the
rest of the rig runs on machines without it. The camera runs a video configuration whose main
stream is the size the dice reader works at, in ``RGB888`` (which picamera2 lays out as BGR,
OpenCV's order). Exposure and white balance are **locked** to the calibration profile's
values (``AeEnable``/``AwbEnable`` off, ``ExposureTime``, ``AnalogueGain``, ``ColourGains``),
so colours stay where calibration saw them.
"""

from __future__ import annotations

from rig.errors import HardwareError
from rig.hardware.camera import CameraLostError, FrameSource, now_us

_INSTALL_HINT = (
    "on Raspberry Pi OS: sudo apt install python3-picamera2, and make the venv with --system-site-packages"
)


def locked_controls(
    profile: object | None = None,
    *,
    exposure_us: int | None = None,
    analogue_gain: float | None = None,
    colour_gains: tuple[float, float] | None = None,
    fps: float | None = None,
) -> dict[str, object]:
    """The libcamera controls that lock exposure and white balance (explicit values beat the profile's).

    >>> controls = locked_controls(exposure_us=8000, analogue_gain=2.0, colour_gains=(1.9, 1.6), fps=15)
    >>> for name, value in controls.items():
    ...     print(name, value)
    AeEnable False
    AwbEnable False
    ExposureTime 8000
    AnalogueGain 2.0
    ColourGains (1.9, 1.6)
    FrameRate 15.0
    """
    exposure_us = exposure_us if exposure_us is not None else getattr(profile, "exposure_us", None)
    analogue_gain = analogue_gain if analogue_gain is not None else getattr(profile, "analogue_gain", None)
    colour_gains = colour_gains if colour_gains is not None else getattr(profile, "colour_gains", None)
    controls: dict[str, object] = {"AeEnable": False, "AwbEnable": False}
    if exposure_us:
        controls["ExposureTime"] = int(exposure_us)
    if analogue_gain:
        controls["AnalogueGain"] = float(analogue_gain)
    if colour_gains:
        red, blue = colour_gains
        controls["ColourGains"] = (float(red), float(blue))
    if fps:
        controls["FrameRate"] = float(fps)
    return controls


class PiCamera(FrameSource):
    """The Pi camera: ``PiCamera(width=1280, height=960, fps=30, profile=profile)``.

    ``camera_num`` picks the camera on a Pi 5 with two; ``timeout_s``: no frame for this long
    means the camera is lost (ribbon cable out, sensor reset).
    """

    OPTIONS = ("width", "height", "fps", "profile", "exposure_us", "analogue_gain", "colour_gains",
               "camera_num", "timeout_s")

    def __init__(
        self,
        *,
        width: int = 1280,
        height: int = 960,
        fps: float = 30.0,
        profile: object | None = None,
        exposure_us: int | None = None,
        analogue_gain: float | None = None,
        colour_gains: tuple[float, float] | None = None,
        camera_num: int = 0,
        timeout_s: float = 2.0,
    ) -> None:
        super().__init__("picamera2", width=width, height=height, fps=fps)
        self.profile = profile
        self.exposure_us = exposure_us
        self.analogue_gain = analogue_gain
        self.colour_gains = colour_gains
        self.camera_num = int(camera_num)
        self.timeout_s = float(timeout_s)
        #: The libcamera metadata of the newest frame (ExposureTime, AnalogueGain, ColourGains, ...).
        self.last_metadata: dict = {}
        self._cam = None

    @property
    def controls(self) -> dict[str, object]:
        return locked_controls(
            self.profile,
            exposure_us=self.exposure_us,
            analogue_gain=self.analogue_gain,
            colour_gains=self.colour_gains,
            fps=self.fps,
        )

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise HardwareError(f"camera picamera2: the picamera2 package is not installed ({_INSTALL_HINT})") from exc
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as exc:  # libcamera raises plain RuntimeErrors
            raise HardwareError(f"camera picamera2: libcamera failed: {exc}") from exc
        if len(cameras) <= self.camera_num:
            raise HardwareError(
                f"camera picamera2: no camera number {self.camera_num} found "
                f"({len(cameras)} attached; check the ribbon cable and `rpicam-hello --list-cameras`)"
            )
        try:
            cam = Picamera2(self.camera_num)
        except Exception as exc:
            raise HardwareError(
                f"camera picamera2: could not open the camera (in use by another program?): {exc}") from exc
        try:
            config = cam.create_video_configuration(
                main={"size": (self.width, self.height), "format": "RGB888"},
                controls=self.controls,
                buffer_count=4,
            )
            cam.configure(config)
            cam.start()
        except Exception as exc:
            cam.close()
            raise HardwareError(f"camera picamera2: could not start {self.width}x{self.height}: {exc}") from exc
        self._cam = cam

    def _read(self) -> tuple[int, object]:
        cam = self._cam
        if cam is None:
            raise CameraLostError("camera picamera2: not open")
        try:
            job = cam.capture_request(wait=False)
            request = job.get_result(timeout=self.timeout_s)
        except TimeoutError as exc:
            raise CameraLostError(f"camera picamera2: no frame for {self.timeout_s:g} s") from exc
        except Exception as exc:
            raise CameraLostError(f"camera picamera2: {exc}") from exc
        try:
            frame = request.make_array("main")
            metadata = request.get_metadata()
        finally:
            request.release()
        self.last_metadata = metadata
        sensor_ns = metadata.get("SensorTimestamp")
        if sensor_ns is None:
            return now_us(), frame
        return int(sensor_ns) // 1000, frame

    def _close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is None:
            return
        try:
            cancel = getattr(cam, "cancel_all_and_flush", None)
            if cancel is not None:
                cancel()
            cam.stop()
        except Exception:
            pass  # a lost camera may refuse to stop; closing is what frees it
        finally:
            cam.close()

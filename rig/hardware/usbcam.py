"""USB webcams through OpenCV's VideoCapture (V4L2 on Linux).

Exposure and white balance are set to manual where the driver allows it (many UVC webcams
do), so colours stay where calibration saw them; drivers that refuse keep their automatic
settings and the profile's tolerances have to absorb the drift.
"""

from __future__ import annotations

import sys
import time

from rig.errors import HardwareError
from rig.hardware.frame_source import CameraLostError, FrameSource, now_us

#: V4L2's values for CAP_PROP_AUTO_EXPOSURE through OpenCV: 1 = manual, 3 = aperture priority.
_V4L2_MANUAL_EXPOSURE = 1


class UsbCamera(FrameSource):
    """A USB webcam: ``UsbCamera("0")`` or ``UsbCamera("/dev/video2")``.

    ``exposure`` and ``wb_temperature`` are in the driver's own units (see ``v4l2-ctl -l``);
    without them, a profile's ``exposure_us`` is tried as ``exposure / 100`` µs units, which is
    what most UVC drivers use. ``timeout_s``: a camera that yields no frame for this long is lost.
    """

    OPTIONS = ("width", "height", "fps", "profile", "exposure", "wb_temperature", "timeout_s", "crop", "hflip", "vflip")

    def __init__(
        self,
        device: str | int = 0,
        *,
        width: int = 1280,
        height: int = 960,
        fps: float = 30.0,
        profile: object | None = None,
        exposure: float | None = None,
        wb_temperature: float | None = None,
        timeout_s: float = 2.0,
        crop: tuple[float, float, float, float] | None = None,
        hflip: bool = False,
        vflip: bool = False,
    ) -> None:
        super().__init__(f"usb:{device}", width=width, height=height, fps=fps, crop=crop)
        self.hflip, self.vflip = bool(hflip), bool(vflip)
        self.device = int(device) if str(device).isdigit() else str(device)
        if exposure is None and profile is not None and getattr(profile, "exposure_us", None):
            exposure = float(profile.exposure_us) / 100.0
        self.exposure = exposure
        self.wb_temperature = wb_temperature
        self.timeout_s = float(timeout_s)
        self.applied: dict[str, bool] = {}
        self._cap = None
        self._last_frame_us = 0

    def _open(self) -> None:
        import cv2

        backend = cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY
        level = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)  # our message says it better
        try:
            cap = cv2.VideoCapture(self.device, backend)
        finally:
            cv2.utils.logging.setLogLevel(level)
        if not cap.isOpened():
            cap.release()
            raise HardwareError(
                f"camera {self.name}: no USB camera there (is it plugged in? `ls /dev/video*` lists the devices)"
            )
        # MJPG: raw YUYV at 1280x960 needs more than USB 2 carries at 30 fps, so many webcams drop to 5-10 fps
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        cap.set(cv2.CAP_PROP_FPS, self.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self.applied = {}
        if self.exposure is not None:
            self.applied["manual exposure"] = bool(
                cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, _V4L2_MANUAL_EXPOSURE)
                and cap.set(cv2.CAP_PROP_EXPOSURE, self.exposure)
            )
        self.applied["manual white balance"] = bool(cap.set(cv2.CAP_PROP_AUTO_WB, 0))
        if self.wb_temperature is not None:
            self.applied["white balance temperature"] = bool(cap.set(cv2.CAP_PROP_WB_TEMPERATURE, self.wb_temperature))
        ok, frame = cap.read()
        if not ok or frame is None:
            cap.release()
            raise HardwareError(f"camera {self.name}: opened but delivers no frames (in use by another program?)")
        self.width, self.height = int(frame.shape[1]), int(frame.shape[0])
        self._cap = cap
        self._last_frame_us = now_us()

    def _read(self) -> tuple[int, object]:
        cap = self._cap
        if cap is None:
            raise CameraLostError(f"camera {self.name}: not open")
        while True:
            ok, frame = cap.read()
            t_us = now_us()
            if ok and frame is not None:
                self._last_frame_us = t_us
                return self._driver_time(cap, t_us), self._orient(frame)
            if t_us - self._last_frame_us > self.timeout_s * 1e6:
                raise CameraLostError(f"camera {self.name}: no frame for {self.timeout_s:g} s (unplugged?)")
            time.sleep(0.01)

    @staticmethod
    def _driver_time(cap, read_us: int) -> int:
        """The V4L2 buffer's timestamp (OpenCV's CAP_PROP_POS_MSEC: the driver's monotonic time), if plausible."""
        import cv2

        driver_ms = cap.get(cv2.CAP_PROP_POS_MSEC)
        driver_us = round(driver_ms * 1000) if driver_ms and driver_ms > 0 else 0
        # the driver stamps on the monotonic clock: a frame taken 0-1 s before it was read
        return driver_us if 0 <= read_us - driver_us < 1_000_000 else read_us

    def _orient(self, frame):
        import cv2

        if self.hflip and self.vflip:
            frame = cv2.rotate(frame, cv2.ROTATE_180)
        elif self.hflip or self.vflip:
            frame = cv2.flip(frame, 1 if self.hflip else 0)
        return self.crop_frame(frame)

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

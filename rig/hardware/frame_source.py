"""The camera base types every frame source shares: :class:`FrameSource`, :class:`CameraLostError`, :func:`now_us`.

The adapters (:mod:`rig.hardware.picamera`, :mod:`~rig.hardware.usbcam`,
:mod:`~rig.hardware.replay`, :mod:`~rig.hardware.virtual`) subclass :class:`FrameSource` from
here, and the factory :func:`rig.hardware.camera.open_source` imports the adapters, so neither
imports the other (issue 17: no import circles).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from rig.config import check_crop
from rig.errors import HardwareError


class CameraLostError(HardwareError):
    """A started camera stopped delivering frames (unplugged, timed out, driver error)."""


def now_us() -> int:
    """The monotonic clock in integer microseconds (the clock toss timestamps use too)."""
    return time.monotonic_ns() // 1000


class FrameSource:
    """Base class of the camera sources.

    Subclasses implement :meth:`_open`, :meth:`_read` (one frame or ``None`` at the end of a
    recording; raise :class:`CameraLostError` when a live camera stops) and :meth:`_close`.
    ``start()`` after ``stop()`` reopens the camera, which is how a lost camera is retried.
    """

    #: Live sources never run out of frames; a recording does.
    live = True

    def __init__(self, name: str, *, width: int = 1280, height: int = 960, fps: float = 30.0,
                 crop: tuple[float, float, float, float] | None = None) -> None:
        self.name = name
        self.width = int(width)
        self.height = int(height)
        self.fps = float(fps)
        #: ``(x, y, w, h)`` as fractions of the camera's frame: the part that shows the box (None: all).
        self.crop = check_crop(crop)
        self._started = False

    def __repr__(self) -> str:
        state = "started" if self._started else "stopped"
        return f"<{type(self).__name__} {self.name!r} {self.width}x{self.height}@{self.fps:g}fps {state}>"

    @property
    def started(self) -> bool:
        return self._started

    def configure(self, *, width: int | None = None, height: int | None = None, fps: float | None = None) -> None:
        """Change the frame size or rate; takes effect at the next :meth:`start`."""
        if width is not None:
            self.width = int(width)
        if height is not None:
            self.height = int(height)
        if fps is not None:
            self.fps = float(fps)

    def start(self) -> None:
        """Open the camera; :class:`~rig.errors.HardwareError` naming the source if it can't be."""
        if not self._started:
            self._open()
            self._started = True

    def stop(self) -> None:
        """Release the camera (safe to call twice, and after a loss)."""
        if self._started:
            self._started = False
            self._close()

    def close(self) -> None:
        self.stop()

    def read(self) -> tuple[int, object] | None:
        """The next ``(t_us, frame_bgr)``, or ``None`` when a recording has ended."""
        if not self._started:
            self.start()
        return self._read()

    def frames(self) -> Iterator[tuple[int, object]]:
        """Yield ``(t_us, frame_bgr)`` until the recording ends or :meth:`stop` is called."""
        if not self._started:
            self.start()
        while self._started:
            item = self._read()
            if item is None:
                return
            yield item

    def __enter__(self) -> FrameSource:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def crop_frame(self, frame):
        """*frame* cut to :attr:`crop` (a view, no copy); the whole frame without a crop."""
        if self.crop is None or frame is None:
            return frame
        height, width = frame.shape[:2]
        x, y, w, h = self.crop
        left, top = round(x * width), round(y * height)
        return frame[top:top + max(1, round(h * height)), left:left + max(1, round(w * width))]

    # -- for subclasses -----------------------------------------------------------------
    def _open(self) -> None:
        raise NotImplementedError

    def _read(self) -> tuple[int, object] | None:
        raise NotImplementedError

    def _close(self) -> None:
        pass

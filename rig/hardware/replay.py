"""Replay a recording as if it were the camera: a folder of images or a video file.

For development, tests and bug reports: ``rig record DIR`` writes exactly the folders this
reads back. Images are played in name order; a name ending in ``-<digits>`` (``rig record``
writes ``frame-000012-1234567890.png``) gives the frame's ``t_us``, otherwise frames are
spaced ``1/fps`` apart. A video file's own frame times are used.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from rig.errors import HardwareError
from rig.hardware.frame_source import FrameSource, now_us

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
_T_US = re.compile(r"-(\d+)$")


def timestamp_from_name(path: Path) -> int | None:
    """The ``t_us`` in a recorded frame's name, if it has one.

    >>> timestamp_from_name(Path("frame-000012-1234567890.png"))
    1234567890
    >>> timestamp_from_name(Path("IMG_0042.jpg")) is None
    True
    """
    match = _T_US.search(path.stem)
    return int(match.group(1)) if match else None


class ReplaySource(FrameSource):
    """Frames from ``path`` (a folder of images or a video file).

    Frames arrive at their recorded pace, as from a camera; ``realtime=False`` delivers them
    as fast as they are read (tests, batch checks). ``loop=True`` starts over at the end
    (timestamps keep increasing).
    """

    OPTIONS = ("fps", "realtime", "loop")
    live = False

    def __init__(self, path: str | Path, *, fps: float = 10.0, realtime: bool = True, loop: bool = False) -> None:
        super().__init__(f"replay:{path}", fps=fps)
        self.path = Path(path).expanduser()
        self.realtime = bool(realtime)
        self.loop = bool(loop)
        self._files: list[Path] = []
        self._video = None
        self._index = 0
        self._offset_us = 0
        self._last_t_us = 0
        self._clock_start: tuple[int, int] | None = None

    @property
    def frame_count(self) -> int | None:
        """How many frames the recording has (``None`` for a video whose driver can't say)."""
        if self._files:
            return len(self._files)
        return None

    def _open(self) -> None:
        if not self.path.exists():
            raise HardwareError(f"camera {self.name}: no such folder or video file")
        self._index = 0
        self._offset_us = 0
        self._last_t_us = 0
        self._clock_start = None
        if self.path.is_dir():
            self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise HardwareError(f"camera {self.name}: the folder has no images ({', '.join(IMAGE_SUFFIXES)})")
            return
        import cv2

        video = cv2.VideoCapture(str(self.path))
        if not video.isOpened():
            video.release()
            raise HardwareError(f"camera {self.name}: not a video OpenCV can read")
        rate = video.get(cv2.CAP_PROP_FPS)
        if rate and rate > 0:
            self.fps = float(rate)
        self._video = video

    def _next_raw(self) -> tuple[int, object] | None:
        if self._files:
            if self._index >= len(self._files):
                return None
            import cv2

            path = self._files[self._index]
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is None:
                raise HardwareError(f"camera {self.name}: cannot read image {path.name}")
            t_us = timestamp_from_name(path)
            if t_us is None:
                t_us = round(self._index * 1e6 / self.fps)
            self._index += 1
            return t_us, frame
        ok, frame = self._video.read()
        if not ok or frame is None:
            return None
        import cv2

        msec = self._video.get(cv2.CAP_PROP_POS_MSEC)
        t_us = round(msec * 1000) if msec and msec > 0 else round(self._index * 1e6 / self.fps)
        self._index += 1
        return t_us, frame

    def _rewind(self) -> None:
        self._index = 0
        if self._video is not None:
            import cv2

            self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)

    def _read(self) -> tuple[int, object] | None:
        item = self._next_raw()
        if item is None and self.loop and self._index > 0:
            self._offset_us = self._last_t_us + round(1e6 / self.fps)
            self._rewind()
            item = self._next_raw()
            if item is not None:
                self._offset_us -= item[0]
        if item is None:
            return None
        t_us = item[0] + self._offset_us
        self._last_t_us = t_us
        if self.realtime:
            if self._clock_start is None:
                self._clock_start = (now_us(), t_us)
            wall0, t0 = self._clock_start
            delay = (t_us - t0) - (now_us() - wall0)
            if delay > 0:
                time.sleep(delay / 1e6)
        if self.width != item[1].shape[1] or self.height != item[1].shape[0]:
            self.height, self.width = item[1].shape[:2]
        return t_us, item[1]

    def _close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None

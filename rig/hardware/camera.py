"""Frame sources: one small interface over every camera the rig can watch the box with.

A :class:`FrameSource` is started, yields ``(t_us, frame_bgr)`` from :meth:`~FrameSource.frames`
and is stopped; it is a context manager. ``t_us`` is an integer microsecond timestamp on the
monotonic clock (the sensor's own timestamp where the camera gives one). Which source to use
is configuration, a short spec string that :func:`open_source` turns into a source:

=================  ==========================================================================
``picamera2``      Raspberry Pi camera via picamera2 (:mod:`rig.hardware.picamera`)
``usb:0``          USB webcam number 0 via OpenCV (:mod:`rig.hardware.usbcam`)
``replay:PATH``    a folder of images or a video file (:mod:`rig.hardware.replay`)
``virtual``        the live virtual table of simulation mode (:mod:`rig.hardware.virtual`)
=================  ==========================================================================

>>> SourceSpec.parse("usb:1")
SourceSpec(kind='usb', target='1')
>>> SourceSpec.parse("replay:recordings/game1")
SourceSpec(kind='replay', target='recordings/game1')
>>> str(SourceSpec.parse(" virtual "))
'virtual'

A camera that cannot be opened raises :class:`~rig.errors.HardwareError` naming the source; a
camera that stops delivering frames mid-game raises :class:`CameraLostError` out of ``frames()``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from rig.errors import ConfigError, HardwareError
# The base types live in their own module, which the adapters import (not this factory); they are
# re-exported here because a caller writes ``from rig.hardware.camera import CameraLostError``.
from rig.hardware.frame_source import CameraLostError, FrameSource, now_us

__all__ = ["SOURCE_KINDS", "CameraLostError", "CameraWatcher", "FrameSource", "SourceSpec", "now_us",
           "open_source", "track"]

#: The source kinds :func:`open_source` knows, as written in a config file.
SOURCE_KINDS = ("picamera2", "usb:N", "replay:PATH", "virtual")


@dataclass(frozen=True)
class SourceSpec:
    """A parsed camera spec: ``kind`` is ``picamera2``, ``usb``, ``replay`` or ``virtual``."""

    kind: str
    target: str = ""

    @classmethod
    def parse(cls, spec: str) -> SourceSpec:
        """Parse ``"picamera2" | "usb:N" | "replay:PATH" | "virtual"``; :class:`ConfigError` otherwise.

        >>> SourceSpec.parse("webcam")
        Traceback (most recent call last):
        ...
        rig.errors.ConfigError: camera source 'webcam': expected one of picamera2, usb:N, replay:PATH, virtual
        """
        text = str(spec).strip()
        kind, sep, target = text.partition(":")
        kind = kind.strip().lower()
        target = target.strip()
        if kind in ("picamera2", "virtual") and not target:
            return cls(kind)
        if kind == "usb" and sep:
            if target.isdigit() or target.startswith("/dev/"):
                return cls("usb", target)
            raise ConfigError(f"camera source {text!r}: write the USB camera's number, like 'usb:0'")
        if kind == "replay" and sep:
            if target:
                return cls("replay", target)
            raise ConfigError(f"camera source {text!r}: 'replay:' needs a folder of images or a video file")
        raise ConfigError(f"camera source {text!r}: expected one of {', '.join(SOURCE_KINDS)}")

    def __str__(self) -> str:
        return f"{self.kind}:{self.target}" if self.target else self.kind


def open_source(spec: str, **options: object) -> FrameSource:
    """Make the frame source a spec names (not started yet: ``with open_source(spec) as cam: ...``).

    ``options`` go to the source's constructor: ``width``, ``height``, ``fps`` for all of them;
    ``profile`` (a :class:`rig.vision.profile.Profile`, whose exposure, gain and white balance
    the picamera2 and USB sources lock the camera to); ``realtime``/``loop`` for replay;
    ``seed``/``realtime`` for the virtual table. Options a source doesn't take are ignored, so
    one call serves every kind.

    >>> open_source("virtual", width=320, height=240, seed=3)
    <VirtualTable 'virtual' 320x240@12fps stopped>
    """
    parsed = SourceSpec.parse(spec)
    if parsed.kind == "picamera2":
        from rig.hardware.picamera import PiCamera as cls
    elif parsed.kind == "usb":
        from rig.hardware.usbcam import UsbCamera as cls
    elif parsed.kind == "replay":
        from rig.hardware.replay import ReplaySource as cls
    else:
        from rig.hardware.virtual import VirtualTable as cls
    accepted = cls.OPTIONS
    kwargs = {key: value for key, value in options.items() if key in accepted and value is not None}
    if parsed.kind in ("usb", "replay"):
        return cls(parsed.target, **kwargs)
    return cls(**kwargs)


def track(source: FrameSource, tracker: object, on_event: Callable[[object], None], *,
          stop: threading.Event | None = None, on_frame: Callable[[int, object], None] | None = None) -> int:
    """Feed every frame of ``source`` to ``tracker`` and pass its events to ``on_event``.

    Runs until the source ends (a replay), ``stop`` is set, or the camera is lost
    (:class:`CameraLostError` propagates). Returns the number of frames fed.
    """
    count = 0
    for t_us, frame in source.frames():
        if stop is not None and stop.is_set():
            break
        count += 1
        if on_frame is not None:
            on_frame(t_us, frame)
        for event in tracker.feed(t_us, frame):
            on_event(event)
    return count


class CameraWatcher:
    """Runs :func:`track` in a background thread and keeps the camera alive.

    :meth:`start` opens the camera in the caller's thread, so a camera missing at start is a
    :class:`~rig.errors.HardwareError` naming the source — unless ``start(missing_ok=True)``
    (what ``rig run`` on the Pi does, so a loose ribbon cable never restart-loops the service):
    a live camera missing at start is then reported lost at once and retried like one lost
    later. After that, a lost camera is
    reported once as a :class:`rig.vision.rolls.CameraLost` event, retried with growing pauses
    (``backoff`` seconds, the last repeated), and reported as ``CameraRecovered`` when frames
    come again; the tracker keeps its state throughout, so the game carries on where it was.
    ``on_frame(t_us, frame)`` sees every frame (the calibration preview, the card reader);
    :attr:`latest` is the newest ``(t_us, frame)``. A source that is not a live camera (a
    replay) may end: the watcher then stops and :attr:`ended` is True — an expected end, not
    a failure.
    """

    def __init__(
        self,
        source: FrameSource,
        tracker: object,
        on_event: Callable[[object], None],
        *,
        on_frame: Callable[[int, object], None] | None = None,
        backoff: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0),
    ) -> None:
        self.source = source
        self.tracker = tracker
        self.on_event = on_event
        self.on_frame = on_frame
        self.backoff = tuple(backoff) or (1.0,)
        self.lost: str | None = None
        self.latest: tuple[int, object] | None = None
        self.frames_seen = 0
        self.ended = False  # a replay played to its end (the watcher stopped by itself, as it should)
        self._stop = threading.Event()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        state = f"lost ({self.lost})" if self.lost else ("running" if self.running else
                                                         "ended" if self.ended else "stopped")
        return f"<CameraWatcher {self.source.name!r} {state}, {self.frames_seen} frames>"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, *, missing_ok: bool = False) -> CameraWatcher:
        try:
            self.source.start()
        except HardwareError as exc:
            if not (missing_ok and self.source.live):
                raise
            from rig.vision.rolls import CameraLost

            logging.getLogger(__name__).warning("%s; starting without it and retrying", exc)
            self.lost = str(exc)
            self._emit(CameraLost(now_us(), str(exc)))
        self._stop.clear()
        self._done.clear()
        self.ended = False
        self._thread = threading.Thread(target=self._run, name=f"camera {self.source.name}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop watching and release the camera (waits up to ``timeout`` s for the thread)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if not thread.is_alive():
                return  # the thread released the camera itself
        self.source.stop()

    close = stop

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the source has ended (a replay played through) or the watcher stopped."""
        return self._done.wait(timeout)

    def __enter__(self) -> CameraWatcher:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _emit(self, event: object) -> None:
        try:
            self.on_event(event)
        except Exception:
            logging.getLogger(__name__).exception("camera event handler failed on %r", event)

    def _frame(self, t_us: int, frame: object) -> None:
        self.latest = (t_us, frame)
        self.frames_seen += 1
        if self.on_frame is not None:
            try:
                self.on_frame(t_us, frame)
            except Exception:
                logging.getLogger(__name__).exception("camera frame handler failed")

    def _run(self) -> None:
        from rig.vision.rolls import CameraLost, CameraRecovered

        attempt = 0
        try:
            while not self._stop.is_set():
                try:
                    if not self.source.started:
                        self.source.start()
                    if self.lost is not None:
                        self.lost = None
                        attempt = 0
                        self.tracker.reset_motion()
                        self._emit(CameraRecovered(now_us()))
                    track(self.source, self.tracker, self._emit, stop=self._stop, on_frame=self._frame)
                    if self._stop.is_set():
                        return
                    if not self.source.live:
                        self.ended = True
                        return
                    raise CameraLostError(f"camera {self.source.name}: the frame stream ended")
                except HardwareError as exc:
                    if self._stop.is_set():
                        return
                    if self.lost is None:
                        self.lost = str(exc)
                        self._emit(CameraLost(now_us(), str(exc)))
                    self.source.stop()
                    pause = self.backoff[min(attempt, len(self.backoff) - 1)]
                    attempt += 1
                    self._stop.wait(pause)
        except Exception:
            self.lost = "the camera watcher failed (see the log)"
            logging.getLogger(__name__).exception("camera watcher for %s failed", self.source.name)
        finally:
            self.source.stop()
            self._done.set()

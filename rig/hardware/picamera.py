"""The Raspberry Pi camera (Camera Module 3 and friends) through picamera2.

This is the only module that imports picamera2, and only when the camera is started, so the
rest of the rig runs on machines without it. The camera runs a video configuration whose main
stream is the size the dice reader works at, in ``RGB888`` (which picamera2 lays out as BGR,
OpenCV's order).

Exposure and white balance (libcamera's controls, ``control_ids_core.yaml``):

- With the profile's (or explicit) ``exposure_us``, ``analogue_gain`` and ``colour_gains`` the
  camera starts **locked** to them: ``AeEnable``/``AwbEnable`` off and the three values given.
- Without them, the camera starts with AE and AWB running, flicker-aware (``AeFlickerMode``
  manual with ``AeFlickerPeriod`` 10000 µs for 50 Hz mains, 8333 µs for 60 Hz: the Raspberry
  Pi AGC then keeps the exposure a whole number of flicker periods), waits until ``AeState``
  says converged and the colour gains stop moving, and then locks to the **metadata** values
  of that frame. Never ``AeEnable=False`` with nothing else: the Raspberry Pi AGC then keeps
  its start-up default, 1 ms at gain 1.0 (``agc_channel.cpp``: ``default_exposure_time``
  1000 µs), a frame near black.
- :meth:`PiCamera.lock_exposure` / :meth:`PiCamera.unlock_exposure` are the calibration page's
  Lock button; :meth:`PiCamera.settings` are the live values calibration stores in the profile.

Focus: on a camera with a focus lens (libcamera advertises ``AfMode``; Camera Module 3) the
lens is set in manual mode (``AfMode`` 0) to ``LensPosition`` = 1 / distance in metres, from
the config's ``camera.focus`` (cm to the box bottom), else the profile's ``lens_position``, else
an autofocus cycle at start (then held). Camera Module 3 otherwise sits at its tuning default
of 1.0 dioptre, focused at 1 m, and dice at 30-50 cm are blurred. ``FocusFoM`` in the metadata
says how sharp the frame is. Cameras without a focus lens skip all of this.
"""

from __future__ import annotations

import logging
import time

from rig.errors import ConfigError, HardwareError
from rig.hardware.frame_source import CameraLostError, FrameSource, now_us

log = logging.getLogger(__name__)

_INSTALL_HINT = (
    "on Raspberry Pi OS: sudo apt install --no-install-recommends python3-picamera2, "
    "and make the venv with --system-site-packages"
)
_NUMPY_HINT = (
    "NumPy 2 in the venv hides Raspberry Pi OS's NumPy 1.x, which picamera2's apt packages are built "
    "against: reinstall with the Pi constraints (make install does: pip install -c constraints-pi.txt -e .[pi]), "
    "or .venv/bin/pip uninstall numpy opencv-python-headless to use apt's python3-numpy and python3-opencv"
)

#: libcamera ``AfMode`` values (control_ids_core.yaml).
AF_MANUAL, AF_AUTO = 0, 1
#: libcamera ``AeState`` value once the AGC has converged; ``AeFlickerMode`` manual.
AE_CONVERGED, FLICKER_MANUAL = 2, 1
#: The flicker period (µs) that cancels mains flicker: light pulses at twice the mains frequency.
FLICKER_PERIOD_US = {50: 10_000, 60: 8_333}


def flicker_period_us(mains_hz: int | None) -> int | None:
    """The ``AeFlickerPeriod`` for mains at *mains_hz* (50 or 60), None for 0/None (no flicker avoidance).

    >>> flicker_period_us(50), flicker_period_us(60), flicker_period_us(0)
    (10000, 8333, None)
    """
    if not mains_hz:
        return None
    try:
        return FLICKER_PERIOD_US[int(mains_hz)]
    except KeyError:
        raise ConfigError(f"camera.flicker_hz: {mains_hz} is not a mains frequency (50, 60, or 0 for none)") from None


def lens_position(distance_cm: float) -> float:
    """libcamera's ``LensPosition`` (dioptres, 1 / metres) for a subject *distance_cm* away.

    >>> lens_position(40), lens_position(100)
    (2.5, 1.0)
    """
    if not distance_cm > 0:
        raise ConfigError(f"camera.focus: {distance_cm} cm is not a distance")
    return round(100.0 / float(distance_cm), 4)


def locked_controls(
    profile: object | None = None,
    *,
    exposure_us: int | None = None,
    analogue_gain: float | None = None,
    colour_gains: tuple[float, float] | None = None,
    fps: float | None = None,
) -> dict[str, object]:
    """The libcamera controls that lock exposure and white balance (explicit values beat the profile's).

    Only the parts that have values are locked: AE stays on without an exposure, AWB without
    colour gains (AE off with no exposure would freeze at libcamera's 1 ms default).

    >>> controls = locked_controls(exposure_us=8000, analogue_gain=2.0, colour_gains=(1.9, 1.6), fps=15)
    >>> for name, value in controls.items():
    ...     print(name, value)
    AeEnable False
    ExposureTime 8000
    AnalogueGain 2.0
    AwbEnable False
    ColourGains (1.9, 1.6)
    FrameRate 15.0
    >>> locked_controls(fps=30)
    {'AeEnable': True, 'AwbEnable': True, 'FrameRate': 30.0}
    """
    exposure_us = exposure_us if exposure_us is not None else getattr(profile, "exposure_us", None)
    analogue_gain = analogue_gain if analogue_gain is not None else getattr(profile, "analogue_gain", None)
    colour_gains = colour_gains if colour_gains is not None else getattr(profile, "colour_gains", None)
    controls: dict[str, object] = {}
    if exposure_us:
        controls.update(AeEnable=False, ExposureTime=int(exposure_us), AnalogueGain=float(analogue_gain or 1.0))
    else:
        controls["AeEnable"] = True
    if colour_gains:
        red, blue = colour_gains
        controls.update(AwbEnable=False, ColourGains=(float(red), float(blue)))
    else:
        controls["AwbEnable"] = True
    if fps:
        controls["FrameRate"] = float(fps)
    return controls


def import_picamera2():
    """``picamera2.Picamera2``, or :class:`~rig.errors.HardwareError` saying why it can't be imported.

    Not only ``ImportError``: with NumPy 2 in the venv, apt's simplejpeg (imported by picamera2)
    fails with ``ValueError: numpy.dtype size changed`` (picamera2 issues #1088, #1211).
    """
    try:
        from picamera2 import Picamera2
    except ImportError as exc:
        raise HardwareError(f"camera picamera2: the picamera2 package cannot be imported: {exc} ({_INSTALL_HINT})") \
            from exc
    except Exception as exc:  # noqa: BLE001 - any import failure is a setup problem to name
        hint = _NUMPY_HINT if "numpy" in str(exc).lower() or "dtype" in str(exc) else _INSTALL_HINT
        raise HardwareError(f"camera picamera2: importing picamera2 failed: {type(exc).__name__}: {exc} ({hint})") \
            from exc
    return Picamera2


class PiCamera(FrameSource):
    """The Pi camera: ``PiCamera(width=1280, height=960, fps=30, profile=profile)``.

    ``camera_num`` picks the camera on a Pi 5 with two; ``timeout_s``: no frame for this long
    means the camera is lost (ribbon cable out, sensor reset). ``focus``: cm from the lens to the
    box bottom, or ``"auto"`` for an autofocus cycle at start (None: the profile's lens position,
    else an autofocus cycle). ``flicker_hz``: the mains frequency the lights flicker at (0: none).
    ``hflip``/``vflip`` mirror the image in the ISP (both: turned by 180°). ``settle_s``: how long
    AE/AWB may take to settle before the exposure is locked anyway.
    """

    OPTIONS = ("width", "height", "fps", "profile", "exposure_us", "analogue_gain", "colour_gains",
               "camera_num", "timeout_s", "focus", "flicker_hz", "hflip", "vflip", "crop", "settle_s")

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
        focus: float | str | None = None,
        flicker_hz: int = 50,
        hflip: bool = False,
        vflip: bool = False,
        crop: tuple[float, float, float, float] | None = None,
        settle_s: float = 4.0,
    ) -> None:
        super().__init__("picamera2", width=width, height=height, fps=fps, crop=crop)
        self.profile = profile
        self.exposure_us = exposure_us
        self.analogue_gain = analogue_gain
        self.colour_gains = colour_gains
        self.camera_num = int(camera_num)
        self.timeout_s = float(timeout_s)
        if focus is not None and focus != "auto":
            lens_position(float(focus))  # refuse a bad distance now, not at start
        self.focus = focus
        self.flicker_period_us = flicker_period_us(flicker_hz)
        self.hflip, self.vflip = bool(hflip), bool(vflip)
        self.settle_s = float(settle_s)
        #: The libcamera metadata of the newest frame (ExposureTime, AnalogueGain, ColourGains, FocusFoM, ...).
        self.last_metadata: dict = {}
        #: True while exposure and white balance are locked (the Lock button, or a settled start).
        self.locked = False
        #: What focusing did at start, in words (shown by the doctor and the calibration page).
        self.focus_detail = ""
        #: True once started on a camera with a focus lens (libcamera advertises AfMode and LensPosition).
        self.has_lens = False
        self._cam = None

    @property
    def controls(self) -> dict[str, object]:
        """The controls the camera starts with (locked where values are known, else AE/AWB on)."""
        controls = locked_controls(
            self.profile,
            exposure_us=self.exposure_us,
            analogue_gain=self.analogue_gain,
            colour_gains=self.colour_gains,
            fps=self.fps,
        )
        if self.flicker_period_us and controls.get("AeEnable"):
            controls.update(AeFlickerMode=FLICKER_MANUAL, AeFlickerPeriod=self.flicker_period_us)
        return controls

    # -- open / read / close ------------------------------------------------------------------
    def _open(self) -> None:
        Picamera2 = import_picamera2()
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
            self._cam = cam
            advertised = cam.camera_controls
            controls = {k: v for k, v in self.controls.items()
                        if k in advertised or k == "FrameRate"}  # FrameRate: picamera2's name for FrameDurationLimits
            options = {}
            if self.hflip or self.vflip:
                from libcamera import Transform

                options["transform"] = Transform(hflip=int(self.hflip), vflip=int(self.vflip))
            config = cam.create_video_configuration(
                main={"size": (self.width, self.height), "format": "RGB888"},
                controls=controls, buffer_count=4, **options,
            )
            cam.configure(config)
            cam.start()
            self.locked = not controls.get("AeEnable", False) and not controls.get("AwbEnable", False)
            self._focus(cam, advertised)
            if not self.locked:
                self._settle_and_lock(cam)
        except HardwareError:
            self._cam = None
            self._shut(cam)
            raise
        except Exception as exc:
            self._cam = None
            self._shut(cam)
            raise HardwareError(f"camera picamera2: could not start {self.width}x{self.height}: {exc}") from exc

    def _metadata(self, cam) -> dict:
        metadata = cam.capture_metadata(wait=self.timeout_s)
        self.last_metadata = metadata
        return metadata

    def _focus(self, cam, advertised) -> None:
        self.has_lens = "AfMode" in advertised and "LensPosition" in advertised
        if not self.has_lens:
            self.focus_detail = "fixed-focus lens (no autofocus on this camera)"
            return
        position = None
        if self.focus not in (None, "auto"):
            position = lens_position(float(self.focus))
            how = f"manual focus at {float(self.focus):g} cm (config camera.focus)"
        elif self.focus is None and getattr(self.profile, "lens_position", None) is not None:
            position = float(self.profile.lens_position)
            how = "manual focus at the profile's lens position"
        if position is None:
            try:
                focused = cam.autofocus_cycle(wait=max(self.timeout_s, 5.0))
            except Exception as exc:  # noqa: BLE001 - a failed focus must not stop the camera
                log.warning("camera picamera2: the autofocus cycle failed (%s); set camera.focus", exc)
                focused = False
            position = float(self._metadata(cam).get("LensPosition", 0.0))
            how = "autofocus cycle at start" + ("" if focused else " (did not converge: set camera.focus)")
        lo, hi, _default = advertised["LensPosition"]
        if hi is not None and lo is not None:
            position = min(max(position, float(lo)), float(hi))
        cam.set_controls({"AfMode": AF_MANUAL, "LensPosition": position})
        distance = f"{100 / position:.0f} cm" if position > 0 else "infinity"
        self.focus_detail = f"{how}: LensPosition {position:.2f} dioptres ({distance})"

    def _settle_and_lock(self, cam) -> dict[str, object]:
        """Let AE/AWB run until they settle, then lock to that frame's metadata values."""
        deadline = time.monotonic() + self.settle_s
        gains: list[tuple[float, float]] = []
        metadata = {}
        while time.monotonic() < deadline:
            metadata = self._metadata(cam)
            gain = tuple(metadata.get("ColourGains") or (0.0, 0.0))
            gains = (gains + [gain])[-3:]
            converged = metadata.get("AeState") == AE_CONVERGED or metadata.get("AeLocked") is True
            steady = len(gains) == 3 and all(abs(a - b) <= 0.01 * max(b, 0.1)
                                             for g in gains for a, b in zip(g, gains[-1]))
            if converged and steady:
                break
        else:
            log.warning("camera picamera2: AE/AWB did not settle within %g s; locking to the last frame's values",
                        self.settle_s)
        return self._lock_to(cam, metadata)

    def _lock_to(self, cam, metadata: dict) -> dict[str, object]:
        exposure = metadata.get("ExposureTime")
        gain = metadata.get("AnalogueGain")
        colour = metadata.get("ColourGains")
        if not exposure:
            raise HardwareError("camera picamera2: the camera reports no ExposureTime to lock to")
        controls: dict[str, object] = {"AeEnable": False, "ExposureTime": int(exposure),
                                       "AnalogueGain": float(gain or 1.0)}
        if colour and "AwbEnable" in cam.camera_controls:
            controls.update(AwbEnable=False, ColourGains=(float(colour[0]), float(colour[1])))
        cam.set_controls(controls)
        if self.flicker_period_us and int(exposure) < self.flicker_period_us:
            log.warning("camera picamera2: exposure %d µs is shorter than the lights' flicker period (%d µs): "
                        "frames may pulse; dim the lamp or use a flicker-free (DC) LED driver",
                        int(exposure), self.flicker_period_us)
        self.exposure_us = int(exposure)
        self.analogue_gain = float(gain or 1.0)
        self.colour_gains = (float(colour[0]), float(colour[1])) if colour else None
        self.locked = True
        return self.settings()

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
        t_us = now_us() if sensor_ns is None else int(sensor_ns) // 1000
        return t_us, self.crop_frame(frame)

    @staticmethod
    def _shut(cam) -> None:
        try:
            cancel = getattr(cam, "cancel_all_and_flush", None)
            if cancel is not None:
                cancel()
            cam.stop()
        except Exception:
            pass  # a lost camera may refuse to stop; closing is what frees it
        finally:
            cam.close()

    def _close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            self._shut(cam)

    # -- the calibration page's controls ----------------------------------------------------------
    def settings(self) -> dict[str, object]:
        """The live camera values (from the newest frame's metadata): what calibration stores."""
        md = self.last_metadata
        out: dict[str, object] = {}
        if md.get("ExposureTime"):
            out["exposure_us"] = int(md["ExposureTime"])
        if md.get("AnalogueGain"):
            out["analogue_gain"] = round(float(md["AnalogueGain"]), 4)
        if md.get("ColourGains"):
            out["colour_gains"] = tuple(round(float(g), 4) for g in md["ColourGains"])
        if md.get("LensPosition") is not None and self.has_lens:
            out["lens_position"] = round(float(md["LensPosition"]), 4)
        if md.get("FocusFoM") is not None:
            out["focus_fom"] = int(md["FocusFoM"])
        return out

    def lock_exposure(self) -> dict[str, object]:
        """Lock exposure, gain and white balance to the live values (the Lock button)."""
        cam = self._cam
        if cam is None:
            raise HardwareError("camera picamera2: not running")
        metadata = self.last_metadata or self._metadata(cam)
        settings = self._lock_to(cam, metadata)
        return {k: v for k, v in settings.items() if k in ("exposure_us", "analogue_gain", "colour_gains")}

    def unlock_exposure(self) -> None:
        """Back to automatic exposure (flicker-aware) and white balance."""
        cam = self._cam
        if cam is None:
            raise HardwareError("camera picamera2: not running")
        controls: dict[str, object] = {"AeEnable": True, "AwbEnable": True}
        if self.flicker_period_us and "AeFlickerMode" in cam.camera_controls:
            controls.update(AeFlickerMode=FLICKER_MANUAL, AeFlickerPeriod=self.flicker_period_us)
        cam.set_controls(controls)
        self.exposure_us = self.analogue_gain = self.colour_gains = None
        self.locked = False

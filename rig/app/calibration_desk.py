"""The calibration page's work: the ritual's frames, fitting, saving and restoring profiles, locking the camera."""

from __future__ import annotations

import threading
from pathlib import Path
from rig.errors import RigError
from rig.errors import RunError
from rig.app.protocols import CalibratedRig

class CalibrationDesk:
    """The calibration page's work (:mod:`rig.display.calibration` documents the interface).

    Captured frames are kept per ritual step; :meth:`fit` runs :func:`rig.vision.calibrate.fit_profile`;
    saved profiles live in ``DATA_DIR/profiles/NAME.toml``. In simulation mode the virtual
    table's "hands" turn the six dice for each step (a rendered pose in the table's lighting).
    """

    def __init__(self, rig: CalibratedRig) -> None:
        self.rig = rig
        self.frames: dict[str, object] = {}
        self.report = None
        self.fitted = None
        self.fitted_empty = None  # the empty frame the fitted profile was calibrated with
        self.locked = False
        self.lock_detail = ""
        self._lock = threading.Lock()
        self._poses: dict[str, object] = {}  # simulation: the virtual table's dice turned for each step

    @property
    def profile_dir(self) -> Path:
        return self.rig.data_dir / "profiles"

    def profiles(self) -> list[str]:
        names = sorted(p.stem for p in self.profile_dir.glob("*.toml")) if self.profile_dir.is_dir() else []
        builtin = self._builtin_path()
        if builtin is not None and builtin.stem not in names:
            names.insert(0, builtin.stem)
        return names

    @staticmethod
    def _builtin_path() -> Path | None:
        from rig.vision.profile import default_profile_path

        path = default_profile_path()
        return path if path.exists() else None

    def status(self) -> dict:
        from rig.display.calibration import STEPS

        rig = self.rig
        with self._lock:
            steps = [{"name": name, "label": label, "captured": name in self.frames, "optional": False}
                     for name, label in STEPS.items()]
            report = self._report_dict() if self.report is not None else None
            fitted = self.fitted is not None
        camera = rig.status()["camera"]
        camera.update(locked=bool(getattr(rig.source, "locked", self.locked)), detail=self.lock_detail)
        live = self.camera_settings() if rig.source is not None else {}
        camera.update(settings=live, focus_fom=live.get("focus_fom"),
                      focus=getattr(rig.source, "focus_detail", "") or "")
        if camera["locked"] and not camera["detail"] and live.get("exposure_us"):
            gains = live.get("colour_gains")
            camera["detail"] = (f"locked at exposure {live['exposure_us']} µs, gain {live.get('analogue_gain', 1.0):g}"
                                + (f", colour gains {gains[0]:g}/{gains[1]:g}" if gains else ""))
        return {"steps": steps, "fitted": fitted, "report": report, "profiles": self.profiles(),
                "active": rig.profile_name, "camera": camera, "sim": rig.mode == "sim", "next": self.next_step()}

    def next_step(self) -> str | None:
        """The first step of the ritual not captured yet (None: all are)."""
        from rig.display.calibration import STEPS

        with self._lock:
            return next((name for name in STEPS if name not in self.frames), None)

    def showing(self) -> str | None:
        """Simulation: the step whose pose the preview shows (the next to capture, else the last);
        the real rig: None (the live camera)."""
        from rig.display.calibration import STEPS

        if self.rig.mode != "sim":
            return None
        return self.next_step() or list(STEPS)[-1]

    def _report_dict(self) -> dict:
        from rig.vision.calibrate import MIN_SEPARATION, WARN_SEPARATION

        report = self.report
        rows = [{"a": key.split("/")[0], "b": key.split("/")[-1], "distance": round(float(value), 2),
                 "ok": float(value) >= WARN_SEPARATION}
                for key, value in sorted(report.separation.items(), key=lambda kv: kv[1])]
        from rig.i18n import LANGUAGES, Translator, format_number

        low = [r for r in rows if not r["ok"]]

        def summary(_: Translator) -> str:
            if rows and not low:
                return _("All classes separate well (lowest {lowest}; refused below {limit}).",
                         lowest=format_number(rows[0]["distance"], _.lang, 1),
                         limit=format_number(MIN_SEPARATION, _.lang, 1))
            return _.n("{n} pair close: more light, or less glare", "{n} pairs close: more light, or less glare",
                       len(low))

        said = {lang: {"summary": summary(Translator(lang)), "notes": report.lines(Translator(lang)),
                       "warnings": report.warning_lines(Translator(lang))}
                for lang in LANGUAGES}  # the page shows its viewer's language, the warnings above the table
        return {"ok": not low, "summary": said["en"]["summary"], "separation": rows, "notes": said["en"]["notes"],
                "said": said, "warnings": list(report.warnings)}

    # -- the preview -----------------------------------------------------------------------
    def latest_frame(self):
        step = self.showing()
        if step is not None:  # what the step asks for, as capture will take it (not the game's dice)
            return self._pose(step)
        watcher = self.rig.watcher
        latest = watcher.latest if watcher is not None else None
        return None if latest is None else latest[1]

    def preview_jpeg(self, outline: bool = True, lang: str = "en") -> bytes | None:
        """The latest frame as JPEG; ``outline``: each die boxed and labelled (face, sureness) in ``lang``
        (the drawn font has no umlauts: the faces' German names need none)."""
        import cv2

        from rig.i18n import Translator
        from rig.vision.overlay import put_label

        _ = Translator(lang)

        frame = self.latest_frame()
        if frame is None:
            return None
        image = frame.copy()
        if outline and self.rig.profile is not None:
            try:
                reading = self.rig.read_dice(frame)
            except RigError:
                reading = None
            for die in reading.dice if reading is not None else ():
                x, y, w, h = (int(v) for v in die.box)
                colour = (80, 230, 120) if die.confidence >= 0.8 else (40, 170, 255)
                cv2.rectangle(image, (x, y), (x + w, y + h), colour, 2)
                label = f"{_(die.face)} {die.confidence:.0%}"
                put_label(image, label, (x, max(12, y - 5)), 0.6, colour, thickness=2)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return data.tobytes() if ok else None

    # -- the ritual ------------------------------------------------------------------------
    def _pose(self, step: str):
        """Simulation: the virtual table's dice all turned to ``step`` (or taken out); the same frame
        for the preview and the capture."""
        with self._lock:
            cached = self._poses.get(step)
        if cached is not None:
            return cached
        frame = self._render_pose(step)
        with self._lock:
            self._poses[step] = frame
        return frame

    def _render_pose(self, step: str):
        import numpy as np

        from rig.vision import render

        table = self.rig.source
        rng = np.random.default_rng([self.rig.seed, len(step)])
        n = 0 if step == "empty" else 6
        scene = render.random_scene(rng, n, table.lighting, size=(table.width, table.height),
                                    faces=[step] * n, spread=True, die_side=render.DIE_SIDE * table.width / 640)
        return render.render_scene(scene.replace(texture_seed=table.seed), seed=self.rig.seed)

    def capture(self, step: str) -> None:
        if self.rig.mode == "sim":
            frame = self._pose(step).copy()
        else:
            frame = self.latest_frame()
            if frame is None:
                raise RunError("no camera frame to capture: is the camera connected?")
            frame = frame.copy()
        with self._lock:
            self.frames[step] = frame
            self.report = self.fitted = None

    def fit(self) -> dict:
        from rig.vision.calibrate import fit_profile

        with self._lock:
            samples = {k: v for k, v in self.frames.items() if k != "empty"}
            empty = self.frames.get("empty")
        camera = self.camera_settings()
        report = fit_profile(samples, empty=empty, name="calibrated",
                             exposure_us=camera.get("exposure_us"),
                             analogue_gain=camera.get("analogue_gain"),
                             colour_gains=camera.get("colour_gains"))
        profile = report.profile
        if camera.get("lens_position") is not None:
            import dataclasses

            profile = dataclasses.replace(profile, lens_position=camera["lens_position"])
            report = dataclasses.replace(report, profile=profile) if dataclasses.is_dataclass(report) else report
        with self._lock:
            self.report, self.fitted, self.fitted_empty = report, profile, empty
        return self.status()

    def camera_settings(self) -> dict:
        """The camera's live values (the frames' metadata: exposure, gain, colour gains, lens, FocusFoM).

        What calibration stores in the profile: a camera with a ``settings()`` method (the Pi
        camera) reports what it really used, else whatever values the source was given.
        """
        source = self.rig.source
        settings = getattr(source, "settings", None)
        if callable(settings):
            return dict(settings())
        return {key: getattr(source, key) for key in ("exposure_us", "analogue_gain", "colour_gains")
                if getattr(source, key, None) is not None}

    def save(self, name: str) -> dict:
        import dataclasses

        from rig.vision.card_empty import keep_beside

        with self._lock:
            fitted, empty = self.fitted, self.fitted_empty
        if fitted is None:
            raise RunError("nothing to save: capture the ritual and fit a profile first")
        profile = dataclasses.replace(fitted, name=name)
        profile.save(self.profile_dir / f"{name}.toml")
        if empty is not None:  # the card reader's reference (rig.vision.card_empty)
            keep_beside(self.profile_dir / f"{name}.toml", empty)
        return self.status()  # saved, not used: the page asks first (then restore(name))

    def restore(self, name: str) -> dict:
        from rig.profile_cache import load_profile

        path = self.profile_dir / f"{name}.toml"
        builtin = self._builtin_path()
        if not path.exists() and builtin is not None and builtin.stem == name:
            path = builtin
        if not path.exists():
            raise RunError(f"no saved profile named {name!r} (saved: {', '.join(self.profiles()) or 'none'})")
        self.rig.use_profile(load_profile(path), name)
        return self.status()

    def lock(self, locked: bool) -> dict:
        source = self.rig.source
        if locked:
            lock = getattr(source, "lock_exposure", None)
            if callable(lock):
                try:
                    settings = lock()
                except RigError as exc:
                    raise RunError(f"cannot lock the camera: {exc}") from None
                self.lock_detail = "locked at " + ", ".join(f"{k} {v}" for k, v in (settings or {}).items())
            elif self.rig.mode == "sim":
                self.lock_detail = "virtual camera: its exposure and white balance are fixed"
            else:
                self.lock_detail = (f"{source.name}: locked to the profile's exposure, gain and white balance "
                                    "when the camera starts")
        else:
            unlock = getattr(source, "unlock_exposure", None)
            if callable(unlock):
                try:
                    unlock()
                except RigError as exc:
                    raise RunError(f"cannot unlock the camera: {exc}") from None
            self.lock_detail = "automatic exposure and white balance" if callable(unlock) else self.lock_detail
        self.locked = locked
        return self.status()

    def reset(self) -> dict:
        with self._lock:
            self.frames.clear()
            self.report = self.fitted = None
        return self.status()

"""``rig record DIR``: save frames from the camera, for calibration and bug reports.

The folder it writes plays back as a camera with ``camera.source = "replay:DIR"`` in the
config: frames are ``frame-NNNNNN-<t_us>.png`` and ``recording.json`` notes each session's
source, size and time.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

from rig import argtypes
from rig.config import CONFIG_DEFAULT_HELP
from rig.errors import RigError
from rig.i18n import cli_gettext as _

_FRAME = re.compile(r"^frame-(\d+)-\d+\.(png|jpg)$")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "record",
        help=_("save camera frames to a folder (for calibration and bug reports)"),
        description=_("Save frames from the configured camera (or --source) into DIR. "
        "Replay them later with the camera source replay:DIR."),
    )
    parser.add_argument("dir", metavar="DIR", type=Path, help=_("folder to write (created; existing frames are kept)"))
    parser.add_argument("--config", type=Path, help=_('config file ({config_default_help})', config_default_help=_(CONFIG_DEFAULT_HELP)))
    parser.add_argument("--source", metavar="SPEC",
                        help=_('camera instead of the config\'s: "picamera2", "usb:0", "replay:PATH", "virtual"'))
    stop = parser.add_mutually_exclusive_group()
    stop.add_argument("--frames", type=int, help=_("stop after saving this many frames (default 50)"))
    stop.add_argument("--seconds", type=float, help=_("stop after this many seconds of camera time"))
    parser.add_argument("--every", type=int, default=1, metavar="N", help=_("save every N-th frame (default 1)"))
    parser.add_argument("--format", choices=("png", "jpg"), default="png", help=_("image format (default png)"))
    parser.add_argument("--width", type=argtypes.between(int, 160, 4608), help=_("frame width (default: the config's)"))
    parser.add_argument("--height", type=argtypes.between(int, 120, 3456), help=_("frame height (default: the config's)"))
    parser.add_argument("--fps", type=argtypes.between(float, 1, 120), help=_("frame rate (default: the config's)"))
    parser.add_argument("--demo", action="store_true",
                        help=_("with the virtual camera: play one turn (three rolls of two dice) while recording"))
    parser.add_argument("--track", action="store_true",
                        help=_("also follow the rolls and print what the roll tracker sees (rolls, violations)"))
    parser.set_defaults(func=run)


def _load_config(path: Path | None):
    from rig.config import RigConfig, default_config_path

    path = path or default_config_path()
    return RigConfig.load(path) if path else RigConfig.default()


def _next_index(folder: Path) -> int:
    numbers = [int(m.group(1)) for p in folder.iterdir() if (m := _FRAME.match(p.name))]
    return max(numbers, default=0) + 1


def _prepare(folder: Path) -> int:
    if folder.exists() and not folder.is_dir():
        raise RigError(f"{folder}: exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".rig-record-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise RigError(f"{folder}: cannot write here ({exc.strerror})") from None
    return _next_index(folder)


def run(args: argparse.Namespace) -> int:
    import cv2

    from rig.hardware.camera import SourceSpec, open_source

    config = _load_config(args.config)
    spec = SourceSpec.parse(args.source or config.camera.source)
    if args.frames is not None and args.frames < 1:
        raise RigError("--frames must be at least 1")
    if args.seconds is not None and args.seconds <= 0:
        raise RigError("--seconds must be more than 0")
    if args.every < 1:
        raise RigError("--every must be at least 1")
    if args.demo and spec.kind != "virtual":
        raise RigError(f"--demo plays a turn on the virtual camera, not on {spec}")
    limit = args.frames if args.frames is not None else (None if args.seconds is not None else 50)

    profile = None
    if config.profile is not None and (spec.kind in ("picamera2", "usb") or args.track):
        from rig.profile_cache import load_profile

        profile = load_profile(config.profile)
    tracker = _tracker(profile) if args.track else None
    first = _prepare(args.dir)
    options = config.camera.options() if args.source is None else {}  # the config's camera: its focus, crop, ...
    options.update(width=args.width or config.camera.width, height=args.height or config.camera.height,
                   fps=args.fps or (config.camera.fps if spec.kind != "virtual" else None), loop=False)
    source = open_source(str(spec), profile=profile, realtime=False, **options)
    saved: list[Path] = []
    seen = 0
    start_t = None
    script = _demo_script() if args.demo else {}
    with source:
        meta = {"source": str(spec), "width": source.width, "height": source.height, "fps": source.fps,
                "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "first_frame": first}
        try:
            for t_us, frame in source.frames():
                if start_t is None:
                    start_t = t_us
                if args.seconds is not None and t_us - start_t >= args.seconds * 1e6:
                    break
                if seen in script:
                    script[seen](source)
                seen += 1
                if tracker is not None:
                    for event in tracker.feed(t_us, frame):
                        print(_describe(event, start_t), flush=True)
                if (seen - 1) % args.every:
                    continue
                path = args.dir / f"frame-{first + len(saved):06d}-{t_us}.{args.format}"
                if not cv2.imwrite(str(path), frame):
                    raise RigError(f"{path}: could not write the frame")
                saved.append(path)
                if limit is not None and len(saved) >= limit:
                    break
        except KeyboardInterrupt:
            pass
        meta.update(frames=len(saved), width=source.width, height=source.height)
        if callable(getattr(source, "settings", None)):  # the Pi camera's exposure, gains, lens: for `rig calibrate`
            meta["camera"] = source.settings()
    _note_session(args.dir / "recording.json", meta)
    if saved:
        print(f"rig record: {len(saved)} frames from {spec} -> {args.dir} ({saved[0].name} .. {saved[-1].name})")
    else:
        print(f"rig record: no frames from {spec} (the recording was empty)")
    return 0


def _note_session(path: Path, meta: dict) -> None:
    """Add this session to ``recording.json`` (earlier sessions into the same folder are kept)."""
    sessions = []
    try:
        sessions = list(json.loads(path.read_text(encoding="utf-8")).get("sessions", []))
    except (OSError, ValueError, AttributeError):
        pass  # no notes yet, or unreadable ones: start afresh rather than fail the recording
    sessions.append(meta)
    path.write_text(json.dumps({"sessions": sessions}, indent=2) + "\n", encoding="utf-8")


def _tracker(profile):
    from rig.vision.dice import read_dice
    from rig.profile_cache import load_profile
    from rig.vision.profile import default_profile_path
    from rig.vision.rolls import RollTracker

    if profile is None:
        path = default_profile_path()
        if not path.exists():
            raise RigError("--track needs a calibration profile: set 'profile' in the config (rig calibrate)")
        profile = load_profile(path)
    return RollTracker(read=lambda frame, *, thrown=None: read_dice(frame, profile, thrown=thrown))


def _describe(event, start_t: int) -> str:
    """One line per tracker event: seconds since the first frame, what happened."""
    when = f"{(event.t_us - start_t) / 1e6:8.2f} s"
    if event.type == "roll_settled":
        faces = ", ".join(str(d.face) for d in event.reading.dice)
        what = f"roll {event.roll} settled, {event.new_dice} new" if event.new_dice else f"roll {event.roll} re-read"
        return f"{when}  {what}: {faces} ({event.reading.status})"
    if event.type == "violation":
        return f"{when}  violation {event.kind}: {event.detail}"
    if event.type == "roll_cancelled":
        return f"{when}  motion, no roll: {event.reason}"
    return f"{when}  {event.type.replace('_', ' ')}"


def _demo_script() -> dict[int, object]:
    """Frame number -> action on the virtual table: three rolls of two dice, a second apart."""
    return {4: lambda table: table.roll(2), 16: lambda table: table.roll(2), 28: lambda table: table.roll(2)}

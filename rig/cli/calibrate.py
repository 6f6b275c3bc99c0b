"""``rig calibrate``: fit a colour profile from the ritual frames (or from the virtual table)."""

from __future__ import annotations

import sys
from pathlib import Path

from rig import argtypes
from rig.errors import RigError
from rig.i18n import cli_gettext as _

RITUAL = ("blue", "pink", "yellow", "blank")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help=_("fit a colour profile from frames of all six dice showing blue, pink, yellow, blank"),
        description=_("The ritual: turn all six dice to blue, capture; to pink; to yellow; to blank; "
        "then take every die out and capture the empty box (the light reference: each frame's exposure "
        "and white balance are corrected against it). Spread the dice so none touch. Prints the class "
        "separation and refuses unusable samples (a missing or occupied empty box, swapped frames)."),
    )
    parser.add_argument("--face", action="append", default=[], metavar="FACE=IMAGE",
                        help=_("a ritual frame: blue=B.png, pink=P.png, yellow=Y.png, blank=K.png"))
    parser.add_argument("--empty", metavar="IMAGE", help=_("the empty box, every die taken out (required)"))
    parser.add_argument("--out", required=True, metavar="PROFILE.toml",
                        help=_("where to write the profile (an existing one is kept as PROFILE.toml.bak)"))
    parser.add_argument("--name", default="", help=_("a name for the profile"))
    parser.add_argument("--exposure-us", type=argtypes.count, help=_("the locked exposure time used for the frames (µs)"))
    parser.add_argument("--analogue-gain", type=argtypes.between(float, 1.0), help=_("the locked analogue gain used for the frames"))
    parser.add_argument("--colour-gains", metavar="RED,BLUE", help=_("the locked white-balance gains used"))
    parser.add_argument("--lens-position", type=argtypes.span, metavar="DIOPTRES",
                        help=_("the Camera Module 3 lens position used (1 / metres)"))
    parser.add_argument("--virtual", metavar="LIGHTING", nargs="?", const="neutral",
                        help=_("calibrate on the virtual table under LIGHTING (default neutral) instead of images"))
    parser.add_argument("--samples", metavar="DIR", help=_("with --virtual: also save the rendered ritual frames to DIR"))
    parser.set_defaults(func=run)


def _faces(specs: list[str]) -> dict[str, str]:
    faces: dict[str, str] = {}
    for spec in specs:
        face, sep, path = spec.partition("=")
        face = face.strip().lower()
        if not sep or not path:
            raise RigError(f"--face wants FACE=IMAGE, e.g. --face blue=blue.png, not {spec!r}")
        if face not in RITUAL:
            raise RigError(f"--face {face!r}: the ritual faces are {', '.join(RITUAL)}")
        if face in faces:
            raise RigError(f"--face {face} given twice")
        faces[face] = path
    missing = [f for f in RITUAL if f not in faces]
    if missing:
        raise RigError(f"missing --face for {', '.join(missing)} (the ritual needs blue, pink, yellow and blank)")
    return faces


def recorded_camera(image: str | Path) -> dict:
    """The camera values `rig record` noted next to a frame (``recording.json``'s last session), or {}."""
    import json

    try:
        sessions = json.loads((Path(image).parent / "recording.json").read_text(encoding="utf-8"))["sessions"]
        camera = sessions[-1].get("camera") or {}
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return {}
    return camera if isinstance(camera, dict) else {}


def _gains(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        red, blue = (float(v) for v in text.split(","))
    except ValueError:
        raise RigError(f"--colour-gains wants RED,BLUE like 1.9,1.6, not {text!r}") from None
    return red, blue


def virtual_ritual(lighting: str, size=(640, 480)) -> tuple[dict, object]:
    """The ritual frames rendered on the virtual table (seeded: the same every time)."""
    from rig.vision.render import render_scene, ritual_scene

    frames = {f: render_scene(ritual_scene(f, lighting, seed=i + 1, size=size), size=size, seed=i)
              for i, f in enumerate(RITUAL)}
    empty = render_scene(ritual_scene("empty", lighting, seed=9, size=size), size=size, seed=9)
    return frames, empty


def run(args) -> int:
    import cv2

    from rig.cli.read import load_image
    from rig.vision.calibrate import fit_profile

    if args.virtual:
        if args.face or args.empty:
            raise RigError("--virtual renders its own frames; leave out --face and --empty")
        frames, empty = virtual_ritual(args.virtual)
        name = args.name or f"virtual-table ({args.virtual})"
        if args.samples:
            out = Path(args.samples)
            out.mkdir(parents=True, exist_ok=True)
            for face, frame in [*frames.items(), ("empty", empty)]:
                cv2.imwrite(str(out / f"{face}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    else:
        if args.samples:
            raise RigError("--samples only goes with --virtual")
        paths = _faces(args.face)
        if not args.empty:
            raise RigError("missing --empty: capture the box with every die taken out too (the light reference)")
        frames = {face: load_image(path) for face, path in paths.items()}
        empty = load_image(args.empty) if args.empty else None
        name = args.name or Path(args.out).stem
    # the values the camera really used: given, else what `rig record` noted with the frames
    camera = {} if args.virtual else recorded_camera(paths["blue"])
    gains = _gains(args.colour_gains) or (tuple(camera["colour_gains"]) if camera.get("colour_gains") else None)
    report = fit_profile(frames, empty=empty, name=name,
                         exposure_us=args.exposure_us if args.exposure_us is not None else camera.get("exposure_us"),
                         analogue_gain=args.analogue_gain if args.analogue_gain is not None else camera.get("analogue_gain"),
                         colour_gains=gains)
    lens = args.lens_position if args.lens_position is not None else camera.get("lens_position")
    if lens is not None:
        import dataclasses

        report = dataclasses.replace(report, profile=dataclasses.replace(report.profile, lens_position=float(lens)))
    from rig.i18n import Translator, cli_language

    for line in report.lines(Translator(cli_language())):
        print(line)
    out = Path(args.out)
    if out.exists():
        backup = out.with_name(out.name + ".bak")
        out.replace(backup)
        print(_("kept the previous profile as {path}", path=backup), file=sys.stderr)
    report.profile.save(out)
    print(_("wrote {path}", path=out))
    if empty is not None:  # the card reader's reference: a card is what changed from the empty box
        from rig.vision.card_empty import keep_beside

        print(_("wrote {path}", path=keep_beside(out, empty)))
    return 0

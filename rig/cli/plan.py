"""``rig plan``: what a camera at a height over the box sees, before anything is built (rig.plan)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from rig.config import CONFIG_DEFAULT_HELP
from rig.i18n import Translator, cli_language
from rig.i18n import cli_gettext as _


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{2,5})\s*[xX]\s*(\d{2,5})\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(_("{text}: write the picture size like 1280x960", text=repr(text)))
    return int(match.group(1)), int(match.group(2))


def register(subparsers) -> None:
    from rig.config import BUILD_CAMERAS

    parser = subparsers.add_parser(
        "plan",
        help=_("plan the camera: area seen, die size in px, margin around the box, sensor mode, exposure, SVG"),
        description=_("Plan the camera over the box bottom with a pinhole model of the lens: the area seen, "
        "the die size in px, the margin around the box, the suggested sensor mode and exposure range, and "
        "an SVG top view. Values from the config's [build] and [camera] sections; options override them. "
        "Exit 0 when the plan fits (the whole box in view, dice 40-100 px), 1 when it does not."),
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help=_("the rig's config file ({config_default_help})", config_default_help=_(CONFIG_DEFAULT_HELP)))
    parser.add_argument("--camera", choices=BUILD_CAMERAS, help=_("the camera model (default: [build] camera)"))
    parser.add_argument("--height", type=float, metavar="CM", help=_("lens to box bottom in cm (default: [build] height_cm)"))
    parser.add_argument("--box", type=float, nargs=3, metavar=("W", "D", "H"),
                        help=_("the box's inner width, depth and wall height in mm (default: [build] box)"))
    parser.add_argument("--size", type=_size, metavar="WxH", help=_("the picture size (default: [camera] width x height)"))
    parser.add_argument("--svg", type=Path, metavar="FILE", help=_("write the top view here"))
    parser.add_argument("--json", action="store_true", help=_("print the plan as JSON"))
    parser.set_defaults(func=run)


def run(args) -> int:
    import json

    from rig.config import RigConfig, default_config_path
    from rig.errors import RigError
    from rig.plan import make_plan, plan_svg

    path = args.config if args.config is not None else default_config_path()
    config = RigConfig.load(path) if path is not None else RigConfig.default()
    build, cam = config.build, config.camera
    plan = make_plan(box=tuple(args.box) if args.box else build.box, camera=args.camera or build.camera,
                     height_cm=args.height if args.height is not None else build.height_cm,
                     frame=args.size or (cam.width, cam.height), fps=cam.fps, flicker_hz=cam.flicker_hz)
    if args.svg is not None:
        try:
            args.svg.write_text(plan_svg(plan), encoding="utf-8")
        except OSError as exc:
            raise RigError(_("cannot write {path}: {why}", path=args.svg, why=exc.strerror)) from None
    if args.json:
        print(json.dumps(plan.to_dict(), indent=2))
    else:
        print("\n".join(plan.lines(Translator(cli_language()))))
        if args.svg is not None:
            print(_("top view: {path}", path=args.svg))
    return 0 if plan.fits else 1

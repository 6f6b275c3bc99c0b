"""``rig read --profile PROFILE IMAGE...``: read the dice (or the card) in still images.

``--game NAME`` reads another registered game's dice instead (pips and colours; no profile
needed, their thresholds and palette are in ``calibration/pips.toml`` or ``--params``);
``--game pips`` finds pip dice of any body and pip colour and counts their pips with the learned
finder and reader (:mod:`rig.vision.dicenet`; the dice's size is found on an image pyramid, no hint
needed, and learned from the first image read surely: the next images of the same size are read at it,
one finder pass each); ``--dice N`` the number of dice that must be in view; ``--die-px PX`` the dice's
side in the image, an override of the size found. ``--any-colour`` is accepted and changes nothing (it is the
default since the white-die counter was retired from this command)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from rig.i18n import cli_gettext as _


#: ``--game pips``: plain pip dice (the vision toolkit's pip counter), not a game
PIPS = "pips"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "read",
        help=_("read the dice (or a card) in images with a calibration profile"),
        description=_("Read the dice in each image: face, centre, confidence per die, and whether the "
        "reader is sure (status ok) or not (uncertain, with reasons)."),
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help=_("image files (PNG, JPEG, ...)"))
    parser.add_argument("--profile", metavar="PROFILE.toml", help=_("calibration profile (rig calibrate); needed for the games read by colour"))
    from rig import registry

    games = registry.games()
    parser.add_argument("--game", choices=[g.name for g in games] + [PIPS], default=registry.DEFAULT,
                        help="whose dice to read: " + ", ".join(f"{g.name} ({g.title})" for g in games)
                        + f" (default {registry.DEFAULT}), pips (pip dice of any colour: the pips on each top face)")
    parser.add_argument("--variant", choices=("standard", "twister"), default="standard",
                        help=_("the game's variant for the ready 'rig score' request (default standard)"))
    parser.add_argument("--params", metavar="PIPS.toml", help=_("pip reader parameters (default calibration/pips.toml)"))
    parser.add_argument("--any-colour", action="store_true",
                        help=_("pips: dice of any body and pip colour (the default; kept for old scripts)"))
    parser.add_argument("--dice", type=int, metavar="N", default=None,
                        help=_("pips: the number of dice in view; another number makes the frame uncertain"))
    parser.add_argument("--die-px", type=float, metavar="PX", default=None,
                        help=_("pips: the dice's side in the image, px (default: found on an image pyramid)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object per image (one per line)"))
    parser.add_argument("--overlay", metavar="DIR", help=_("write each image with outlines and labels to DIR"))
    parser.add_argument("--cards", action="store_true", help=_("read the player card in view instead of dice"))
    parser.set_defaults(func=run)


#: the largest image ``rig read`` decodes (checked in the file's header, before decoding)
MAX_PIXELS = 24_000_000


def load_image(path: str | Path):
    """Read an image file as a BGR frame, or raise FrameError naming the file.

    The header is read first (Pillow): more than :data:`MAX_PIXELS` pixels is refused before any
    decoding; a truncated or damaged file and a grayscale picture (the dice are read by colour)
    are refused too, never read as "no dice".
    """
    import numpy as np
    from PIL import Image, ImageOps, UnidentifiedImageError

    from rig.vision.errors import FrameError

    p = Path(path)
    if not p.is_file():
        raise FrameError(f"no such image: {p}")
    try:
        with Image.open(p) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise FrameError(f"{p} is {width}x{height} pixels ({width * height / 1e6:.0f} MP): rig read takes at "
                                 f"most {MAX_PIXELS / 1e6:.0f} MP; scale it down (the rig's camera gives about 2 MP)")
            if image.mode in ("1", "L", "LA", "I", "I;16", "F"):
                raise FrameError(f"{p} is a grayscale image: the dice are read by colour, take a colour picture")
            image.load()
            rgb = np.asarray(ImageOps.exif_transpose(image).convert("RGB"))  # upright, as cv2.imread does
    except FrameError:
        raise
    except Image.DecompressionBombError:
        raise FrameError(f"{p} is far bigger than an image the rig reads (more than {MAX_PIXELS / 1e6:.0f} MP): "
                         "scale it down") from None
    except UnidentifiedImageError as exc:
        raise FrameError(f"cannot read image {p}: not an image format the rig knows ({exc})") from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise FrameError(f"cannot read image {p}: the file is damaged or cut short ({exc})") from None
    if rgb.ndim != 3 or min(rgb.shape[:2]) < 8:
        raise FrameError(f"cannot read image {p}: {rgb.shape[1]}x{rgb.shape[0]} is too small to hold dice")
    channels = rgb[::4, ::4].astype(np.int16)
    if np.abs(channels[..., 0] - channels[..., 1]).max() <= 2 and np.abs(channels[..., 1] - channels[..., 2]).max() <= 2:
        raise FrameError(f"{p} is a grayscale image: the dice are read by colour, take a colour picture")
    return np.ascontiguousarray(rgb[..., ::-1])


def run(args) -> int:
    import cv2

    from rig.vision.errors import VisionError

    from rig import registry

    with_profile = args.game != PIPS and registry.get(args.game).reads_with_profile
    if with_profile and args.profile is None:
        raise VisionError(f"reading {registry.title(args.game)} dice needs --profile PROFILE.toml (from rig calibrate)")
    try:
        return run_profile(args) if with_profile else run_pips(args)
    except cv2.error as exc:  # an image OpenCV cannot process: one line, exit 2
        detail = str(exc).strip().splitlines()[-1][:160] if str(exc).strip() else "no detail"
        raise VisionError(f"OpenCV could not process the image ({detail})") from None


def _check_paths(args):
    from rig.vision.errors import VisionError

    for path in args.images:  # fail before printing anything if a file is missing
        if not Path(path).is_file():
            raise VisionError(f"no such image: {path}")
    out_dir = Path(args.overlay) if args.overlay else None
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise VisionError(f"cannot create overlay directory {out_dir}: {exc}") from None
    return out_dir


def read_any_dice(frame, params, dice_count: int | None = None, size=None) -> dict:
    """Pip dice of any colour (:func:`rig.vision.anydie.read_pip_dice`): each die found, its pips, and
    whether every one (and the count, when given) was read surely. ``size``: a
    :class:`rig.vision.readers.DieSize` to read at (when it knows the dice's size) and learn from."""
    from rig.vision.anydie import read_pip_dice

    expected = None if dice_count is None else (dice_count,)
    if size is None:
        reading = read_pip_dice(frame, params.anydie, expected=expected)
    else:
        reading = size.read(frame, lambda f, q: read_pip_dice(f, q.anydie, expected=expected))
    return {"game": "pips", "status": reading.status, "reasons": list(reading.reasons), "total": reading.total,
            "dice": [{"face": d.pips, "x": d.centre[0], "y": d.centre[1], **d.to_dict()} for d in reading.dice]}


def read_pips(frame, game: str, params, variant: str = "standard", *, any_colour: bool = False,
              dice_count: int | None = None, size=None) -> dict:
    """One frame of ``game`` (a pip-dice game of the registry, or pips) as ``rig read --game`` prints it
    (``size``: pips, the dice's size per :func:`read_any_dice`)."""
    if game == PIPS:
        return read_any_dice(frame, params, dice_count, size)
    from rig import registry

    return registry.get(game).read_image(frame, params=params, variant=variant)


def run_pips(args) -> int:
    from rig.vision.errors import VisionError
    from rig.vision.pips import PipParams

    if args.cards:
        raise VisionError(f"--cards reads frog player cards; {args.game} has none")
    if (args.any_colour or args.dice is not None or args.die_px is not None) and args.game != PIPS:
        raise VisionError(f"--any-colour, --dice and --die-px are for --game pips, not {args.game}")
    if args.dice is not None and args.dice < 1:
        raise VisionError(f"--dice must be at least 1, not {args.dice}")
    if args.die_px is not None and not 8 <= args.die_px <= 1000:
        raise VisionError(f"--die-px must be between 8 and 1000 (the dice's side in px), not {args.die_px:g}")
    params = PipParams.load(args.params)
    if args.die_px is not None:
        params = replace(params, anydie=replace(params.anydie, die_px=args.die_px))
    out_dir = _check_paths(args)
    from rig.vision.readers import DieSize

    sizes: dict[tuple[int, int], tuple[DieSize, str]] = {}  # per image size: the dice's size, learned from which image
    for path in args.images:
        frame = load_image(path)
        size, source = sizes.setdefault(frame.shape[:2], (DieSize(params, args.dice), ""))
        result = {"image": str(path), **read_pips(frame, args.game, params, args.variant,
                                                  any_colour=True,
                                                  dice_count=args.dice, size=size if args.game == PIPS else None)}
        if args.game == PIPS:
            result["dice_count"] = args.dice  # None: a die the reader did not find cannot make the frame uncertain
            known = size.used
            if not known and size.die_px and not size.fixed:  # learned (or learned anew) from this image
                sizes[frame.shape[:2]] = (size, str(path))
                result["die_px_learned"] = round(size.die_px, 1)
            result["die_px"] = round(known, 1) if known else None
            result["die_px_from"] = ("--die-px" if size.fixed else f"learned from {source}") if known else "pyramid"
        print(json.dumps(result) if args.json else _human_pips(result), flush=True)
        if out_dir is not None:
            _write(out_dir / (Path(path).stem + ".png"), _draw_pips(frame, result))
    return 0


def _label(die: dict) -> str:
    if "face" in die:
        return str(die["face"])
    return f"{die['color']}:{die['pips']}" if die.get("pips") is not None else f"{die['color']}:dot={die.get('dot')}"


def _human_pips(result: dict) -> str:
    dice = ", ".join(f"{_label(d)} ({d['x']:.0f},{d['y']:.0f}) {d['confidence']:.2f}" for d in result["dice"])
    line = f"{result['image']}: {result['status']} {len(result['dice'])} dice: {dice or '-'}"
    if result["game"] == PIPS:
        line += f"\n  total: {result['total']} pips"
        if result["status"] == "ok" and result.get("dice_count") is None:
            line += "\n  " + _("(no --dice N given: a die the reader did not find cannot make this uncertain)")
        if result.get("die_px"):
            line += f"\n  dice read at {result['die_px']:g} px ({result['die_px_from']})"
        if result.get("die_px_learned"):
            line += (f"\n  dice size learned: {result['die_px_learned']:g} px (the next images of this size are read "
                     "at it; --die-px to set it)")
    else:
        from rig import registry

        for extra in registry.get(result["game"]).describe_reading(result):
            line += f"\n  {extra}"
    for reason in result["reasons"]:
        line += f"\n  - {reason}"
    return line


def _draw_pips(frame, result: dict):
    import cv2

    out = frame.copy()
    colour = (0, 200, 0) if result["status"] == "ok" else (0, 165, 255)
    for die in result["dice"]:
        x, y, w, h = die["box"]
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, 2)
        cv2.putText(out, _label(die), (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
    return out


def run_profile(args) -> int:
    """The games read with a calibration profile (dice by colour, ``--cards``)."""
    from rig.vision.cards import read_card
    from rig.vision.dice import read_dice
    from rig.vision.overlay import draw_card, draw_dice
    from rig.profile_cache import load_profile

    profile = load_profile(args.profile)
    out_dir = _check_paths(args)
    for path in args.images:
        frame = load_image(path)
        if args.cards:
            reading = read_card(frame, profile)
            result = {"image": str(path), **reading.to_dict()}
            drawn = draw_card(frame, reading) if out_dir else None
        else:
            reading = read_dice(frame, profile)
            result = {"image": str(path), **reading.to_dict()}
            drawn = draw_dice(frame, reading) if out_dir else None
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print(_human(result, args.cards), flush=True)
        if drawn is not None:
            _write(out_dir / (Path(path).stem + ".png"), drawn)
    return 0


def _human(result: dict, cards: bool) -> str:
    if cards:
        line = f"{result['image']}: {result['status']} {result['card'] or 'no card'}"
    else:
        faces = ", ".join(f"{d['face']} ({d['x']:.0f},{d['y']:.0f}) {d['confidence']:.2f}" for d in result["dice"])
        line = f"{result['image']}: {result['status']} {len(result['dice'])} dice: {faces or '-'}"
    for reason in result["reasons"]:
        line += f"\n  - {reason}"
    return line


def _write(path: Path, image) -> None:
    import cv2

    from rig.vision.errors import VisionError

    if not cv2.imwrite(str(path), image):
        raise VisionError(f"cannot write overlay {path}")

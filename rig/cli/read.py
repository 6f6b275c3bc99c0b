"""``rig read --profile PROFILE IMAGE...``: read the dice (or the card) in still images."""

from __future__ import annotations

import json
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "read",
        help="read the dice (or a card) in images with a calibration profile",
        description="Read the dice in each image: face, centre, confidence per die, and whether the "
        "reader is sure (status ok) or not (uncertain, with reasons).",
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files (PNG, JPEG, ...)")
    parser.add_argument("--profile", required=True, metavar="PROFILE.toml", help="calibration profile (rig calibrate)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per image (one per line)")
    parser.add_argument("--overlay", metavar="DIR", help="write each image with outlines and labels to DIR")
    parser.add_argument("--cards", action="store_true", help="read the player card in view instead of dice")
    parser.set_defaults(func=run)


def load_image(path: str | Path):
    """Read an image file as a BGR frame, or raise FrameError naming the file."""
    import cv2

    from rig.vision.errors import FrameError

    p = Path(path)
    if not p.is_file():
        raise FrameError(f"no such image: {p}")
    frame = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if frame is None:
        raise FrameError(f"cannot read image {p}: not an image format OpenCV knows, or the file is damaged")
    return frame


def run(args) -> int:
    from rig.vision.cards import read_card
    from rig.vision.dice import read_dice
    from rig.vision.errors import VisionError
    from rig.vision.overlay import draw_card, draw_dice
    from rig.vision.profile import Profile

    profile = Profile.load(args.profile)
    for path in args.images:  # fail before printing anything if a file is missing
        if not Path(path).is_file():
            raise VisionError(f"no such image: {path}")
    out_dir = Path(args.overlay) if args.overlay else None
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise VisionError(f"cannot create overlay directory {out_dir}: {exc}") from None
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

"""``rig score FILE|-``: score one turn given as JSON, print the result as JSON."""

from __future__ import annotations

import json
import sys

from rig.errors import RigError


class InputError(RigError):
    """The input file cannot be read or is not JSON."""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score one turn given as JSON (a file, or - for stdin)",
        description="Score one turn given as JSON and print the result as JSON. "
        "The 'game' key picks the game (default frogs).",
    )
    parser.add_argument("file", metavar="FILE", help="the turn as JSON, or - to read standard input")
    parser.add_argument("--compact", action="store_true", help="print the result on one line")
    parser.add_argument("--palette", metavar="C1,C2,...",
                        help="Würfelblitz: the die and dot colours of your set (default red,orange,yellow,green,"
                        "blue,black,purple,white); a die of another colour is refused")
    parser.set_defaults(func=run)


def read_json(path: str):
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        name = "standard input" if path == "-" else path
        raise InputError(f"{name} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def run(args) -> int:
    from rig.rules import score_request

    data = read_json(args.file)
    if args.palette is not None and isinstance(data, dict) and data.get("game") == "blitz":
        data.setdefault("palette", [c for c in args.palette.split(",") if c.strip()])
    result = score_request(data)
    print(json.dumps(result, indent=None if args.compact else 2, ensure_ascii=False))
    return 0

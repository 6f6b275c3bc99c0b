"""``rig score FILE|-``: score one turn given as JSON, print the result as JSON."""

from __future__ import annotations

import json
import sys

from rig.errors import RigError
from rig.i18n import cli_gettext as _


#: the largest turn document read (a turn is a few hundred bytes)
MAX_INPUT = 256 * 1024


class InputError(RigError):
    """The input file cannot be read or is not JSON."""


def register(subparsers) -> None:
    from rig import registry

    parser = subparsers.add_parser(
        "score",
        help=_("score one turn given as JSON (a file, or - for stdin)"),
        description=_("Score one turn given as JSON and print the result as JSON. The 'game' key picks the game (default {default}).", default=registry.DEFAULT),
    )
    parser.add_argument("file", metavar="FILE", help=_("the turn as JSON, or - to read standard input"))
    parser.add_argument("--compact", action="store_true", help=_("print the result on one line"))
    parser.add_argument("--palette", metavar="C1,C2,...",
                        help=_("a game of coloured dice: the die and dot colours of your set (default: the game's own "
                        "set); a die of another colour is refused"))
    parser.set_defaults(func=run)


def read_json(path: str):
    from rig.textfile import read_limited

    try:
        if path == "-":
            text = sys.stdin.buffer.read(MAX_INPUT + 1) if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        else:  # bounded, a FIFO without a writer does not hang, a folder is named as one
            text = read_limited(path, limit=MAX_INPUT + 1, what="file", error=InputError)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    from rig.boundary import BadInput, decode_json

    name = "standard input" if path == "-" else path
    try:
        return decode_json(text, what=name)
    except BadInput as exc:
        raise InputError(str(exc)) from None


def run(args) -> int:
    from rig import registry
    from rig.rules import UnknownGameError

    data = read_json(args.file)
    if not isinstance(data, dict):
        raise UnknownGameError("the input must be a JSON object with a 'game' key")
    game = registry.get(data.get("game", registry.DEFAULT))
    data = game.prepare_score(data, palette=args.palette)
    try:
        result = game.score_request(data)
    except RecursionError:
        raise InputError("the turn is nested too deeply to be a turn") from None
    print(json.dumps(result, indent=None if args.compact else 2, ensure_ascii=False))
    return 0

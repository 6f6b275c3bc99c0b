"""The ``rig`` command.

Each subcommand lives in its own module under ``rig.cli`` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a callable taking the
parsed arguments and returning an exit code. Modules import heavy packages (cv2, numpy,
gpiozero, starlette) inside their functions, so ``rig score`` stays light.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from rig import __version__
from rig.errors import RigError

#: Subcommand modules, in the order ``rig --help`` lists them.
COMMAND_MODULES = (
    "run",
    "score",
    "read",
    "calibrate",
    "record",
    "tosses",
    "config_cmd",
    "doctor",
    "plan",
    "parts",  # rig build-parts
    "history",
    "league",
    "bench",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rig", description="Scoring rig for tabletop dice games."
    )
    parser.add_argument("--version", action="version", version=f"rig {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"rig.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"rig.cli.{name}":
                continue  # that subcommand is not built yet
            raise
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except RigError as exc:
        from rig.textfile import one_line

        # one line, printable: a field name or value from the input never puts a newline or a
        # terminal escape sequence on the user's terminal
        print(f"rig {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)  # 2: a person must act; 75 (a full disk): systemd retries
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

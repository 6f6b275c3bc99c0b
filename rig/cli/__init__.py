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


#: The command name and one-line help of each subcommand module, so ``rig --help`` (and any one
#: command) need not import every module and what it imports: only the command run is imported.
#: A module missing here is imported at every start (slower, still right);
#: tests/cli/test_start.py checks these lines against the modules' own.
SUMMARIES = {
    "run": ("run", "start the rig and its scoreboard (simulation mode on a machine without camera and GPIO)"),
    "score": ("score", "score one turn given as JSON (a file, or - for stdin)"),
    "read": ("read", "read the dice (or a card) in images with a calibration profile"),
    "calibrate": ("calibrate", "fit a colour profile from frames of all six dice showing blue, pink, yellow, blank"),
    "record": ("record", "save camera frames to a folder (for calibration and bug reports)"),
    "tosses": ("tosses", "show live presses of the toss buttons/beams with µs timestamps (wiring test)"),
    "config_cmd": ("config", "check a config file, print the documented example, draw the wiring"),
    "doctor": ("doctor", "check the setup: packages, camera, GPIO pins, profile and light, data, service"),
    "plan": ("plan", "plan the camera: area seen, die size in px, margin around the box, sensor mode, exposure, SVG"),
    "parts": ("build-parts", "write the printable parts (camera mount, button boxes, beam clips) as STL, STEP and PNG"),
    "history": ("history", "past games and per-player totals from the event log"),
    "league": ("league", "follow the tables through an MQTT broker: live standings page and JSON API"),
    "bench": ("bench", "run a benchmark and print its figures"),
}


def _command_in(argv: list[str] | None) -> str | None:
    """The subcommand named in ``argv`` (its first word that is not an option), if any."""
    for word in sys.argv[1:] if argv is None else argv:
        if not word.startswith("-"):
            return word
    return None


def build_parser(command: str | None = None, *, lazy: bool = False) -> argparse.ArgumentParser:
    """The ``rig`` parser. ``lazy``: only ``command``'s module is imported and registered; the others
    are listed by their :data:`SUMMARIES` line (what ``rig --help`` shows)."""
    parser = argparse.ArgumentParser(
        prog="rig", description="Scoring rig for tabletop dice games."
    )
    parser.add_argument("--version", action="version", version=f"rig {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        summary = SUMMARIES.get(name)
        if lazy and summary is not None and summary[0] != command:
            subparsers.add_parser(summary[0], help=summary[1], add_help=False)
            continue
        try:
            module = importlib.import_module(f"rig.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"rig.cli.{name}":
                continue  # that subcommand is not built yet
            raise
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(_command_in(argv), lazy=True)
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

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
from rig.i18n import N_, Translator, cli_language

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
    "run": ("run", N_("start the rig and its scoreboard (simulation mode on a machine without camera and GPIO)")),
    "score": ("score", N_("score one turn given as JSON (a file, or - for stdin)")),
    "read": ("read", N_("read the dice (or a card) in images with a calibration profile")),
    "calibrate": ("calibrate", N_("fit a colour profile from frames of all six dice showing blue, pink, yellow, blank")),
    "record": ("record", N_("save camera frames to a folder (for calibration and bug reports)")),
    "tosses": ("tosses", N_("show live presses of the toss buttons/beams with µs timestamps (wiring test)")),
    "config_cmd": ("config", N_("check a config file, print the documented example, draw the wiring")),
    "doctor": ("doctor", N_("check the setup: packages, camera, GPIO pins, profile and light, data, service")),
    "plan": ("plan", N_("plan the camera: area seen, die size in px, margin around the box, sensor mode, exposure, SVG")),
    "parts": ("build-parts", N_("write the printable parts (camera mount, button boxes, beam clips) as STL, STEP and PNG")),
    "history": ("history", N_("past games and per-player totals from the event log")),
    "league": ("league", N_("follow the tables through an MQTT broker: live standings page and JSON API")),
    "bench": ("bench", N_("run a benchmark and print its figures")),
}


#: the commands whose output lines stay English on purpose (their ``--help`` and errors are translated): what
#: they print is for developers and bug reports, compared across machines and with the docs as it is.
#: Every other command prints through the catalogue (tests/test_i18n_said.py fails on an English line).
ENGLISH_OUTPUT = {
    "bench": "developer benchmarks: figures compared across machines and commits",
    "doctor": "a diagnostic report, pasted into bug reports",
    "tosses": "the wiring test's raw µs timestamps, bounce and glitch counts (docs/tosses.md)",
    "read": "the dice reader's debug output for calibration work",
    "record": "frames saved for calibration and bug reports",
    "parts": "the CAD build's file list and timings",
    "league": "the league server's console lines (the journal's)",
}

#: argparse's own lines (usage, the section titles, its errors), in the catalogue so ``rig --help`` and a
#: wrong option speak the language of ``LANG`` too (argparse asks gettext for them: see :func:`_speak`)
ARGPARSE_MESSAGES = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("%(prog)s: error: %(message)s\n"),
    N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("expected one argument"),
    N_("argument %(argument_name)s: %(message)s"), N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"), N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"), N_("expected at least one argument"),
)

#: the common error lines of the commands, as they are said in English, and their message ids
ERROR_LINES = (
    (r"(?P<path>.+): no such config file \(`rig config example > (?P=path)` writes one\)",
     N_("{path}: no such config file (`rig config example > {path}` writes one)")),
    (r"(?P<where>.+?): (?P<key>[\w.\[\]]+): unknown key \(known: (?P<known>[^)]*)\)(?P<rest>.*)",
     N_("{where}: {key}: unknown key (known: {known}){rest}")),
    (r"(?P<where>.+?): not valid TOML: (?P<why>.+)", N_("{where}: not valid TOML: {why}")),
    (r"(?P<where>.+?): (?P<key>[\w.]+): '(?P<value>[^']*)' is not a language the rig speaks \(one of: (?P<known>[^)]*)\)",
     N_("{where}: {key}: '{value}' is not a language the rig speaks (one of: {known})")),
    (r"(?P<path>.+?): no such file", N_("{path}: no such file")),
    # the config layer's errors: the file (and line), the key, what is wrong (its text said by pattern)
    (r"(?P<where>.+?): (?P<key>[a-z_]+(?:\[\d+\])?(?:\.[a-z_]+)*): (?P<message>.+)", N_("{where}: {key}: {message}")),
    (r"(?P<what>.+?) must be at least (?P<n>\d+)", N_("{what} must be at least {n}")),
)


def localise_error(message: str, _: Translator) -> str:
    """A command's error line in the language of ``_``: a common one (:data:`ERROR_LINES`), or a text the rig
    says as it is (a rules module's error, a refusal: :func:`rig.display.texts.rules_texts`); else in English."""
    if _.lang == "en":
        return message
    from rig.display.texts import rules_texts
    from rig.i18n import by_pattern

    return by_pattern(message, _.lang, ERROR_LINES + rules_texts())


_ARGPARSE_TEXTS = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]


def _speak(_: Translator) -> None:
    """argparse's own lines in the language of ``_`` (argparse looks its texts up through gettext); English
    puts argparse's own lookups back, so a German run in this process does not outlive it."""
    if _.lang == "en":
        argparse._, argparse.ngettext = _ARGPARSE_TEXTS  # type: ignore[attr-defined]
        return
    from rig.i18n import translations

    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = translations(_.lang).ngettext  # type: ignore[attr-defined]


def _command_in(argv: list[str] | None) -> str | None:
    """The subcommand named in ``argv`` (its first word that is not an option), if any."""
    for word in sys.argv[1:] if argv is None else argv:
        if not word.startswith("-"):
            return word
    return None


def build_parser(command: str | None = None, *, lazy: bool = False) -> argparse.ArgumentParser:
    """The ``rig`` parser. ``lazy``: only ``command``'s module is imported and registered; the others
    are listed by their :data:`SUMMARIES` line (what ``rig --help`` shows)."""
    _ = Translator(cli_language())
    _speak(_)
    parser = argparse.ArgumentParser(
        prog="rig", description=_("Scoring rig for tabletop dice games.")
    )
    parser.add_argument("--version", action="version", version=f"rig {__version__}",
                        help=_("show program's version number and exit"))
    subparsers = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    for name in COMMAND_MODULES:
        summary = SUMMARIES.get(name)
        if lazy and summary is not None and summary[0] != command:
            subparsers.add_parser(summary[0], help=_(summary[1]), add_help=False)
            continue
        try:
            module = importlib.import_module(f"rig.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"rig.cli.{name}":
                continue  # that subcommand is not built yet
            raise
        module.register(subparsers)
        if summary is not None and _.lang != "en" and subparsers._choices_actions:
            subparsers._choices_actions[-1].help = _(summary[1])  # the command's line in rig --help
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
        _ = Translator(cli_language())
        print(_("rig {command}: error: {message}", command=args.command,
                message=one_line(localise_error(str(exc), _))), file=sys.stderr)
        return getattr(exc, "exit_code", 2)  # 2: a person must act; 75 (a full disk): systemd retries
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

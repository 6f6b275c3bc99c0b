"""``rig config check|example|wiring``: the rig's config file, checked, shown, drawn."""

from __future__ import annotations

import sys
from pathlib import Path

from rig.config import CONFIG_DEFAULT_HELP
from rig.errors import ConfigError
from rig.i18n import cli_gettext as _
from rig.i18n import Translator, cli_language, ngettext, said


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "config",
        help=_("check a config file, print the documented example, draw the wiring"),
        description=_("The rig's config file (TOML). Every key: docs/config.md."),
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    check = actions.add_parser(
        "check",
        help=_("validate a config file without starting anything"),
        description=_("Validate a config file: unknown keys, wrong types, bad values, pins or players "
        "used twice are reported with their line. Exit 0 when it is valid."),
    )
    check.add_argument("file", metavar="FILE", help=_("the config file (TOML)"))
    check.add_argument("--quiet", "-q", action="store_true", help=_("print nothing when the file is valid"))
    check.set_defaults(func=run_check)

    example = actions.add_parser(
        "example",
        help=_("print the documented example config (every key explained)"),
        description=_("Print the documented example config. Start a rig with: rig config example > rig.toml"),
    )
    example.set_defaults(func=run_example)

    wiring = actions.add_parser(
        "wiring",
        help=_("draw the wiring diagram (SVG) or print the wiring table of a config"),
        description=_("Generate the wiring diagram of a config's pin map: the Pi header, each player's "
        "button or break-beam to its GPIO, the ground and 3V3 rails."),
    )
    wiring.add_argument("file", metavar="FILE", nargs="?",
                        help=_('the config file ({config_default_help})', config_default_help=_(CONFIG_DEFAULT_HELP)))
    wiring.add_argument("--out", "-o", metavar="SVG", help=_("write the SVG here (default: standard output)"))
    wiring.add_argument("--table", action="store_true", help=_("print the wiring table (Markdown) instead"))
    wiring.add_argument("--title", help=_("the diagram's title"))
    wiring.set_defaults(func=run_wiring)


def example_text() -> str:
    """The documented example config shipped with the rig."""
    import rig

    package = Path(rig.__file__).parent
    for candidate in (package / "examples" / "rig.toml", package.parent / "examples" / "rig.toml"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    raise ConfigError("the example config is not installed (it is examples/rig.toml in the source tree)")


def run_check(args) -> int:
    from rig.config import RigConfig

    config = RigConfig.load(args.file)
    if config.profile is not None and not config.profile.is_file():
        raise ConfigError(f"{args.file}: profile: {config.profile} does not exist: write it with "
                          f"`rig calibrate ... --out {config.profile}`, or remove the key to use the built-in colours")
    if args.quiet:
        return 0
    from rig.cli import localise_error

    speak = Translator(cli_language())
    print(_("{path}: OK", path=args.file))
    for line in config.describe(speak):
        print(f"  {line}")
    for note in config.warnings() + _missing_files(config):
        print(_("warning: {note}", note=localise_error(note, speak)))
    return 0


def _missing_files(config) -> tuple[str, ...]:
    notes = []
    if config.camera.source.startswith("replay:"):
        target = Path(config.camera.source[len("replay:"):])
        if not target.exists():
            notes.append(said(f"camera.source: the recording {target} does not exist"))
    return tuple(notes)


def run_example(args) -> int:
    sys.stdout.write(example_text())
    return 0


def run_wiring(args) -> int:
    from rig.config import RigConfig, default_config_path
    from rig.wiring import markdown_table, render_svg

    path = args.file or default_config_path()
    config = RigConfig.load(path) if path else RigConfig.default()
    if args.table:
        sys.stdout.write(markdown_table(config))
        return 0
    svg = render_svg(config, title=args.title)
    if args.out:
        out = Path(args.out)
        try:
            out.write_text(svg, encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write {out}: {exc.strerror}") from None
        print(ngettext("wrote {path} ({n} player)", "wrote {path} ({n} players)", len(config.players), cli_language(),
                       path=out))
    else:
        sys.stdout.write(svg)
    return 0

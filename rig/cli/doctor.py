"""``rig doctor [--config FILE]``: check the setup, print a pass/fail list with the fix for each failure."""

from __future__ import annotations

from pathlib import Path

from rig.config import CONFIG_DEFAULT_HELP
from rig.i18n import cli_gettext as _


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help=_("check the setup: packages, camera, GPIO pins, profile and light, data, service"),
        description=_("Check the rig's setup and print a pass/fail list with the fix for each failure. "
        "Checks that do not apply here (GPIO on a laptop, ...) say so. Exit 0 only when every "
        "applicable check passes, 1 otherwise."),
    )
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help=_("the rig's config file ({config_default_help})", config_default_help=_(CONFIG_DEFAULT_HELP)))
    parser.add_argument("--data-dir", type=Path, metavar="DIR", help=_("the data folder to check (default: as for rig run)"))
    parser.add_argument("--json", action="store_true", help=_("print the results as JSON"))
    parser.set_defaults(func=run)


def run(args) -> int:
    import json

    from rig.config import RigConfig, default_config_path
    from rig.doctor import FAIL, Context, format_report, run_checks
    from rig.errors import ConfigError

    path = args.config if args.config is not None else default_config_path()
    config, error = None, None
    if path is None:
        config = RigConfig.default()
    else:
        try:
            config = RigConfig.load(path)
        except ConfigError as exc:
            error = str(exc)
    ctx = Context.create(config, config_error=error, config_path=path, data_dir=args.data_dir)
    results = run_checks(ctx)
    if args.json:
        print(json.dumps([r.to_dict() for r in results], indent=2))
    else:
        where = ctx.model or "not a Raspberry Pi"
        config_name = path if path is not None else "the built-in default"
        print(format_report(results, header=f"rig doctor on {where}, config {config_name}"), end="")
    return 1 if any(r.status == FAIL for r in results) else 0

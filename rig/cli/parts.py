"""``rig build-parts --out DIR``: the printable parts (STL, STEP, PNG previews; 3MF on request) for this rig's config."""

from __future__ import annotations

from pathlib import Path

from rig.config import CONFIG_DEFAULT_HELP
from rig.i18n import cli_gettext as _


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "build-parts",
        help=_("write the printable parts (camera mount, button boxes, beam clips) as STL, STEP and PNG"),
        description=_("Build the rig's printed parts from the config's [build] section (box, camera, height, "
        "mount, seats, button size) and write NAME.stl, NAME.step (NAME.3mf with --3mf) and a NAME.png "
        "preview of each, "
        "with parts.txt: counts, print settings and the poles to cut. Needs pip install -e '.[parts]'."),
    )
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help=_("the folder to write the parts to"))
    parser.add_argument("--config", type=Path, metavar="FILE", help=_("the rig's config file ({config_default_help})", config_default_help=_(CONFIG_DEFAULT_HELP)))
    parser.add_argument("--3mf", dest="three_mf", action="store_true",
                        help=_("also write NAME.3mf (about a second more per part)"))
    parser.set_defaults(func=run)


def run(args) -> int:
    import time

    from rig.config import RigConfig, default_config_path
    from rig.errors import RigError
    from rig.parts import require_cad

    path = args.config if args.config is not None else default_config_path()
    config = RigConfig.load(path) if path is not None else RigConfig.default()
    require_cad()
    from rig.parts.build import write_parts

    if args.out.exists() and not args.out.is_dir():
        raise RigError(f"{args.out} is a file, not a folder")
    started = time.perf_counter()
    try:
        written, notes = write_parts(config, args.out, three_mf=args.three_mf)
    except OSError as exc:
        raise RigError(f"cannot write to {args.out}: {exc.strerror or exc}") from None
    for w in written:
        kinds = ", ".join(f.suffix[1:].upper() for f in w.files)
        print(f"{w.spec.name:<24} x{w.spec.count}  {kinds}  {w.seconds:.1f} s")
    if config.build.mount == "clamp":  # the rig put together from the cut list
        from rig.parts.assembly import render_assembly

        begun = time.perf_counter()
        render_assembly(config).save(args.out / "assembly.png")
        print(f"{'assembly':<24}     PNG  {time.perf_counter() - begun:.1f} s")
    print(f"{len(written)} parts in {args.out} ({time.perf_counter() - started:.1f} s); "
          f"counts, print settings and cut list: {notes}")
    return 0

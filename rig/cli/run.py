"""``rig run``: start the rig — inputs, camera, engine and the scoreboard web page.

On a Raspberry Pi with its camera and inputs it runs the real rig; anywhere else it runs
simulation mode (the virtual-table camera and gpiozero mock pins, driven from the page or
its keyboard shortcuts). --sim / --real force one or the other.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rig import argtypes
from rig.config import CONFIG_DEFAULT_HELP
from rig.i18n import cli_gettext as _


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a port number", text=repr(text))) from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(_("{port} is not a port number (0-65535; 0 picks a free one)", port=port))
    return port


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help=_("start the rig and its scoreboard (simulation mode on a machine without camera and GPIO)"),
        description=_("On a Raspberry Pi with its camera and inputs it runs the real rig; anywhere else it runs "
                      "simulation mode (the virtual-table camera and gpiozero mock pins, driven from the page or its "
                      "keyboard shortcuts). --sim / --real force one or the other."),
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help=_("the rig's config file (TOML); {config_default_help}", config_default_help=_(CONFIG_DEFAULT_HELP)))
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--sim", dest="mode", action="store_const", const="sim",
                      help=_("simulation mode: virtual-table camera, mock GPIO pins"))
    mode.add_argument("--real", dest="mode", action="store_const", const="real",
                      help=_("the real camera and GPIO inputs from the config (fail if missing)"))
    parser.add_argument("--listen", metavar="ADDR",
                        help=_("address to listen on (default 127.0.0.1; 0.0.0.0 lets phones on the LAN view)"))
    parser.add_argument("--port", type=_port, metavar="N", help=_("TCP port (default 8080; 0 picks a free one)"))
    parser.add_argument("--data-dir", type=Path, metavar="DIR",
                        help=_("where the game database lives (default: data_dir in the config, else "
                        "$XDG_DATA_HOME/rig, i.e. ~/.local/share/rig; /var/lib/rig under systemd)"))
    parser.add_argument("--seed", type=argtypes.seed, default=None, help=_("seed of the simulated table (simulation mode)"))
    parser.add_argument("--host-name", action="append", default=[], metavar="NAME",
                        help=_("a host name the page is opened by, besides IP addresses, localhost, this machine's "
                        "name and NAME.local (others are refused: DNS rebinding); repeatable"))
    parser.set_defaults(func=run, mode=None)


def run(args) -> int:
    from rig.app.modes import load_config, resolve_mode
    from rig.app.runner import Rig
    from rig.app.serve import bind_socket, serve

    config = load_config(args.config)
    mode = resolve_mode(args.mode, config)
    listen = args.listen or config.server.listen
    port = config.server.port if args.port is None else args.port
    sock = bind_socket(listen, port)  # first: a port in use fails before any hardware is touched
    try:
        with Rig(config, mode=mode, data_dir=args.data_dir, seed=args.seed) as rig:
            serve(rig, sock, listen=listen, hosts=args.host_name)
    finally:
        sock.close()
    return 0

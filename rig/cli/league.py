"""``rig league``: follow every table of a tournament through an MQTT broker and serve the standings.

Subscribes to ``rig/+/events`` with a persistent session, folds the events into its own SQLite
(standings per player across tables and games, games in progress and finished, per-table health)
and serves a read-only page and JSON API. ``rig league --demo`` starts a local Mosquitto, three
simulated tables and the league page on this machine.
"""

from __future__ import annotations

import os
from pathlib import Path
from rig.i18n import cli_gettext as _

#: where the league page listens unless told (a rig's scoreboard has 8080)
DEFAULT_PORT = 8090
PASSWORD_ENV = "RIG_LEAGUE_PASSWORD"


def register(subparsers) -> None:
    from rig.cli.run import _port

    parser = subparsers.add_parser(
        "league", help=_("follow the tables through an MQTT broker: live standings page and JSON API"),
        description=" ".join(__doc__.split("\n\n")[1].split()).replace("``", ""))
    parser.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST[:PORT]",
                        help=_("the MQTT broker (default 127.0.0.1:1883; 8883 with --tls)"))
    parser.add_argument("--username", default="league", help=_("the league's broker account (default: league)"))
    parser.add_argument("--password-file", type=Path, metavar="FILE",
                        help=_("a file holding the account's password (default: ${password_env})", password_env=PASSWORD_ENV))
    parser.add_argument("--tls", action="store_true", help=_("connect with TLS"))
    parser.add_argument("--secrets", type=Path, metavar="FILE",
                        help=_("a TOML file of each table's signing secret ([tables] table-1 = \"...\", as its "
                        "[league] secret): unsigned, forged or changed events are then rejected"))
    parser.add_argument("--ca-file", type=Path, metavar="FILE", help=_("the CA that signed the broker's certificate"))
    parser.add_argument("--data-dir", type=Path, metavar="DIR",
                        help=_("where league.sqlite3 lives (default: the rig's data folder)"))
    parser.add_argument("--listen", default="127.0.0.1", metavar="ADDR",
                        help=_("address of the page (default 127.0.0.1; 0.0.0.0 for the network)"))
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT, metavar="N",
                        help=_('port of the page (default {default_port}; 0 picks a free one)', default_port=DEFAULT_PORT))
    parser.add_argument("--demo", action="store_true",
                        help=_("start a local mosquitto, simulated tables and the league (nothing else needed)"))
    parser.add_argument("--tables", type=int, default=3, metavar="N", help=_("simulated tables in the demo (default 3)"))
    parser.add_argument("--health", action="store_true",
                        help=_("print every table's health from league.sqlite3 (read-only; beside a running league "
                        "too) and exit: 0 all well, 1 a table's events are missing or its log differs"))
    parser.set_defaults(func=run)


def settings_from(args):
    from rig.errors import RigError
    from rig.league.mqtt import BrokerSettings

    host, port = BrokerSettings.parse_address(args.broker, 8883 if args.tls else 1883)
    if args.ca_file is not None and not args.tls:
        raise RigError("--ca-file needs --tls")
    password = os.environ.get(PASSWORD_ENV)
    if args.password_file is not None:
        try:
            password = args.password_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise RigError(f"cannot read the password file {args.password_file}: "
                           f"{getattr(exc, 'strerror', None) or exc}") from None
    return BrokerSettings(host, port, args.tls, args.ca_file, args.username or None, password)


def read_secrets(path: Path | None) -> dict[str, str]:
    """The tables' signing secrets from ``--secrets FILE`` (TOML ``[tables] NAME = "SECRET"``), or none."""
    if path is None:
        return {}
    import tomllib

    from rig.errors import RigError
    from rig.textfile import read_text_limited

    try:
        data = tomllib.loads(read_text_limited(path, what="secrets file", limit=256 * 1024))
    except tomllib.TOMLDecodeError as exc:
        raise RigError(f"{path}: not valid TOML: {exc}") from None
    tables = data.get("tables")
    if not isinstance(tables, dict) or not tables:
        raise RigError(f"{path}: needs a [tables] section: table-1 = \"its secret\", one line per table")
    for name, secret in tables.items():
        if not isinstance(secret, str) or len(secret) < 16:
            raise RigError(f"{path}: tables.{name}: the secret must be a string of at least 16 characters")
    return dict(tables)


def serve_app(app, sock, out=print) -> None:
    """Serve ``app`` on a bound socket until Ctrl+C / SIGTERM."""
    import uvicorn

    from rig.app.serve import _server_class

    server = _server_class()(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                            timeout_graceful_shutdown=2))
    server.run(sockets=[sock])


def run(args) -> int:
    from rig.engine.paths import resolve_data_dir
    from rig.errors import RigError
    from rig.league.app import create_league_app
    from rig.league.service import League
    from rig.app.serve import bind_socket, page_urls

    if args.health:
        return health(args)
    if args.demo:
        return demo(args)
    if args.tables != 3:
        raise RigError("--tables is for --demo")
    settings = settings_from(args)
    data_dir = resolve_data_dir(args.data_dir)
    sock = bind_socket(args.listen, args.port)
    try:
        with League(data_dir / "league.sqlite3", settings, secrets=read_secrets(args.secrets)) as league:
            url = page_urls(args.listen, sock.getsockname()[1])[0]
            print(f"rig league: following {settings!r}, league data in {data_dir / 'league.sqlite3'}", flush=True)
            print(f"rig league: standings at {url}  (JSON: {url}api/league); Ctrl+C stops", flush=True)
            serve_app(create_league_app(league.store, status=league.status), sock)
    finally:
        sock.close()
    return 0


def health_lines(tables: list[dict]) -> list[str]:
    """One line per table: events counted, missing, rejected, and its whole log against the league's copy."""
    lines = []
    for row in tables:
        online = {None: "?", True: "online", False: "offline"}[row["online"]]
        lines.append(f"{row['table']}: {online}, {row['have']} events counted, {row['missing']} missing, "
                     f"{row['rejected']} rejected; log {row['log']['state']}: {row['log']['text']}")
    return lines


def health(args) -> int:
    from rig.engine.paths import resolve_data_dir
    from rig.errors import RigError
    from rig.league.store import LeagueStore

    if args.demo:
        raise RigError("--health reads the league database; it cannot go with --demo")
    path = resolve_data_dir(args.data_dir) / "league.sqlite3"
    import sqlite3

    store = LeagueStore(path, read_only=True)
    try:
        tables = store.tables()
    except sqlite3.Error as exc:
        raise RigError(f"{path}: cannot read the league database ({exc}); it was left untouched") from None
    finally:
        store.close()
    if not tables:
        print(f"no table has been heard of yet ({path})")
        return 0
    for line in health_lines(tables):
        print(line)
    return 1 if any(row["missing"] or row["log"]["state"] == "differs" for row in tables) else 0


def demo(args) -> int:
    """A local Mosquitto, ``--tables`` simulated tables publishing, the league following them."""
    import tempfile

    from rig.engine.paths import database_path
    from rig.engine.service import EngineService
    from rig.errors import RigError
    from rig.league.app import create_league_app
    from rig.league.broker import LocalBroker
    from rig.league.publisher import Publisher
    from rig.league.service import League
    from rig.league.simtable import Lobby, SimTable, TablePlayer
    from rig.app.serve import bind_socket, page_urls

    if not 1 <= args.tables <= 50:
        raise RigError("--tables must be 1 to 50")
    names = [f"table-{i}" for i in range(1, args.tables + 1)]
    sock = bind_socket(args.listen, args.port)
    opened: list = []
    try:
        with tempfile.TemporaryDirectory(prefix="rig-league-demo-") as tmp, LocalBroker(names) as broker:
            folder = args.data_dir or Path(tmp)
            league = League(folder / "league.sqlite3", broker.settings("league")).start()
            opened.append(league)
            lobby = Lobby()  # players move between the tables from game to game
            for index, name in enumerate(names):
                service = EngineService.open(folder / name, clock="demo")
                opened.append(service)
                opened.append(Publisher(database_path(folder / name), name, broker.settings(name),
                                        service=service).start())
                player = TablePlayer(SimTable(service, seed=index, lobby=lobby), pace_s=0.4, name=name)
                player.start()
                opened.append(player)
            url = page_urls(args.listen, sock.getsockname()[1])[0]
            print(f"rig league --demo: mosquitto on 127.0.0.1:{broker.port}, {len(names)} simulated tables "
                  f"({', '.join(names)}), data in {folder}", flush=True)
            print(f"rig league --demo: standings at {url}  (JSON: {url}api/league); Ctrl+C stops", flush=True)
            try:
                serve_app(create_league_app(league.store, status=league.status), sock)
            finally:
                for thing in reversed(opened):
                    (thing.stop if isinstance(thing, TablePlayer) else thing.close)()
    finally:
        sock.close()
    return 0

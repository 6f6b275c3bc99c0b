"""``rig history``: past games and per-player totals from the event log."""

from __future__ import annotations

from pathlib import Path

from rig import registry
from rig.config import CONFIG_DEFAULT_HELP
from rig.i18n import N_, Translator, cli_language
from rig.i18n import cli_gettext as _


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "history",
        help=_("past games and per-player totals from the event log"),
        description=_("List past games (newest first, numbered from 1 = the first game) with their totals "
        "and winners, then each player's games, wins and points per kind of game. Reads the event log in "
        "the data folder."),
    )
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help=_("the rig's config file, for its data_dir ({config_default_help})", config_default_help=_(CONFIG_DEFAULT_HELP)))
    parser.add_argument("--data-dir", type=Path, metavar="DIR", help=_("the data folder (default: as for rig run)"))
    parser.add_argument("--limit", type=int, default=20, metavar="N", help=_("show the N newest games (default 20)"))
    parser.add_argument("--json", action="store_true", help=_("print {games, players} as JSON (all games)"))
    parser.add_argument("--dice", action="store_true",
                        help=_("die fairness: face counts over every scored turn of the default game and a chi-square test"))
    parser.add_argument("--export", choices=("csv", "json"),
                        help=_("every game for a spreadsheet (csv: one row per player per game) or with its "
                             "turns, dice and µs toss times (json)"))
    parser.set_defaults(func=run)


def data_dir_from(args) -> Path:
    """The data folder for ``--data-dir`` / ``--config`` / the environment (as ``rig run`` resolves it)."""
    from rig.config import RigConfig, default_config_path
    from rig.engine.paths import resolve_data_dir

    path = args.config if args.config is not None else default_config_path()
    configured = RigConfig.load(path).data_dir if path is not None else None
    return resolve_data_dir(args.data_dir, configured=configured)




def add_outcomes(history: dict, log) -> dict:
    """Give each ended game that has no winner its ``outcome`` from its ``game_ended`` event
    (e.g. a start roll's ``starter``, ``white_start``, ``black_start``)."""
    for game in history["games"]:
        if game["status"] in ("playing", "over") or "outcome" in game:
            continue
        ended = [e.event for e in log.events(game_id=game["id"], status="applied")
                 if isinstance(e.event, dict) and e.event.get("type") == "game_ended"]
        outcome = ended[-1].get("outcome") if ended else None
        if outcome:
            game["outcome"] = outcome
    return history


def describe_result(game: dict, _: Translator | None = None) -> str:
    """How a game ended, in a few words: ``won by Ada``, ``in progress``, ``Ben starts (white 2, black 5)``
    (in the language of ``_``; English without it).

    >>> describe_result({"status": "decided", "winner": None,
    ...                  "outcome": {"starter": "Ben", "white_start": 2, "black_start": 5}})
    'Ben starts (white 2, black 5)'
    >>> describe_result({"status": "abandoned", "winner": None}, Translator("de"))
    'abgebrochen'
    """
    _ = _ or Translator("en")
    status = game["status"]
    outcome = game.get("outcome") or {}
    if status == "over":
        return _("won by {winner}", winner=game["winner"])
    if status == "playing":
        return _("in progress")
    if outcome.get("starter"):
        return _("{starter} starts (white {white}, black {black})", starter=outcome["starter"],
                   white=outcome.get("white_start"), black=outcome.get("black_start"))
    return _(STATUSES.get(status, status))


#: a game's status as ``rig history`` says it (the log's words)
STATUSES = {"abandoned": N_("abandoned"), "decided": N_("decided"), "unreadable": N_("unreadable")}


def format_history(history: dict, *, limit: int = 20, _: Translator | None = None) -> str:
    """The text ``rig history`` prints, in the language of ``_`` (English without it)."""
    from rig import i18n

    _ = _ or Translator("en")
    games = history["games"]
    if not games:
        return _("no games yet") + "\n"
    lines = [_.n("{n} game, newest first:", "{n} games, newest first:", len(games))]
    for game in games[:limit]:
        started = game.get("started_at") or ""
        when = (i18n.format_datetime(started[:16], _.lang) if _.lang != "en" and started
                else started[:16].replace("T", " "))
        ranked = sorted(game["totals"].items(), key=lambda item: -item[1])
        totals = ", ".join(f"{name} {points}" for name, points in ranked) or ", ".join(game["players"])
        title = registry.title(game.get("game"), short=True)  # the JSON keeps the game's name
        turns = _.n("{n} turn", "{n} turns", game["turns"])
        lines.append(f"  #{game.get('number', game['id']):<4} {when}  {title:<11} {turns:>8}  "
                     f"{describe_result(game, _)}: {totals}")
    if len(games) > limit:
        lines.append("  " + _.n("... {n} older game (--limit N shows more)", "... {n} older games (--limit N shows more)",
                                  len(games) - limit))
    lines.append(_("players:"))
    head = [_(word) for word in (N_("game"), N_("name"), N_("games"), N_("wins"), N_("points"), N_("best"))]
    lines.append(f"  {head[0]:<7} {head[1]:<14} {head[2]:>6} {head[3]:>5} {head[4]:>7} {head[5]:>5}")
    for row in history["players"]:  # one row per player and kind of game (its short name, as in the JSON)
        lines.append(f"  {row.get('game', '?'):<7} {row['name']:<14} {row['games']:>6} {row['wins']:>5} "
                     f"{row['points']:>7} {row['best']:>5}")
    return "\n".join(lines) + "\n"


def run(args) -> int:
    import json

    from rig.engine.engine import Engine
    from rig.engine.log_read import read_log
    from rig.engine.paths import database_path

    if args.limit < 1:
        from rig.errors import RigError

        raise RigError("--limit must be at least 1")
    path = database_path(data_dir_from(args))
    if args.dice or args.export:
        return _referee(args, path)
    if not path.exists():
        history = {"games": [], "players": []}
        if not args.json:
            print(_("no games yet (no event log at {path})", path=path))
            return 0
    else:
        history = read_log(path, lambda log: add_outcomes(Engine(log).history(), log))
    if args.json:
        print(json.dumps(history, indent=2))
    else:
        print(format_history(history, limit=args.limit, _=Translator(cli_language())), end="")
    return 0


def _referee(args, path) -> int:
    """``--dice`` and ``--export``: both fold the logged games again (rig.engine.turns)."""
    import json
    import sys

    from rig.engine.engine import Engine
    from rig.engine.export import history_csv, history_json
    from rig.engine.log_read import read_log
    from rig.engine.turns import game_turns, logged_dice
    from rig import registry

    if not path.exists():
        history, faces, turns = {"games": [], "players": []}, [], {}
    else:
        def read(log):
            history = Engine(log).history()
            faces = logged_dice(log) if args.dice else []
            turns = {g["id"]: game_turns(log, g["id"])["turns"] for g in history["games"]} \
                if args.export == "json" else {}
            return history, faces, turns

        history, faces, turns = read_log(path, read)
    if args.dice:
        print(registry.get(registry.DEFAULT).dice_fairness(faces).format())
    if args.export == "csv":
        sys.stdout.write(history_csv(history))
    elif args.export == "json":
        print(json.dumps(history_json(history, turns), indent=2, ensure_ascii=False))
    return 0

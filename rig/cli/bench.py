"""``rig bench NAME``: benchmarks that print figures (never timed assertions in tests).

Each benchmark is a module ``rig.bench.<name>`` (or a game's, :attr:`rig.registry.Game.benchmarks`)
exposing ``add_arguments(parser)`` (may be absent) and ``run(args) -> int``.
"""

from __future__ import annotations

import importlib
from rig.i18n import cli_gettext as _

#: benchmark name -> (module, one-line help)
BENCHMARKS = {
    "vision": ("rig.bench.vision", "dice/card reading accuracy and ms per frame on the virtual table"),
    "tosses": ("rig.bench.tosses", "toss ordering and latency through the real gpiozero stack"),
    "events": ("rig.bench.events", "event-log append latency with fsync on"),
    "reveal": ("rig.bench.reveal", "card reveals laid as players do: cards booked wrong in silence, how often the rig asks"),
    "durability": ("rig.bench.durability", "SIGKILL campaign: acknowledged inputs lost, end state vs uninterrupted"),
    "storage": ("rig.bench.storage", "bit flips, cuts, foreign files, a full disk: refused files changed, losses unnoticed"),
    "fuzz": ("rig.bench.fuzz", "fuzzed HTTP requests and CLI inputs: 500s, tracebacks, poisoned states, exit codes"),
    "lan": ("rig.bench.lan", "the kiosk's answer time while a LAN client opens many connections; PIN search time"),
    "league": ("rig.bench.league", "N tables through a real mosquitto into rig league: events/s, latency, catch-up"),
    "plan": ("rig.bench.plan", "printed parts' build time; rig plan's die px against the virtual table (and the twin: --twin N); box in view"),
    "start": ("rig.bench.start", "how long rig --help, rig score, rig doctor and rig run to its first page take"),
}


def register(subparsers) -> None:
    parser = subparsers.add_parser("bench", help=_("run a benchmark and print its figures"))
    benches = parser.add_subparsers(dest="bench", metavar="NAME", required=True)
    from rig import registry

    games = {name: bench for game in registry.games() for name, bench in game.benchmarks.items()}
    for name, (module_name, help_text) in {**games, **BENCHMARKS}.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        sub = benches.add_parser(name, help=help_text)
        if hasattr(module, "add_arguments"):
            module.add_arguments(sub)
        sub.set_defaults(func=module.run)

"""The turn engine: a whole game as a fold over a durable SQLite event log.

- :mod:`rig.engine.events` — the event types and their shape;
- :mod:`rig.engine.log` — :class:`EventLog` (WAL, ``synchronous=FULL``, schema migrations);
- :mod:`rig.engine.extra` — the interface of a game's fold (each game's package has its own);
- :mod:`rig.engine.game` — the fold machinery every game shares (start, apply, phase);
- :mod:`rig.engine.engine` — :class:`Engine`: submit, replay, state, history;
- :mod:`rig.engine.service` — :class:`EngineService`: the thread-safe engine the app and inputs call;
- :mod:`rig.engine.inputs` — what a player's input means (the game under way decides);
- :mod:`rig.engine.view` — the state as JSON (each game's fold draws its part);
- :mod:`rig.engine.turns` — past turns rebuilt from the log (the referee's views);
- :mod:`rig.engine.paths` — where the data directory is.

Importing this package imports only the standard library, :mod:`rig.rules` and :mod:`rig.registry`
(a game's fold is imported when a game of its kind starts).
"""

from rig.engine.engine import Engine
from rig.engine.errors import EngineError, EventFormatError, EventRefused, LogError
from rig.engine.events import EVENT_TYPES, make_event, parse_event
from rig.engine.log import EventLog, open_log
from rig.engine.paths import database_path, resolve_data_dir
from rig.engine.service import EngineService

__all__ = [
    "EVENT_TYPES", "Engine", "EngineError", "EngineService", "EventFormatError", "EventLog", "EventRefused",
    "LogError", "database_path", "make_event", "open_log", "parse_event", "resolve_data_dir",
]

"""The turn engine: a whole game as a fold over a durable SQLite event log.

- :mod:`rig.engine.events` — the event types and their shape;
- :mod:`rig.engine.log` — :class:`EventLog` (WAL, ``synchronous=FULL``, schema migrations);
- :mod:`rig.engine.game` — the state machine of one game (scoring by :mod:`rig.rules`);
- :mod:`rig.engine.engine` — :class:`Engine`: submit, replay, state, history;
- :mod:`rig.engine.service` — :class:`EngineService`: the thread-safe engine the app and inputs call;
- :mod:`rig.engine.inputs` — the roller's own input as copy selector;
- :mod:`rig.engine.paths` — where the data directory is.

Importing this package imports only the standard library and :mod:`rig.rules`.
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

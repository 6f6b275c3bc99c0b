"""The engine's events: JSON objects ``{"type", "t_us", "source", ...payload}``.

The engine's own events are :data:`SPECS`; a game adds its own in its engine module's
``EVENTS`` (read through :meth:`rig.registry.Game.event_specs`). :func:`parse_event` checks an event's shape (not whether it makes sense now: that is the
engine's job) and returns a clean copy with defaults filled in.

>>> parse_event({"type": "toss", "t_us": 1500, "source": "gpio", "player": "Ben"})
{'type': 'toss', 't_us': 1500, 'source': 'gpio', 'player': 'Ben'}
>>> parse_event({"type": "copy_chosen", "t_us": 9, "source": "display", "player": "Ben"})["confirmed"]
True
>>> parse_event({"type": "toss", "t_us": 1, "source": "gpio"})
Traceback (most recent call last):
...
rig.engine.errors.EventFormatError: a toss event needs 'player'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from rig import registry
from rig.boundary import MAX_T_US, BadInput, check_name, check_value
from rig.engine.errors import EventFormatError

#: the kinds of correction a ``correction`` event can make
CORRECTIONS = ("die", "dice", "card", "toss", "swap", "undo")


@dataclass(frozen=True)
class Field:
    """One payload field: its JSON type(s), whether it is required, its default."""

    kinds: tuple[type, ...]
    required: bool = False
    default: Any = None
    describe: str = ""


STR = Field((str,), describe="a string")
STR_REQUIRED = Field((str,), True, describe="a string")
INT = Field((int,), describe="a whole number")
LIST = Field((list,), describe="a list")
DICT = Field((dict,), describe="an object")


@dataclass(frozen=True)
class EventSpec:
    """The payload fields an event type takes (beyond ``type``, ``t_us``, ``source``, ``clock``)."""

    fields: Mapping[str, Field] = field(default_factory=dict)


SPECS: dict[str, EventSpec] = {
    "game_started": EventSpec({
        "game": Field((str,), default=registry.DEFAULT, describe="a game name"),
        "players": Field((list,), True, describe="a list of names in seat order"),
        "options": Field((dict,), default=None, describe="an object of rules options"),
    }),
    "turn_started": EventSpec({"player": STR}),
    "roll_settled": EventSpec({
        "dice": Field((list,), True, describe="a list of die faces"),
        "started_us": INT,
        "reading": DICT,
    }),
    "toss": EventSpec({"player": STR_REQUIRED}),
    "copy_chosen": EventSpec({
        "player": STR_REQUIRED,
        "confirmed": Field((bool,), default=True, describe="true or false"),
    }),
    "card_revealed": EventSpec({
        "card": STR_REQUIRED,
        "confidence": Field((int, float), describe="a number"),
    }),
    "correction": EventSpec({
        "what": Field((str,), True, describe=f"one of {', '.join(CORRECTIONS)}"),
        "index": INT,
        "other": INT,
        "face": STR,
        "faces": LIST,
        "card": STR,
        "player": STR,
        "remove": Field((bool,), describe="true or false"),
    }),
    "violation": EventSpec({"kind": STR_REQUIRED, "player": STR, "detail": STR}),
    "turn_scored": EventSpec({"turn": INT, "score": DICT, "totals": DICT}),
    "game_ended": EventSpec({"reason": STR, "winner": STR, "totals": DICT, "outcome": DICT}),
}

#: the engine's own events, in the order of a game
EVENT_TYPES = tuple(SPECS)

_game_specs: tuple[int, dict[str, EventSpec]] = (-1, SPECS)


def all_specs() -> dict[str, EventSpec]:
    """The engine's events and every registered game's (in menu order), by type."""
    global _game_specs
    generation = registry.generation()
    if _game_specs[0] != generation:
        specs = dict(SPECS)
        for game in registry.games():
            specs.update({kind: spec for kind, spec in game.event_specs().items() if kind not in specs})
        _game_specs = (generation, specs)
    return _game_specs[1]


_COMMON = ("type", "t_us", "source", "clock")


def _is(value: Any, kinds: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in kinds:
        return False  # JSON true is not a number
    return isinstance(value, kinds)


def parse_event(data: Any) -> dict[str, Any]:
    """Check an event's shape; return a copy with defaults filled in. Raises :class:`EventFormatError`."""
    if not isinstance(data, Mapping):
        raise EventFormatError(f"an event must be a JSON object, not {type(data).__name__}")
    try:
        check_value(dict(data))
    except BadInput as exc:
        raise EventFormatError(f"an event with a bad value: {exc}") from None
    kind = data.get("type")
    specs = all_specs()
    if not isinstance(kind, str) or kind not in specs:
        raise EventFormatError(f"unknown event type {repr(kind)[:60]} (types: {', '.join(specs)})")
    t_us = data.get("t_us")
    if not _is(t_us, (int,)) or not 0 <= t_us <= MAX_T_US:
        raise EventFormatError(f"a {kind} event needs 't_us', a whole number of microseconds from 0 to 2^53, "
                               f"not {t_us!r}")
    source = data.get("source")
    if not isinstance(source, str) or not source or len(source) > 64:
        raise EventFormatError(f"a {kind} event needs 'source', a non-empty string, not {source!r}")
    spec = specs[kind]
    unknown = sorted(set(data) - set(_COMMON) - set(spec.fields))
    if unknown:
        raise EventFormatError(f"a {kind} event has unknown field(s): {', '.join(unknown)}")
    event: dict[str, Any] = {"type": kind, "t_us": t_us, "source": source}
    if "clock" in data:
        if not isinstance(data["clock"], str):
            raise EventFormatError(f"'clock' must be a string, not {data['clock']!r}")
        event["clock"] = data["clock"]
    for name, spec_field in spec.fields.items():
        if name not in data or data[name] is None:
            if spec_field.required:
                raise EventFormatError(f"a {kind} event needs {name!r}")
            if spec_field.default is not None:
                event[name] = spec_field.default
            continue
        value = data[name]
        if not _is(value, spec_field.kinds):
            raise EventFormatError(f"{kind}.{name} must be {spec_field.describe}, not {value!r}")
        event[name] = value
    for name in ("players", "dice", "faces"):
        if name in event and not all(isinstance(item, str) for item in event[name]):
            raise EventFormatError(f"{kind}.{name} must be a list of strings, not {event[name]!r}")
    if "players" in event:
        try:
            event["players"] = [check_name(name, f"{kind}.players[{index}]")
                                for index, name in enumerate(event["players"])]
        except BadInput as exc:
            raise EventFormatError(str(exc)) from None
    if kind == "correction" and event["what"] not in CORRECTIONS:
        raise EventFormatError(f"correction.what must be one of {', '.join(CORRECTIONS)}, not {event['what']!r}")
    return event


def make_event(kind: str, t_us: int, source: str, **payload: Any) -> dict[str, Any]:
    """Build and check an event.

    >>> make_event("card_revealed", 12, "camera", card="pink")
    {'type': 'card_revealed', 't_us': 12, 'source': 'camera', 'card': 'pink'}
    """
    return parse_event({"type": kind, "t_us": t_us, "source": source, **payload})

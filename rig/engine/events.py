"""The engine's events: one schema, as ``msgspec.Struct`` types (a union tagged by ``type``).

Every event is ``{"type", "t_us", "source", "clock"?, ...payload}``. The engine's own events are
the classes below (:data:`ENGINE_EVENTS`); a game adds its own in its engine module's ``EVENTS``
(``{type: class}``, subclasses of :class:`Event`, read through :meth:`rig.registry.Game.event_specs`).

An event from outside (an HTTP body, a logged row on replay, a league message, a press turned
into an event) is decoded ONCE where it comes in, by :func:`decode_event` (a Python object) or
:func:`decode_event_json` (JSON bytes); what comes out is a typed value that the engine, the log and
the league pass on without checking it again. The same types give the JSON Schema
(:func:`json_schema`, served at ``GET /api/schema``).

>>> decode_event({"type": "toss", "t_us": 1500, "source": "gpio", "player": "Ben"})
Toss(player='Ben', t_us=1500, source='gpio', clock=None)
>>> parse_event({"type": "copy_chosen", "t_us": 9, "source": "display", "player": "Ben"})["confirmed"]
True
>>> decode_event({"type": "toss", "t_us": 1, "source": "gpio"})
Traceback (most recent call last):
...
rig.engine.errors.EventFormatError: a toss event needs 'player'
"""

from __future__ import annotations

import re
import sys
import threading
from typing import Annotated, Any, ClassVar, Literal, Mapping, TypeVar, Union, get_args

import msgspec

from rig import registry
from rig.boundary import INT_MAX, INT_MIN, MAX_STRING, MAX_T_US, BadInput, check_name, check_value
from rig.engine.errors import EventFormatError


#: the kinds of correction a ``correction`` event can make
CorrectionKind = Literal["die", "dice", "card", "toss", "swap", "undo"]
CORRECTIONS: tuple[str, ...] = get_args(CorrectionKind)

#: text: at most MAX_STRING characters, no NUL, no lone surrogate
_TEXT = r"^[^\x00\ud800-\udfff]*$"
Text = Annotated[str, msgspec.Meta(max_length=MAX_STRING, pattern=_TEXT)]
Source = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=_TEXT)]
Whole = Annotated[int, msgspec.Meta(ge=INT_MIN, le=INT_MAX)]
Micros = Annotated[int, msgspec.Meta(ge=0, le=MAX_T_US,
                                     description="microseconds on the monotonic clock, 0 to 2^53")]
#: a finite number (JSON has no NaN or infinities)
Number = Union[Whole, Annotated[float, msgspec.Meta(ge=-sys.float_info.max, le=sys.float_info.max)]]
TextList = Annotated[list[Text], msgspec.Meta(max_length=1024)]
#: a JSON object of any content (bounded by :func:`rig.boundary.check_value` in :meth:`Event.__post_init__`)
Object = dict[str, Any]


class Event(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Every event: when (``t_us``), from where (``source``), on which boot's clock (``clock``)."""

    t_us: Micros
    source: Source
    clock: Text | None = None

    #: payload fields holding JSON objects of any content, checked against the rig's bounds on decode
    _objects: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        if not _built.from_checked:
            self._check()

    def _check(self) -> None:
        """What the types alone cannot say (run by every decode; a game's event may add to it)."""
        for name in self._objects:
            value = getattr(self, name)
            if value is not None:
                check_value(value, f"$.{name}")

    @classmethod
    def from_checked(cls: type[E], **fields: Any) -> E:
        """The event built from values that have passed their one check already (a typed request's,
        :class:`NewGame`): its own checks (:meth:`_check`) do not run again."""
        _built.from_checked = True
        try:
            return cls(**fields)
        finally:
            _built.from_checked = False

    def stamped(self: E, **changes: Any) -> E:
        """A copy with ``changes`` (checked values: the service's clock, a game's configured options)."""
        _built.from_checked = True
        try:
            return msgspec.structs.replace(self, **changes)
        finally:
            _built.from_checked = False

    @property
    def type(self) -> str:
        return self.__struct_config__.tag  # type: ignore[return-value]

    def to_dict(self) -> dict[str, Any]:
        """The event as the fold and the log take it: ``type`` first, fields left unset (None) out."""
        out: dict[str, Any] = {"type": self.__struct_config__.tag, "t_us": self.t_us, "source": self.source}
        if self.clock is not None:
            out["clock"] = self.clock
        for name in _payload(type(self)):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


E = TypeVar("E", bound=Event)


class _Built(threading.local):
    #: this thread builds an event from checked values (:meth:`Event.from_checked`): no second check
    from_checked = False


_built = _Built()
_PAYLOADS: dict[type, tuple[str, ...]] = {}


def _payload(cls: type[Event]) -> tuple[str, ...]:
    """The payload fields of an event type, in the order the class declares them."""
    names = _PAYLOADS.get(cls)
    if names is None:
        names = _PAYLOADS[cls] = tuple(name for klass in reversed(cls.__mro__)
                                       for name in getattr(klass, "__annotations__", {})
                                       if name in cls.__struct_fields__ and name not in ("t_us", "source", "clock"))
    return names


class GameStarted(Event, tag="game_started"):
    players: Annotated[list[Text], msgspec.Meta(max_length=1024, description="names in seat order")]
    game: Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=_TEXT)] = registry.DEFAULT
    options: Object | None = None
    _objects: ClassVar[tuple[str, ...]] = ("options",)

    def _check(self) -> None:
        super()._check()
        self.players = [check_name(name, f"$.players[{index}]") for index, name in enumerate(self.players)]


class NewGame(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /api/games``: decoded once at the door (every check its
    :class:`GameStarted` needs), then made into that event by :meth:`event` without a second check.

    >>> new = decode_new_game({"players": [" Ada", "Ben"], "turns_each": 2})
    >>> event = new.event(t_us=7, source="display")
    >>> event.type, event.players, event.options
    ('game_started', ['Ada', 'Ben'], {'turns_each': 2})
    >>> decode_new_game({"players": ["Ada"], "game": "x\\x00"})
    Traceback (most recent call last):
    ...
    rig.boundary.BadInput: $.game: expected `str` (text without NUL or lone surrogates)
    """

    #: names, each checked by :func:`rig.boundary.check_name` (no control characters: no NUL either)
    players: Annotated[list[str], msgspec.Meta(min_length=1, max_length=16)]
    game: Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=_TEXT)] = registry.DEFAULT
    options: Object = {}
    turns_each: Annotated[int, msgspec.Meta(ge=1, le=99)] | None = None
    penalty_per_violation: Annotated[int, msgspec.Meta(ge=0, le=99)] | None = None

    def __post_init__(self) -> None:
        check_value(self.options, "$.options")
        self.players = [check_name(name, f"$.players[{index}]") for index, name in enumerate(self.players)]

    def event(self, *, t_us: int, source: str, clock: str | None = None) -> GameStarted:
        """The ``game_started`` event this request asks for (``turns_each`` and
        ``penalty_per_violation`` go into its options)."""
        options = dict(self.options)
        for key in ("turns_each", "penalty_per_violation"):
            if getattr(self, key) is not None:
                options[key] = getattr(self, key)
        return GameStarted.from_checked(t_us=t_us, source=source, clock=clock, players=list(self.players),
                                        game=self.game, options=options)


class TurnStarted(Event, tag="turn_started"):
    player: Text | None = None


class RollSettled(Event, tag="roll_settled"):
    dice: Annotated[list[Text], msgspec.Meta(max_length=1024, description="die faces")]
    started_us: Whole | None = None
    reading: Object | None = None
    _objects: ClassVar[tuple[str, ...]] = ("reading",)


class Toss(Event, tag="toss"):
    player: Text


class CopyChosen(Event, tag="copy_chosen"):
    player: Text
    confirmed: bool = True


class CardRevealed(Event, tag="card_revealed"):
    card: Text
    confidence: Number | None = None


class Correction(Event, tag="correction"):
    what: CorrectionKind
    index: Whole | None = None
    other: Whole | None = None
    face: Text | None = None
    faces: TextList | None = None
    card: Text | None = None
    player: Text | None = None
    remove: bool | None = None


class Violation(Event, tag="violation"):
    kind: Text
    player: Text | None = None
    detail: Text | None = None


class TurnScored(Event, tag="turn_scored"):
    turn: Whole | None = None
    score: Object | None = None
    totals: Object | None = None
    _objects: ClassVar[tuple[str, ...]] = ("score", "totals")


class GameEnded(Event, tag="game_ended"):
    reason: Text | None = None
    winner: Text | None = None
    totals: Object | None = None
    outcome: Object | None = None
    _objects: ClassVar[tuple[str, ...]] = ("totals", "outcome")


#: the engine's own events, by type, in the order of a game
ENGINE_EVENTS: dict[str, type[Event]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (GameStarted, TurnStarted, RollSettled, Toss, CopyChosen, CardRevealed, Correction, Violation,
                TurnScored, GameEnded)
}
#: the engine's own event types, in the order of a game
EVENT_TYPES = tuple(ENGINE_EVENTS)

_known: tuple[int, dict[str, type[Event]], Any] = (-1, ENGINE_EVENTS, None)


def event_types() -> dict[str, type[Event]]:
    """The engine's events and every registered game's (in menu order), by type."""
    return _schema()[0]


def all_specs() -> dict[str, type[Event]]:
    """Former name of :func:`event_types`."""
    return event_types()


def _schema() -> tuple[dict[str, type[Event]], Any]:
    global _known
    generation = registry.generation()
    if _known[0] != generation:
        types = dict(ENGINE_EVENTS)
        for game in registry.games():
            types.update({kind: cls for kind, cls in game.event_specs().items()
                          if kind not in types and isinstance(cls, type) and issubclass(cls, Event)})
        union = Union[tuple(types.values())]  # type: ignore[valid-type]
        _known = (generation, types, union)
    return _known[1], _known[2]


def event_union() -> Any:
    """The tagged union of every known event type (for msgspec decoders and the JSON Schema)."""
    return _schema()[1]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every event, generated from the types (``GET /api/schema``)."""
    return msgspec.json.schema(event_union())


def _where(kind: str, exc: Exception) -> str:
    """msgspec's ``Expected `int`, got `str` - at `$.index``` as ``correction.index: expected `int`, got `str```."""
    text = str(exc).replace(f" matching regex {_TEXT!r}", " (text without NUL or lone surrogates)")
    missing = re.fullmatch(r"Object missing required field `(\w+)`", text)
    if missing:
        return f"a {kind} event needs {missing.group(1)!r}"
    text, _, path = text.partition(" - at `$")
    if path:
        return f"{kind}{path.rstrip('`')}: {text[:1].lower()}{text[1:]}"
    return f"a {kind} event: {text[:1].lower()}{text[1:]}"


def decode_event(data: Any) -> Event:
    """The one check of an event from outside (a decoded JSON object): its typed value, or
    :class:`EventFormatError` naming the field. A value that is an :class:`Event` already is returned as it is."""
    if isinstance(data, Event):
        return data
    if not isinstance(data, Mapping):
        raise EventFormatError(f"an event must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    types = event_types()
    cls = types.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventFormatError(f"unknown event type {repr(kind)[:60]} (types: {', '.join(types)})")
    try:
        return msgspec.convert(data, cls)
    except (msgspec.ValidationError, BadInput) as exc:
        raise EventFormatError(_where(kind, exc)) from None


def decode_new_game(body: Any) -> NewGame:
    """The one check of a ``POST /api/games`` body (decoded JSON): its :class:`NewGame`, or
    :class:`rig.boundary.BadInput` naming the field."""
    try:
        return msgspec.convert(body, NewGame)
    except msgspec.ValidationError as exc:
        text = str(exc).replace(f" matching regex {_TEXT!r}", " (text without NUL or lone surrogates)")
        text, _, path = text.partition(" - at `")
        text = f"{text[:1].lower()}{text[1:]}"
        raise BadInput(f"{path.rstrip('`')}: {text}" if path else text) from None


def decode_event_json(raw: bytes | str) -> Event:
    """The one check of an event given as JSON text (a logged row, a league message's event)."""
    decoder = _decoder()
    try:
        return decoder.decode(raw)
    except (msgspec.DecodeError, BadInput, RecursionError, ValueError) as exc:
        raise EventFormatError(f"an event: {exc}") from None


_decoders: tuple[int, Any] = (-1, None)


def _decoder() -> msgspec.json.Decoder:
    global _decoders
    generation = registry.generation()
    if _decoders[0] != generation:
        _decoders = (generation, msgspec.json.Decoder(event_union()))
    return _decoders[1]


def parse_event(data: Any) -> dict[str, Any]:
    """An event checked (:func:`decode_event`) as a plain dict with defaults filled in.

    >>> parse_event({"type": "toss", "t_us": 1500, "source": "gpio", "player": "Ben"})
    {'type': 'toss', 't_us': 1500, 'source': 'gpio', 'player': 'Ben'}
    """
    return decode_event(data).to_dict()


def make_event(kind: str, t_us: int, source: str, **payload: Any) -> dict[str, Any]:
    """Build and check an event.

    >>> make_event("card_revealed", 12, "camera", card="pink")
    {'type': 'card_revealed', 't_us': 12, 'source': 'camera', 'card': 'pink'}
    """
    return parse_event({"type": kind, "t_us": t_us, "source": source, **payload})

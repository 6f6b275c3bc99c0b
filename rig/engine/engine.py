"""The engine: the event log plus the fold of the current game.

:meth:`Engine.submit` checks an event against the current state, appends it (and any
events it implies, e.g. the ``turn_scored`` before the next roller's ``turn_started``) to
the log in one durable transaction, and only then makes the new state current. A refused
event is logged as refused with its reason and leaves the state as it was. On start the
engine replays the log and carries on exactly where it was.

>>> from rig.engine.log import EventLog
>>> engine = Engine(EventLog(":memory:"))
>>> state = engine.submit({"type": "game_started", "t_us": 0, "source": "doc", "players": ["Ada", "Ben", "Cleo", "Dev"]})
>>> state["game"]["whose_turn"], state["turn"]["phase"]
('Ada', 'waiting')
>>> engine.submit({"type": "card_revealed", "t_us": 5, "source": "doc", "card": "pink"})
Traceback (most recent call last):
...
rig.engine.errors.EventRefused: a card reveal before Ada's turn has started
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any, Callable, Mapping

from rig.boundary import sanitize
from rig.errors import RigError
from rig.engine.errors import EventFormatError, EventRefused
from rig.engine.events import Event, decode_event
from rig.engine.extra import ExtraGame
from rig import registry
from rig.engine.game import apply, phase, start_game
from rig.engine.log import EventLog, LoggedEvent, Pending
from rig.engine.view import state_view

#: how many refused events the state shows as notices
MAX_NOTICES = 20

Batch = list[tuple[int, dict[str, Any]]]

log = logging.getLogger(__name__)


def fold(batches: list[Batch], skipped: list[tuple[int, str]] | None = None) -> ExtraGame | None:
    """The game after its effective batches of ``(seq, event)`` (undone batches left out).

    A logged event that cannot be applied (a damaged or tampered log) is skipped, never fatal:
    ``(seq, reason)`` goes to ``skipped`` and the event is taken out of its batch.
    """
    game: ExtraGame | None = None
    for batch in batches:
        for entry in list(batch):
            seq, event = entry
            try:
                game = start_game(event, seq) if event.get("type") == "game_started" else apply(game, event, replay=True)
            except Exception as exc:  # noqa: BLE001 - whatever a tampered event breaks, the rig must start
                if not isinstance(exc, RigError):  # one line in the journal (the traceback only at debug level)
                    log.warning("logged event #%s cannot be applied (a bug or a tampered log: %s: %s): skipped",
                                seq, type(exc).__name__, sanitize(str(exc))[:200])
                    log.debug("logged event #%s: the traceback", seq, exc_info=exc)
                if skipped is not None:
                    skipped.append((seq, sanitize(str(exc))[:200] or type(exc).__name__))
                batch.remove(entry)
    return game


def _skipped_notice(seq: int, reason: str, where: str) -> dict[str, Any]:
    return {"seq": seq, "type": "skipped", "source": "log", "player": None, "t_us": None,
            "reason": f"logged event #{seq} in {where} cannot be applied ({reason}): skipped"}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def summary(game: ExtraGame, *, started_at: str | None, ended_at: str | None) -> dict[str, Any]:
    """A game's row in the ``games`` table (``last_seq`` is added by the log)."""
    ended = game.ended
    return {"id": game.id, "game": game.game, "status": game.status(), "players": list(game.players),
            "totals": game.totals(), "winner": ended.get("winner") if ended else None,
            "turns": game.turns_played(), "started_at": started_at, "ended_at": ended_at if ended else None}


def _notice(logged: LoggedEvent) -> dict[str, Any]:
    """A refused event as the state shows it (its values were made safe where it came in: a typed
    event by its decoder, anything else by :func:`rig.boundary.sanitize` in :meth:`Engine._refuse` or
    when the log is read back)."""
    event = logged.event if isinstance(logged.event, Mapping) else {}
    return {"seq": logged.seq, "type": event.get("type"), "source": event.get("source"),
            "player": event.get("player"), "t_us": event.get("t_us"), "reason": logged.reason}


class Engine:
    """The current game as a fold over ``log`` (not thread-safe: see :class:`rig.engine.service.EngineService`)."""

    def __init__(self, log: EventLog, *, admit: Callable[[Mapping[str, Any]], None] | None = None) -> None:
        self.log = log
        #: checks a new game against the rig before it starts (raises EventRefused: e.g. a seat with no input)
        self.admit = admit
        self.game: ExtraGame | None = None
        self._batches: list[Batch] = []
        self._started_at: str | None = None
        self.version = 0
        self.notices: list[dict[str, Any]] = []
        self._state: dict[str, Any] | None = None
        self._replay()

    def __repr__(self) -> str:
        game = self.game
        number = game.turn_number if game else None
        where = "no game" if game is None else f"game {game.id}, turn {number} ({phase(game)})"
        return f"<Engine {where}, version {self.version}>"

    # -- start-up ---------------------------------------------------------------------

    def _replay(self) -> None:
        read = self._reconcile_summaries()
        game_ids = self.log.game_ids()
        skipped: list[tuple[int, str]] = []
        if game_ids:
            game_id = game_ids[-1]
            logged = read.get(game_id) or self.log.events(game_id=game_id, status="applied", since=game_id - 1)
            self._batches = self._effective(logged, skipped)
            self.game = fold(self._batches, skipped)
            self._batches = [batch for batch in self._batches if batch]
            self._started_at = logged[0].logged_at if logged else None
        self.version = self.log.last_seq()
        since = (game_ids[-1] - 1) if game_ids else max(0, self.version - 10 * MAX_NOTICES)
        self.notices = [_notice(e) for e in self.log.events(since=since, status="refused")][-MAX_NOTICES:]
        self.skipped = [_skipped_notice(seq, reason, str(self.log.path)) for seq, reason in skipped]
        for notice in self.skipped:
            log.warning("%s", notice["reason"])
        self.notices = (self.skipped + self.notices)[-MAX_NOTICES:]

    @staticmethod
    def _effective(logged: list[LoggedEvent], skipped: list[tuple[int, str]] | None = None) -> list[Batch]:
        batches: list[Batch] = []
        for entry in logged:
            event = dict(entry.event)
            if entry.damage or not isinstance(event.get("type"), str):
                if skipped is not None:
                    skipped.append((entry.seq, entry.damage or "it has no type"))
                continue
            if event["type"] == "correction" and event.get("what") == "undo":
                if batches:
                    batches.pop()
                elif skipped is not None:
                    skipped.append((entry.seq, "an undo with nothing before it"))
            elif batches and batches[-1][0][0] == entry.batch:
                batches[-1].append((entry.seq, event))
            else:
                batches.append([(entry.seq, event)])  # a batch's id is the seq of its first event
        return batches

    def _reconcile_summaries(self) -> dict[int, list[LoggedEvent]]:
        """Rebuild game summaries that are missing or behind the log (e.g. after a migration); returns
        the last game's rows if it read them, so the replay does not read (and decode) them again."""
        read: dict[int, list[LoggedEvent]] = {}
        game_ids = self.log.game_ids()
        for game_id in game_ids:
            last = self.log.game_last_seq(game_id)
            saved = self.log.game_summary_seq(game_id)
            if saved is not None and saved >= last:
                continue
            logged = self.log.events(game_id=game_id, status="applied", since=game_id - 1)
            if game_id == game_ids[-1]:
                read[game_id] = logged
            game = fold(self._effective(logged), [])
            if game is None:
                continue
            row = summary(game, started_at=logged[0].logged_at, ended_at=logged[-1].logged_at)
            row["last_seq"] = last
            self.log.save_game(row)
        return read

    # -- state ------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The whole state (the body of ``GET /api/state``); a fresh dict the caller may keep."""
        if self._state is None:
            self._state = state_view(self.game, version=self.version, notices=list(self.notices))
            game = self._state.get("game")
            if isinstance(game, dict) and game.get("id") is not None:
                # the game's number (1 = the first game ever), as the history and the exports name it
                ids = self.log.game_ids()
                game["number"] = ids.index(game["id"]) + 1 if game["id"] in ids else len(ids) + 1
        return _json_copy(self._state)

    # -- submitting -------------------------------------------------------------------

    def submit(self, raw: Event | Mapping[str, Any], *, request: str | None = None) -> dict[str, Any]:
        """Check, log and apply one event (plus what it implies); return the new state.

        ``raw``: a typed :class:`rig.engine.events.Event` (passed on as it is), or a JSON object from
        outside, decoded here once (:func:`rig.engine.events.decode_event`). Raises
        :class:`EventRefused` (logged as refused) when it makes no sense now. ``request`` — an
        idempotency key: a key already logged is answered as the first time (the state, or the
        same refusal) and nothing is logged or applied again.
        """
        if request is not None:
            done = self.log.request(request)
            if done is not None:
                _, outcome, reason = done
                if outcome == "invalid":
                    raise EventFormatError(reason or "refused")
                if outcome == "refused":
                    raise EventRefused(reason or "refused")
                return self.state()
        self.submit_quietly(raw, request=request)
        return self.state()

    def submit_quietly(self, raw: Event | Mapping[str, Any], *, request: str | None = None) -> int:
        """As :meth:`submit` without building the state; returns the new version."""
        if isinstance(raw, Event):
            typed = raw
        else:
            try:
                typed = decode_event(raw)
            except EventFormatError as exc:
                self._refuse(raw, exc, request)
                raise
        event = typed.to_dict()
        try:
            if event["type"] == "correction" and event["what"] == "undo":
                self._undo(event, request)
            else:
                self._submit(event, request)
        except EventRefused as exc:
            self._refuse(typed, exc, request)
            raise
        return self.version

    def _refuse(self, event: Any, exc: EventRefused, request: str | None = None) -> None:
        """Log a refused event with the reason. A typed event is safe to store and show as it is;
        anything else (it failed its decoding: it may hold anything) is made safe first."""
        reason = exc.reason
        if isinstance(event, Event):
            event = event.to_dict()
        else:
            event = sanitize(dict(event)) if isinstance(event, Mapping) else {"type": None, "body": sanitize(repr(event))}
            reason = sanitize(reason)
        game_id = self.game.id if self.game else None
        outcome = "invalid" if isinstance(exc, EventFormatError) else "refused"
        seq = self.log.append(event, game_id=game_id, status="refused", reason=reason,
                              request=(request, outcome) if request else None)
        self.notices = (self.notices + [_notice(LoggedEvent(seq, game_id, seq, "refused", reason, "",
                                                            event))])[-MAX_NOTICES:]
        self.version = seq
        self._state = None

    def _plan(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """The events to log for ``event``: what it implies first, then itself."""
        game = self.game
        kind = event["type"]

        def derived(kind_: str, **payload: Any) -> dict[str, Any]:
            out = {"type": kind_, "t_us": event["t_us"], "source": "engine", **payload}
            if "clock" in event:
                out["clock"] = event["clock"]
            return out

        if game is None or game.is_over:
            return [event]
        if kind == "game_started":
            return [derived("game_ended", reason="abandoned"), event]
        return game.plan(event, derived)

    def _submit(self, event: dict[str, Any], request: str | None = None) -> None:
        game = self.game
        pending: list[Pending] = []
        abandoned: ExtraGame | None = None  # the open game a new game_started ended
        queue = self._plan(event)
        new_game_index = None
        while queue:
            item = queue.pop(0)
            kind = item["type"]
            if kind == "game_started":
                if game is not None and not game.is_over:
                    raise EventRefused("the current game must end before a new one starts")
                if self.admit is not None:
                    self.admit(item)
                if game is not None and self.game is not None and not self.game.is_over:
                    abandoned = game
                game = start_game(item, 0)
                new_game_index = len(pending)
                pending.append(Pending(item, new_game=True))
                continue
            if game is not None:
                item = game.prepare(item)
            before = game
            game = apply(game, item)
            item, follow = game.after(item, before)
            queue[0:0] = follow
            pending.append(Pending(item, game_id=game.id))
        now = _now()
        summaries = []
        if abandoned is not None:
            summaries.append(summary(abandoned, started_at=self._started_at, ended_at=now))
        started_at = now if new_game_index is not None else self._started_at
        if game is not None:
            row = summary(game, started_at=started_at, ended_at=now)
            if new_game_index is not None:
                row["id"] = None
            summaries.append(row)
        seqs = self.log.append_batch(pending, summaries=summaries,
                                     request=(request, "applied") if request else None)
        events = [dict(p.event) for p in pending]
        if new_game_index is not None:
            game.id = seqs[new_game_index]
            self._batches = [list(zip(seqs, events))[new_game_index:]]
            self._started_at = started_at
            self.notices = []
        else:
            self._batches.append(list(zip(seqs, events)))
        self.game = game
        self.version = seqs[-1]
        self._state = None

    def _undo(self, event: dict[str, Any], request: str | None = None) -> None:
        if self.game is None:
            raise EventRefused("nothing to undo: no game in progress")
        if len(self._batches) <= 1:
            raise EventRefused("nothing to undo: the game has just started")
        batches = self._batches[:-1]
        game = fold(batches)
        assert game is not None
        ended_at = _now()
        row = summary(game, started_at=self._started_at, ended_at=ended_at)
        seqs = self.log.append_batch([Pending(event, game_id=game.id)], summaries=[row],
                                     request=(request, "applied") if request else None)
        self._batches = batches
        self.game = game
        self.version = seqs[-1]
        self._state = None

    # -- history ----------------------------------------------------------------------

    def history(self) -> dict[str, Any]:
        """Past games (newest first) and per-player totals over all games."""
        return history_from(self.log)


def history_from(log: EventLog) -> dict[str, Any]:
    """``{"games": [...], "players": [...]}`` from the log's game summaries.

    Each game has its ``number`` (1 = the first game ever; the one numbering the page and
    ``rig history`` show, ``id`` is the log's). A player has one row per kind of game
    (``game``): one game's points and another's are not added together; a game abandoned
    before anything was played (no turn booked, no point scored) counts for nobody.
    """
    games = log.games()
    for index, game in enumerate(games):
        game["number"] = len(games) - index  # 1 = the first game ever
    players: dict[tuple[str, str], dict[str, Any]] = {}
    for game in games:
        if game["status"] == "abandoned" and not game.get("turns") and not any(game["totals"].values()):
            continue  # started (by hand, or by the rig itself) and never played: nobody's game
        for name in game["players"]:
            kind = game.get("game") or registry.DEFAULT
            row = players.setdefault((kind, name), {"game": kind, "name": name, "games": 0, "finished": 0,
                                                    "wins": 0, "points": 0, "best": 0})
            row["games"] += 1
            points = int(game["totals"].get(name, 0))
            row["points"] += points
            row["best"] = max(row["best"], points)
            if game["status"] == "over":
                row["finished"] += 1
                row["wins"] += game["winner"] == name
    order = {name: k for k, name in enumerate(registry.names())}
    ranking = sorted(players.values(), key=lambda r: (order.get(r["game"], len(order)), r["game"], -r["wins"],
                                                      -r["points"], r["name"]))
    return {"games": games, "players": ranking}


def _json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    return value

"""The engine as a thread-safe service: the web app and the input threads all call this.

>>> service = EngineService.in_memory()
>>> state = service.submit({"type": "game_started", "players": ["Ada", "Ben", "Cleo"]})
>>> state["game"]["players"], state["game"]["turns_each"]
(['Ada', 'Ben', 'Cleo'], 3)
>>> [r["event"]["type"] for r in service.press("Ada", 1_000)]
['turn_started']
>>> service.close()
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping

from rig import registry
from rig.engine.engine import Engine
from rig.boundary import check_value
from rig.engine.errors import EventRefused, LogError
from rig.engine.events import Event, GameStarted
from rig.engine.inputs import HOLD_CONFIRM_US, events_for_press, events_for_release
from rig.engine.log import EventLog
from rig.engine.paths import database_path


def boot_id() -> str:
    """This boot's id (the monotonic clock's epoch): µs times compare only within one boot."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip() or "unknown"
    except OSError:
        return "unknown"


def monotonic_us() -> int:
    """Now on the monotonic clock the toss inputs use, in µs."""
    return time.monotonic_ns() // 1000


class Subscription:
    """A change feed for one SSE client: ``await sub.next_state(timeout)`` returns the state after a change."""

    def __init__(self, service: EngineService, loop: asyncio.AbstractEventLoop) -> None:
        self._service = service
        self._loop = loop
        self._changed = asyncio.Event()
        #: the service is shutting down: the stream ends after the state it is sending (no more changes)
        self.ended = False

    def _end(self) -> None:
        self.ended = True
        self._notify()

    def _notify(self) -> None:
        try:
            self._loop.call_soon_threadsafe(self._changed.set)
        except RuntimeError:  # the client's loop is gone
            self._service._unsubscribe(self)

    async def next_state(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The state after the next change, or None after ``timeout`` seconds without one (or once :attr:`ended`)."""
        if self.ended:
            return None
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except asyncio.TimeoutError:
            return None
        self._changed.clear()
        return None if self.ended else self._service.state()

    def close(self) -> None:
        self._service._unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class EngineService:
    """Thread-safe :class:`Engine` over an :class:`EventLog`; notifies subscribers after every change.

    Events submitted without ``t_us``/``source``/``clock`` get now (monotonic µs), ``default_source``
    and this boot's id. ``hold_us``: how long the roller holds their input to confirm. ``admit``: checks a
    ``game_started`` against the rig (raises :class:`EventRefused`, logged), e.g. that every seat has an input.
    """

    def __init__(self, log: EventLog, *, hold_us: int = HOLD_CONFIRM_US, clock: str | None = None,
                 now_us: Callable[[], int] = monotonic_us,
                 admit: Callable[[Mapping[str, Any]], None] | None = None,
                 game_defaults: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._subscribers: list[Subscription] = []
        self.log = log
        self.engine = Engine(log, admit=admit)
        self.hold_us = hold_us
        self.clock = clock or boot_id()
        self._now_us = now_us
        #: options a new game of that kind gets unless the request names them (the rig's config:
        #: ``{"<game>": {"tie_window_us": 40}}``), so they are in the logged ``game_started`` event
        self.game_defaults = {name: check_value(dict(options), f"game_defaults.{name}")
                              for name, options in (game_defaults or {}).items()}
        #: why the log cannot be written now (disk full, storage failure), or None
        self.outage: str | None = None
        #: inputs (presses, releases, rolls) that came during an outage, in order, written when it ends
        self.backlog: list[Event | dict[str, Any]] = []
        self._retry: threading.Timer | None = None
        self.retry_s = 2.0
        self._streams_ended = False

    @classmethod
    def open(cls, data_dir: str | os.PathLike[str], **options: Any) -> EngineService:
        """The service over the event log in ``data_dir`` (created if missing; refuses foreign files)."""
        return cls(EventLog(database_path(data_dir)), **options)

    @classmethod
    def in_memory(cls, **options: Any) -> EngineService:
        """A service over a throw-away in-memory log (tests, dry runs)."""
        return cls(EventLog(":memory:"), **options)

    def __repr__(self) -> str:
        return f"<EngineService {self.log!r} {self.engine!r}>"

    def close(self) -> None:
        with self._lock:
            if self._retry is not None:
                self._retry.cancel()
            self.log.close()

    def __enter__(self) -> EngineService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading ----------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        with self._lock:
            state = self.engine.state()
            if self.outage is not None:  # the display shows it as a notice (GET /api/rig)
                state["outage"] = {"reason": self.outage, "waiting": len(self.backlog)}
            return state

    @property
    def version(self) -> int:
        with self._lock:
            return self.engine.version

    def history(self) -> dict[str, Any]:
        with self._lock:
            return self.engine.history()

    # -- writing ----------------------------------------------------------------------

    def now_us(self) -> int:
        """Now on the clock events are stamped with (monotonic µs), for a door that builds a typed event."""
        return self._now_us()

    def _complete(self, event: Event | Mapping[str, Any], source: str) -> Event | dict[str, Any]:
        """A raw event with ``t_us``/``source``/``clock`` and a new game's configured options filled in
        where it has none; a typed event (its door stamped ``t_us`` and ``source``) gets the same
        without a second check (:meth:`rig.engine.events.Event.stamped`)."""
        if isinstance(event, Event):
            changes: dict[str, Any] = {} if event.clock is not None else {"clock": self.clock}
            defaults = self.game_defaults.get(event.game) if isinstance(event, GameStarted) else None
            if defaults:
                changes["options"] = {**defaults, **(event.options or {})}
            return event.stamped(**changes) if changes else event
        event = dict(event) if isinstance(event, Mapping) else event
        if isinstance(event, dict):
            event.setdefault("t_us", self._now_us())
            event.setdefault("source", source)
            event.setdefault("clock", self.clock)
            kind = event.get("game", registry.DEFAULT)
            defaults = (self.game_defaults.get(kind) if event.get("type") == "game_started" and isinstance(kind, str)
                        else None)
            if defaults and isinstance(event.get("options", {}), Mapping):
                event["options"] = {**defaults, **(event.get("options") or {})}
        return event

    def submit(self, event: Event | Mapping[str, Any], *, default_source: str = "api", keep: bool = False,
               request: str | None = None) -> dict[str, Any]:
        """Log and apply one event; returns the new state. Raises :class:`EventRefused` (logged) with the reason.

        ``event``: a raw JSON object (decoded once by the engine, :func:`rig.engine.events.decode_event`)
        or a typed :class:`rig.engine.events.Event` its door decoded already (passed on, never checked again).

        When the log cannot be written (:class:`LogError`, e.g. the disk is full) nothing is applied:
        the error is raised (a request answers 503), or with ``keep`` (the rig's own inputs: a roll
        the camera saw) the event waits in :attr:`backlog` and is written, in order, when the log works again.
        ``request`` is an idempotency key (see :meth:`rig.engine.engine.Engine.submit`).
        """
        with self._lock:
            event = self._complete(event, default_source)
            try:
                self._flush()
                return self.engine.submit(event, request=request)
            except LogError as exc:
                self.outage = str(exc)
                if not keep:
                    raise
                self._hold([event], exc)
                return self.state()
            finally:
                self._notify()

    def press(self, player: str, t_us: int | None = None, *, source: str = "gpio") -> list[dict[str, Any]]:
        """A press/beam break of ``player``'s input: a toss, the roller starting, or nothing until release.

        Returns ``[{"event", "ok", "reason"}]`` for the events submitted (refusals are logged, not raised).
        """
        with self._lock:
            t_us = self._now_us() if t_us is None else t_us
            return self._submit_all(events_for_press(self.engine.game, player, t_us, source, self.clock))

    def release(self, player: str, t_us: int | None = None, held_us: int = 0, *,
                source: str = "gpio") -> list[dict[str, Any]]:
        """A release after ``held_us``: the roller's copy selector (short = next player, hold = confirm)."""
        with self._lock:
            t_us = self._now_us() if t_us is None else t_us
            events = events_for_release(self.engine.game, player, t_us, held_us, source, self.clock,
                                        hold_us=self.hold_us)
            return self._submit_all(events)

    def _submit_all(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        results = []
        try:
            for index, event in enumerate(events):
                try:
                    self._flush()
                    self.engine.submit_quietly(event)
                    results.append({"event": event, "ok": True, "reason": None})
                except EventRefused as exc:
                    results.append({"event": event, "ok": False, "reason": exc.reason})
                except LogError as exc:
                    self._hold(events[index:], exc)
                    results += [{"event": e, "ok": False, "reason": f"kept until the log works: {exc}"}
                                for e in events[index:]]
                    break
        finally:
            if events:
                self._notify()
        return results

    # -- storage outages -------------------------------------------------------------------

    def _hold(self, events: list[Event | dict[str, Any]], exc: LogError) -> None:
        """Keep inputs the log could not take; retry every :attr:`retry_s` seconds."""
        self.backlog.extend(events)
        self.outage = str(exc)
        if self._retry is None:
            self._retry = threading.Timer(self.retry_s, self._retry_backlog)
            self._retry.daemon = True
            self._retry.start()

    def _flush(self) -> None:
        """Write the backlog (raises :class:`LogError` if the log still cannot be written)."""
        while self.backlog:
            event = self.backlog[0]
            try:
                self.engine.submit_quietly(event)
            except EventRefused:
                pass  # logged as refused, like any other input
            self.backlog.pop(0)
        self.outage = None

    def _retry_backlog(self) -> None:
        with self._lock:
            self._retry = None
            if not self.backlog and self.outage is None:
                return
            try:
                self._flush()
            except LogError as exc:
                self.outage = str(exc)
                self._retry = threading.Timer(self.retry_s, self._retry_backlog)
                self._retry.daemon = True
                self._retry.start()
                return
            except Exception:  # noqa: BLE001 - a closed log at shutdown
                return
            self._notify()

    # -- change notification -------------------------------------------------------------

    def _notify(self) -> None:
        self._changed.notify_all()
        for subscriber in list(self._subscribers):
            subscriber._notify()

    def subscribe(self) -> Subscription:
        """A change feed for the running asyncio loop (call it from a coroutine)."""
        subscription = Subscription(self, asyncio.get_running_loop())
        with self._lock:
            self._subscribers.append(subscription)
            if self._streams_ended:
                subscription.ended = True
        return subscription

    def end_streams(self) -> None:
        """Shutting down: every change feed ends now (and new ones at once), so open event streams
        (the kiosk always holds one) close before the server waits for its connections; safe to call
        from a signal handler or any thread."""
        self._streams_ended = True
        for subscriber in list(self._subscribers):
            subscriber._end()

    def _unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    def wait_for_change(self, after_version: int, timeout: float | None = None) -> bool:
        """Block until the state's version passes ``after_version`` (True) or ``timeout`` runs out (False)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.engine.version > after_version, timeout)

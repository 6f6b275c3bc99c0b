"""Toss inputs: one arcade button or IR break-beam per player, timed by the kernel's edge tick.

Who tossed first decides who scores, so a toss is dated by the edge timestamp the pin
factory hands to ``Pin.when_changed(ticks, state)`` (lgpio: the kernel's ``CLOCK_MONOTONIC``
nanoseconds / 1e9), never by when a Python callback got to run. Both kinds of input are
digital, active low with the internal pull-up: a pressed button or a broken beam pulls
the pin to ground.

- :class:`TossButton` and :class:`BreakBeam` are gpiozero devices that keep that tick.
- :class:`Lockout` is the debounce rule, a pure state machine: the first edge wins, later
  edges within the lockout are dropped and counted.
- :class:`TossInputs` owns one device per player and delivers :class:`TossEvent`,
  :class:`ReleaseEvent` and :class:`InputFault` to your callbacks, in edge-time order, from
  one thread of its own.

With gpiozero's mock pins (``GPIOZERO_PIN_FACTORY=mock`` or a ``MockFactory``) the same stack
runs anywhere; :meth:`TossInputs.simulate_press` drives a mock pin::

    >>> from gpiozero.pins.mock import MockFactory
    >>> from rig.config import PlayerInput
    >>> tosses = []
    >>> players = [PlayerInput("Ada", "GPIO17"), PlayerInput("Ben", "GPIO27", "beam")]
    >>> with TossInputs(players, pin_factory=MockFactory(), on_toss=tosses.append) as inputs:
    ...     inputs.simulate_press("Ben", hold_s=0)
    ...     inputs.simulate_press("Ada", hold_s=0)
    ...     _ = inputs.flush()
    >>> [(t.player, t.source) for t in tosses]
    [('Ben', 'sim:beam:GPIO27'), ('Ada', 'sim:button:GPIO17')]
    >>> tosses[0].t_us < tosses[1].t_us
    True
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from queue import Empty, SimpleQueue
from typing import Any

from gpiozero.exc import GPIOPinInUse, PinInvalidPin
from gpiozero.pins.mock import MockFactory

from rig.config import default_min_press_ms
from rig.errors import ConfigError, HardwareError
from rig.hardware.toss_records import (  # noqa: F401 - moved (issue 29); the old import path works
    KINDS, ticks_to_us, TossEvent, ReleaseEvent, InputFault, Lockout,
)
from rig.hardware.toss_devices import (  # noqa: F401 - moved (issue 29); the old import path works
    _EdgeTicks, TossButton, BreakBeam, _DEVICE_CLASSES, NoGPIOError, resolve_pin_factory,
    lgpio_workdir_problem, describe_factory, _NOT_SECONDS, check_ticks, check_min_press, _pin_errors,
    _canonical_pin, _check_players,
)

__all__ = [
    "KINDS",
    "BreakBeam",
    "NoGPIOError",
    "InputFault",
    "InputStats",
    "Lockout",
    "ReleaseEvent",
    "TossButton",
    "TossEvent",
    "TossInputs",
    "check_ticks",
    "describe_factory",
    "resolve_pin_factory",
    "ticks_to_us",
]

log = logging.getLogger(__name__)
_clock = time.monotonic_ns  # when an edge or a callback reaches the dispatcher (tests replace it)


@dataclass(frozen=True)
class InputStats:
    """Counts for one player's input since :class:`TossInputs` opened it."""

    player: str
    pin: str
    kind: str
    tosses: int
    dropped: int
    faults: int
    stuck: bool
    glitches: int = 0  # presses shorter than the minimum press time: not counted as tosses


class _Input:
    """Dispatcher-thread state of one player's input."""

    def __init__(self, spec, device, lockout_us: int, source: str, active: bool, min_press_us: int = 0):
        self.name: str = spec.name
        self.kind: str = spec.kind
        self.device = device
        self.pin = str(device.pin)
        self.source = source
        self.lockout = Lockout(lockout_us, active=active, min_press_us=min_press_us)
        self.confirm_due: int | None = None  # monotonic ns: decide a pending press (glitch filter)
        self.pending_arrived: int = 0  # monotonic ns the pending press's first edge reached us
        self.stuck = False
        self.press_us: int | None = None
        self.stuck_due: int | None = None  # monotonic ns
        self.settle_due: int | None = None  # monotonic ns
        self.last_edge: tuple[int, int] | None = None  # (edge µs, arrival monotonic ns) of the last edge
        self.tosses = 0
        self.faults = 0


_EDGE, _FLUSH, _STOP, _START = "edge", "flush", "stop", "start"


class TossInputs:
    """One toss input per player, delivering events in edge-time order from one thread.

    *players* is a sequence of objects with ``.name``, ``.pin`` (a gpiozero pin name such as
    ``"GPIO17"``) and ``.kind`` (``"button"`` or ``"beam"``), e.g. ``RigConfig.players``.

    - A toss is the first edge of a press (:class:`TossEvent`); edges within *lockout_ms*
      after an accepted edge are bounce, dropped and counted (:meth:`stats`).
    - An input active at start, or for longer than *stuck_after_s*, is reported as an
      :class:`InputFault` ``"stuck"`` and gives no tosses until it is released.
    - Events wait *order_window_ms* after they arrive, so that an edge of another input
      that arrives a little later but happened earlier is delivered first.
    - The glitch filter: a press counts only if the input is still active *min_press_ms*
      after its first edge (and is dated by that edge); shorter pulses are counted as
      glitches (:meth:`stats`). The check is made when the first edge's order window is over,
      so it adds no delay; *min_press_ms* must be shorter than *order_window_ms* (the rest
      is the time a release edge may take to reach us). ``None``: 3 ms, or 60% of the order
      window if that is shorter; 0 turns the filter off.

    Callbacks run on the object's own thread, one at a time, never on gpiozero's. A pin that
    is not a GPIO or already in use raises :class:`~rig.errors.HardwareError` naming it.
    """

    def __init__(
        self,
        players: Iterable[Any],
        *,
        pin_factory=None,
        lockout_ms: float = 30,
        stuck_after_s: float = 10,
        order_window_ms: float = 5,
        min_press_ms: float | None = None,
        on_toss: Callable[[TossEvent], Any] | None = None,
        on_release: Callable[[ReleaseEvent], Any] | None = None,
        on_fault: Callable[[InputFault], Any] | None = None,
    ):
        players = list(players)
        _check_players(players)
        if not lockout_ms >= 0:
            raise ConfigError(f"tosses.lockout_ms must be 0 or more, not {lockout_ms}")
        if not stuck_after_s > 0:
            raise ConfigError(f"tosses.stuck_after_s must be more than 0, not {stuck_after_s}")
        if not order_window_ms >= 0:
            raise ConfigError(f"tosses.order_window_ms must be 0 or more, not {order_window_ms}")
        min_press_ms = default_min_press_ms(order_window_ms) if min_press_ms is None else min_press_ms
        check_min_press(min_press_ms, order_window_ms)
        self.min_press_us = round(min_press_ms * 1000)
        self.lockout_us = round(lockout_ms * 1000)
        self.stuck_after_us = round(stuck_after_s * 1_000_000)
        self.order_window_ns = round(order_window_ms * 1_000_000)
        self.on_toss, self.on_release, self.on_fault = on_toss, on_release, on_fault
        self.pin_factory = check_ticks(resolve_pin_factory(pin_factory))
        self.simulated = isinstance(self.pin_factory, MockFactory)
        self._queue: SimpleQueue = SimpleQueue()
        self._held: list[tuple[int, int, int, object]] = []  # (t_us, seq, due_ns, event)
        self._seq = 0
        self._stats_lock = threading.Lock()
        self._timers: list[threading.Timer] = []
        self._held_down: dict[str, Callable[[], None]] = {}  # player -> the release of a simulated press
        self._closed = False
        self._inputs: list[_Input] = []
        try:
            for index, spec in enumerate(players):
                self._inputs.append(self._open(index, spec))
        except BaseException:
            self._close_devices()
            raise
        self._by_name = {inp.name: inp for inp in self._inputs}
        self._queue.put((_START,))
        self._thread = threading.Thread(target=self._run, name="rig-tosses", daemon=True)
        self._thread.start()

    @classmethod
    def from_config(cls, config, **kwargs) -> TossInputs:
        """The inputs of a :class:`rig.config.RigConfig`: its players and ``[tosses]`` timings."""
        tosses = config.tosses
        kwargs.setdefault("lockout_ms", tosses.lockout_ms)
        kwargs.setdefault("stuck_after_s", tosses.stuck_after_s)
        kwargs.setdefault("order_window_ms", tosses.order_window_ms)
        kwargs.setdefault("min_press_ms", tosses.min_press_ms)
        return cls(config.players, **kwargs)

    def _open(self, index: int, spec) -> _Input:
        queue = self._queue
        first_edge: list[bool] = []

        def when_edge(t_us: int, active: bool) -> None:
            if not first_edge:
                first_edge.append(active)
            queue.put((_EDGE, index, t_us, active, _clock()))

        device_class = _DEVICE_CLASSES[spec.kind]
        try:
            device = device_class(spec.pin, player=spec.name, when_edge=when_edge, pin_factory=self.pin_factory)
        except GPIOPinInUse as exc:
            canonical = _canonical_pin(self.pin_factory, spec.pin)
            for other in self._inputs:
                if canonical is not None and other.pin == canonical:
                    raise HardwareError(
                        f"player {spec.name!r}: pin {spec.pin} is already used by player {other.name!r}"
                    ) from None
            raise HardwareError(f"player {spec.name!r}: pin {spec.pin} is already in use ({exc})") from None
        except PinInvalidPin as exc:
            raise HardwareError(f"player {spec.name!r}: {spec.pin!r} is not a usable GPIO pin ({exc})") from None
        except _pin_errors() as exc:
            raise HardwareError(f"player {spec.name!r}: cannot open pin {spec.pin}: {exc}") from None
        # The level before any edge: an edge while the device was being opened is queued and
        # must find the input in the state before it.
        active = bool(device.is_active) if not first_edge else not first_edge[0]
        prefix = "sim:" if self.simulated else ""
        return _Input(spec, device, self.lockout_us, f"{prefix}{spec.kind}:{device.pin}", active, self.min_press_us)

    # --- public API ------------------------------------------------------------------------

    def __repr__(self) -> str:
        names = ", ".join(f"{i.name}={i.kind}:{i.pin}" for i in self._inputs)
        state = "closed" if self._closed else "open"
        return (f"<TossInputs {names} lockout_ms={self.lockout_us / 1000:g} "
                f"min_press_ms={self.min_press_us / 1000:g} {state}>")

    def __enter__(self) -> TossInputs:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        """True while the inputs are open and their delivery thread runs (what a watchdog vouches for).

        False once :meth:`close` was called, or if the thread died (a callback's error is logged
        and survived, so that means something went badly wrong).
        """
        return not self._closed and self._thread.is_alive()

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, in the order given."""
        return tuple(inp.name for inp in self._inputs)

    def device(self, player: str):
        """The :class:`TossButton` or :class:`BreakBeam` of *player*."""
        return self._input(player).device

    def stats(self) -> dict[str, InputStats]:
        """Tosses, dropped bounce edges and faults per player so far."""
        with self._stats_lock:
            return {
                inp.name: InputStats(
                    inp.name, inp.pin, inp.kind, inp.tosses, inp.lockout.dropped, inp.faults, inp.stuck,
                    inp.lockout.glitches,
                )
                for inp in self._inputs
            }

    def flush(self, timeout: float | None = 5.0) -> bool:
        """Handle every edge seen so far and deliver all waiting events now (tests, shutdown).

        Returns False if that did not finish within *timeout* seconds.
        """
        if self._closed:
            return True
        if threading.current_thread() is self._thread:
            return False  # called from a callback: the events are being delivered right now
        done = threading.Event()
        self._queue.put((_FLUSH, done))
        return done.wait(timeout)

    def simulate_press(self, player: str, hold_s: float = 0.05, *, bounces: int = 0) -> None:
        """Press *player*'s input on a mock pin: low now, high again *hold_s* later.

        *bounces* adds that many quick high-low flickers after the press and the release.
        Returns at once (the release comes from a timer). Only with gpiozero's mock pins.
        A hold shorter than the glitch filter's minimum press time is made twice that long
        (a shorter one would rightly not count). A press on an input an earlier simulated press
        still holds (its timer late on a busy machine) lets go of that one first.
        """
        if not self.simulated:
            raise HardwareError("simulate_press needs gpiozero's mock pins (GPIOZERO_PIN_FACTORY=mock)")
        if self._closed:
            raise HardwareError("the toss inputs are closed")
        from rig.hardware.gpio_mock import BOUNCE_S, drive_train

        # Every edge carries its tick (bounce edges 20 µs apart), whenever this thread gets to deliver it.
        pin, ticks = self._input(player).device.pin, self.pin_factory.ticks
        held = self._held_down.pop(player, None)
        if held is not None:  # still held by an earlier simulated press (its timer late): let go of it first
            held()
        pressed_until = drive_train(pin, False, ticks(), bounces)
        lock, released = threading.Lock(), []

        def release() -> None:
            with lock:  # once, from the timer or from the next press, never both at a time
                if not released and not self._closed:
                    released.append(True)
                    drive_train(pin, True, max(ticks(), pressed_until + BOUNCE_S), bounces)

        if self.min_press_us:
            hold_s = max(hold_s, 2 * self.min_press_us / 1e6)
        if hold_s <= 0:
            release()
            return
        timer = threading.Timer(hold_s, release)
        timer.daemon = True
        self._timers = [t for t in self._timers if t.is_alive()] + [timer]
        self._held_down[player] = release
        timer.start()

    def close(self) -> None:
        """Stop listening, deliver every event still waiting, release the pins."""
        if self._closed:
            return
        for timer in self._timers:
            timer.cancel()
        self._close_devices()
        self._queue.put((_STOP,))
        if threading.current_thread() is not self._thread:
            self._thread.join()
        self._closed = True

    # --- internals -------------------------------------------------------------------------

    def _input(self, player: str) -> _Input:
        try:
            return self._by_name[player]
        except KeyError:
            raise HardwareError(f"no toss input for player {player!r} (players: {', '.join(self.players)})") from None

    def _close_devices(self) -> None:
        for inp in self._inputs:
            inp.device.when_edge = None
            inp.device.close()

    def _run(self) -> None:
        while True:
            try:
                items = [self._queue.get(timeout=self._timeout())]
            except Empty:
                items = []
            # Take in every edge that has already arrived before releasing anything: an event
            # is only let out once all edges that arrived within its order window are sorted in.
            while True:
                try:
                    items.append(self._queue.get_nowait())
                except Empty:
                    break
            stop, flushes = False, []
            for item in items:
                if item[0] == _STOP:
                    stop = True
                elif item[0] == _FLUSH:
                    flushes.append(item[1])
                else:
                    self._handle(item)
            self._housekeeping(_clock(), settle_all=stop, confirm_all=stop or bool(flushes))
            self._release(force=stop or bool(flushes))
            for done in flushes:
                done.set()
            if stop:
                return

    def _timeout(self) -> float | None:
        dues = [due for _t, _s, due, _e in self._held]
        for inp in self._inputs:
            dues.extend(d for d in (inp.stuck_due, inp.settle_due, inp.confirm_due) if d is not None)
        if not dues:
            return None
        return max(0.0, (min(dues) - _clock()) / 1e9)

    def _handle(self, item) -> None:
        kind = item[0]
        if kind == _START:
            for inp in self._inputs:
                if inp.lockout.active:
                    self._set_stuck(inp, ticks_to_us(self.pin_factory.ticks()), "active at start "
                                    f"({'button held down' if inp.kind == 'button' else 'beam blocked'})")
        elif kind == _EDGE:
            _, index, t_us, active, arrived_ns = item
            inp = self._inputs[index]
            with self._stats_lock:
                changes = inp.lockout.edge(t_us, active)
            if inp.lockout.pending is None:
                inp.confirm_due = None
            elif inp.confirm_due is None or inp.lockout.pending == t_us:
                # decided when this first edge's order window is over (min_press < order window)
                inp.pending_arrived = arrived_ns
                inp.confirm_due = arrived_ns + self.order_window_ns
            inp.last_edge = (t_us, arrived_ns)
            if changes and changes[-1][1] == t_us:
                inp.settle_due = arrived_ns + self.lockout_us * 1000
            elif not changes and ((due := self._lockout_end_ns(inp)) is not None or inp.settle_due is None):
                # A dropped edge: its lockout ends when the edges' clock says, translated by this edge's
                # own delay: a bounce edge delivered late (callback thread starved) cannot end it early.
                inp.settle_due = max(due or arrived_ns, inp.settle_due or 0)
            for level, t in changes:
                self._change(inp, level, t, arrived_ns)

    def _lockout_end_ns(self, inp: _Input) -> int | None:
        """When *inp*'s lockout ends in arrival time (ns), by its last edge's delay; None if not inside one."""
        until = inp.lockout.until
        if inp.last_edge is None or until is None or inp.last_edge[0] >= until:
            return None
        t_us, arrived_ns = inp.last_edge
        return arrived_ns + (until - t_us) * 1000

    def _housekeeping(self, now_ns: int, *, settle_all: bool = False, confirm_all: bool = False) -> None:
        due = [inp for inp in self._inputs if inp.confirm_due is not None and (confirm_all or inp.confirm_due <= now_ns)]
        for inp in sorted(due, key=lambda i: (i.lockout.pending, i.pending_arrived)):  # equal ticks: first come first
            inp.confirm_due = None
            with self._stats_lock:
                changes = inp.lockout.confirm()
            if changes:
                inp.settle_due = max(inp.pending_arrived + self.lockout_us * 1000, self._lockout_end_ns(inp) or 0)
            for level, t in changes:
                self._change(inp, level, t, inp.pending_arrived)
        for inp in self._inputs:
            if inp.settle_due is not None and (settle_all or inp.settle_due <= now_ns):
                inp.settle_due = None
                for level, t in inp.lockout.settle():
                    self._change(inp, level, t, now_ns)
            if inp.stuck_due is not None and inp.stuck_due <= now_ns:
                inp.stuck_due = None
                held_s = self.stuck_after_us / 1e6
                self._set_stuck(inp, inp.press_us + self.stuck_after_us, f"active for more than {held_s:g} s")

    def _change(self, inp: _Input, active: bool, t_us: int, arrived_ns: int) -> None:
        if active:
            inp.press_us = t_us
            inp.stuck_due = arrived_ns + self.stuck_after_us * 1000
            with self._stats_lock:
                inp.tosses += 1
            self._hold(t_us, TossEvent(inp.name, t_us, inp.source), arrived_ns)
            return
        inp.stuck_due = None
        if inp.stuck:
            with self._stats_lock:
                inp.stuck = False
            self._hold(t_us, InputFault(inp.name, inp.pin, "recovered", "released: tosses count again"), arrived_ns)
        elif inp.press_us is not None:
            self._hold(t_us, ReleaseEvent(inp.name, t_us, t_us - inp.press_us), arrived_ns)
        inp.press_us = None

    def _set_stuck(self, inp: _Input, t_us: int, detail: str) -> None:
        with self._stats_lock:
            inp.stuck = True
            inp.faults += 1
        inp.press_us = None
        self._hold(t_us, InputFault(inp.name, inp.pin, "stuck", f"{detail}; its tosses are ignored until released"),
                   _clock())

    def _hold(self, t_us: int, event: object, arrived_ns: int) -> None:
        self._seq += 1
        heapq.heappush(self._held, (t_us, self._seq, arrived_ns + self.order_window_ns, event))

    def _release(self, *, force: bool) -> None:
        now = _clock()
        # A press the glitch filter has not decided yet holds back every event dated after it.
        pending = [inp.lockout.pending for inp in self._inputs if inp.lockout.pending is not None]
        barrier = None if force or not pending else min(pending)
        while self._held and (force or any(due <= now for _t, _s, due, _e in self._held)):
            if barrier is not None and self._held[0][0] >= barrier:
                break
            _t, _s, _due, event = heapq.heappop(self._held)
            self._deliver(event)

    def _deliver(self, event: object) -> None:
        callback = (self.on_toss if isinstance(event, TossEvent)
                    else self.on_release if isinstance(event, ReleaseEvent) else self.on_fault)
        if callback is None:
            return
        try:
            callback(event)
        except Exception:  # noqa: BLE001 - a failing callback must not stop the inputs
            log.exception("toss input callback failed for %r", event)


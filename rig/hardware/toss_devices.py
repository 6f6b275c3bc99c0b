"""The toss inputs' devices and pin factories: :class:`TossButton` and :class:`BreakBeam` (gpiozero
devices that keep the kernel's edge tick), choosing and describing the pin factory, checking that
it dates edges in µs. Split from :mod:`rig.hardware.tosses` (issue 29), which re-exports every name.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable

from gpiozero import Button, Device, DigitalInputDevice
from gpiozero.exc import GPIOZeroError
from gpiozero.pins.mock import MockFactory

from rig.errors import ConfigError, HardwareError
from rig.hardware.toss_records import KINDS, ticks_to_us


class _EdgeTicks:
    """Keeps the tick gpiozero's pin passes to ``_pin_changed`` and forwards every edge."""

    def _init_edge_ticks(self, player: str | None, when_edge) -> None:
        # gpiozero freezes a device's attributes at the end of __init__: set ours first.
        self._player = player
        self._when_edge = when_edge
        self._last_edge_us: int | None = None

    @property
    def player(self) -> str | None:
        """The player this input belongs to."""
        return self._player

    @property
    def last_edge_us(self) -> int | None:
        """The edge time of the last edge seen (integer µs), or None before the first."""
        return self._last_edge_us

    @property
    def when_edge(self) -> Callable[[int, bool], None] | None:
        """Called as ``when_edge(t_us, active)`` for every edge, from gpiozero's callback thread."""
        return self._when_edge

    @when_edge.setter
    def when_edge(self, value: Callable[[int, bool], None] | None) -> None:
        self._when_edge = value

    def _pin_changed(self, ticks, state):
        t_us = ticks_to_us(ticks)
        self._last_edge_us = t_us
        sink = self._when_edge
        if sink is not None:
            sink(t_us, bool(self._state_to_value(state)))
        super()._pin_changed(ticks, state)

    def _describe(self, kind: str) -> str:
        try:
            self._check_open()
        except GPIOZeroError:
            return f"<rig {type(self).__name__} player={self._player!r} closed>"
        return f"<rig {type(self).__name__} player={self._player!r} on pin {self.pin}, {kind}={self.is_active}>"


class TossButton(_EdgeTicks, Button):
    """A player's arcade button (active low, internal pull-up) that keeps each edge's tick.

    ``when_edge(t_us, active)`` sees every raw edge, bounces included; gpiozero's own
    ``when_pressed`` / ``when_released`` / ``when_held`` work as usual.
    """

    kind = "button"

    def __init__(self, pin=None, *, player: str | None = None, when_edge=None, hold_time: float = 1,
                 pin_factory=None):
        self._init_edge_ticks(player, when_edge)
        super().__init__(pin, pull_up=True, bounce_time=None, hold_time=hold_time, pin_factory=pin_factory)

    def __repr__(self) -> str:
        return self._describe("is_pressed")

    def _fire_activated(self):
        # Button sets the pin's callback before it creates its hold thread: an edge in
        # between would raise on gpiozero's callback thread. The edge itself is kept.
        if getattr(self, "_hold_thread", None) is not None:
            super()._fire_activated()

    def close(self):
        """Release the pin (at once, even while the button is held down)."""
        # gpiozero's hold thread waits up to hold_time for a held button's release, and polls for a
        # press every 0.1 s, before it sees the stop request; wake it from both so closing is immediate
        # (eight buttons took 0.8 s to close).
        thread = getattr(self, "_hold_thread", None)
        if thread is not None:
            thread.stopping.set()
            self._inactive_event.set()
            thread.holding.set()
        super().close()


class BreakBeam(_EdgeTicks, DigitalInputDevice):
    """An IR break-beam receiver across a toss slot: the beam broken pulls the pin low."""

    kind = "beam"

    def __init__(self, pin=None, *, player: str | None = None, when_edge=None, pin_factory=None):
        self._init_edge_ticks(player, when_edge)
        super().__init__(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)

    def __repr__(self) -> str:
        return self._describe("is_broken")


BreakBeam.is_broken = BreakBeam.is_active
BreakBeam.when_broken = BreakBeam.when_activated
BreakBeam.when_restored = BreakBeam.when_deactivated

_DEVICE_CLASSES = {"button": TossButton, "beam": BreakBeam}


# --- pin factories ------------------------------------------------------------------------


class NoGPIOError(HardwareError):
    """This machine has no GPIO: gpiozero could not load a pin factory (*tried* says what it tried)."""

    def __init__(self, tried: str) -> None:
        self.tried = tried
        super().__init__(
            f"no GPIO on this machine: gpiozero could not load a pin factory ({tried}). "
            "On a Raspberry Pi install python3-lgpio; to try the rig without buttons, "
            "set GPIOZERO_PIN_FACTORY=mock (and see `rig tosses --simulate`)"
        )


def resolve_pin_factory(pin_factory=None):
    """The pin factory to use: *pin_factory*, else gpiozero's default (``GPIOZERO_PIN_FACTORY``).

    Raises :class:`NoGPIOError` (a :class:`~rig.errors.HardwareError`) saying so when this machine has no GPIO.
    """
    if pin_factory is not None:
        return pin_factory
    if Device.pin_factory is not None:
        return Device.pin_factory
    problem = lgpio_workdir_problem()
    if problem:
        raise HardwareError(problem)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except (GPIOZeroError, ImportError, OSError, RuntimeError) as exc:
            tried = "; ".join(str(w.message) for w in caught) or str(exc)
            raise NoGPIOError(tried) from None
    return Device.pin_factory


def lgpio_workdir_problem(env=None, cwd: str | None = None) -> str | None:
    """Why lgpio would fail here, in words, or None: it makes its edge-notification pipes
    (``.lgd-nfy*``) in the working directory (or ``$LG_WD``), so a read-only one fails at the
    first edge callback with a misleading "no such file" (lg: lgNotify.c, lgUtil.c).

    >>> lgpio_workdir_problem({"GPIOZERO_PIN_FACTORY": "mock"}, "/")
    >>> print(lgpio_workdir_problem({"GPIOZERO_PIN_FACTORY": "lgpio"}, "/srv/read-only"))
    lgpio makes its notification pipes (.lgd-nfy*) in the working directory, and /srv/read-only is not writable: run the rig from a writable folder, or set LG_WD to one (the service runs in /var/lib/rig)
    """
    import os

    env = os.environ if env is None else env
    factory = env.get("GPIOZERO_PIN_FACTORY", "").strip().lower()
    if factory and factory != "lgpio":
        return None
    if not factory:
        import importlib.util

        if importlib.util.find_spec("lgpio") is None:
            return None
    folder = env.get("LG_WD") or cwd or os.getcwd()
    if os.access(folder, os.W_OK):
        return None
    where = "$LG_WD" if env.get("LG_WD") else "the working directory"
    return (f"lgpio makes its notification pipes (.lgd-nfy*) in {where}, and {folder} is not writable: "
            "run the rig from a writable folder, or set LG_WD to one (the service runs in /var/lib/rig)")


def describe_factory(factory) -> str:
    """How a pin factory times edges, in a few words for the user.

    >>> describe_factory(MockFactory())
    'mock pins (simulated: timestamps from time.monotonic() when the pin is driven)'
    """
    name = type(factory).__name__
    if isinstance(factory, MockFactory):
        return "mock pins (simulated: timestamps from time.monotonic() when the pin is driven)"
    if name == "LGPIOFactory":
        return "lgpio (kernel edge timestamps)"
    return f"{name} (timestamps taken in Python, not by the kernel: install python3-lgpio for exact order)"


#: Pin factories whose ``ticks`` are not monotonic seconds: pigpio's are microseconds that wrap every 71.6 min.
_NOT_SECONDS = ("PiGPIOFactory",)


def check_ticks(factory):
    """*factory*, if its edge ticks are seconds on a monotonic clock; :class:`~rig.errors.HardwareError` if not.

    gpiozero's ``Factory.ticks()`` format is the factory's own: lgpio gives the kernel's
    ``CLOCK_MONOTONIC`` ns / 1e9, the mock and native factories ``time.monotonic()``, but
    pigpio its daemon's 32-bit microsecond counter, which toss times cannot be compared by.
    """
    names = {cls.__name__ for cls in type(factory).__mro__}
    if names & set(_NOT_SECONDS):
        raise HardwareError(
            f"pin factory {type(factory).__name__}: its edge ticks are wrapping microseconds, not seconds, so "
            "toss times would be wrong; use lgpio (GPIOZERO_PIN_FACTORY=lgpio, sudo apt install python3-lgpio)")
    return factory


def check_min_press(min_press_ms: float, order_window_ms: float) -> None:
    """:class:`~rig.errors.ConfigError` unless the minimum press time fits inside the order window."""
    if not min_press_ms >= 0:
        raise ConfigError(f"tosses.min_press_ms must be 0 or more, not {min_press_ms}")
    if min_press_ms and min_press_ms >= order_window_ms:
        raise ConfigError(
            f"tosses.min_press_ms ({min_press_ms:g}) must be shorter than tosses.order_window_ms "
            f"({order_window_ms:g}): a press is confirmed inside its order window (0 turns the glitch filter off)")


def _pin_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [GPIOZeroError, OSError]
    lgpio = sys.modules.get("lgpio")
    if lgpio is not None and isinstance(getattr(lgpio, "error", None), type):
        errors.append(lgpio.error)  # "GPIO busy": another process holds the pin
    return tuple(errors)


def _canonical_pin(factory, name: str) -> str | None:
    try:
        for _header, info in factory.board_info.find_pin(name):
            return info.name
    except Exception:  # noqa: BLE001 - only used to word an error message
        return None
    return None


# --- the inputs of the whole table ---------------------------------------------------------


def _check_players(players: list) -> None:
    if not players:
        raise ConfigError("no players: every toss input needs a player name, a pin and a kind")
    seen: set[str] = set()
    for spec in players:
        for attr in ("name", "pin", "kind"):
            if not hasattr(spec, attr):
                raise ConfigError(f"player {spec!r} has no {attr}")
        if spec.kind not in KINDS:
            raise ConfigError(f"player {spec.name!r}: kind {spec.kind!r} is not one of {', '.join(KINDS)}")
        if spec.name in seen:
            raise ConfigError(f"player {spec.name!r} is listed twice")
        seen.add(spec.name)

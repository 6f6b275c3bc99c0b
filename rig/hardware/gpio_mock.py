"""A gpiozero mock pin whose edges carry exactly the tick you give it.

gpiozero's :class:`~gpiozero.pins.mock.MockPin` stamps every edge with ``time.monotonic()``
at the moment you call ``drive_low()``. To test bounce trains and presses a microsecond
apart, :class:`TickPin` passes your tick to ``when_changed(ticks, state)`` instead, just as
the lgpio factory passes the kernel's edge time (``ns / 1e9``). Everything else is the real
gpiozero stack::

    >>> from gpiozero.pins.mock import MockFactory
    >>> factory = MockFactory(pin_class=TickPin)
    >>> pin = factory.pin("GPIO17")
    >>> pin.pull = "up"
    >>> seen = []
    >>> def record(ticks, state):
    ...     seen.append((ticks, state))
    >>> pin.when_changed = record
    >>> pin.drive_low_at(100.000001), pin.drive_low_at(100.5), pin.drive_high_at(100.000002)
    (True, False, True)
    >>> seen
    [(100.000001, False), (100.000002, True)]
    >>> factory.reset()

:meth:`TickPin.wire_low` models a pin held low by the outside world (a button jammed down,
a blocked beam): the internal pull-up set when a device opens the pin cannot raise it.
"""

from __future__ import annotations

from gpiozero.pins.mock import MockPin, PinState

__all__ = ["BOUNCE_S", "TickPin", "drive_at", "drive_train", "mock_factory"]

#: seconds between the edges of a simulated contact bounce
BOUNCE_S = 20e-6


def mock_factory():
    """gpiozero's ``MockFactory``: simulated pins on any machine, GPIO or not (``rig tosses --simulate``).

    The one already chosen (``GPIOZERO_PIN_FACTORY=mock``, or set on ``Device``) if there is
    one, else a fresh one.
    """
    import os

    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    if isinstance(Device.pin_factory, MockFactory):
        return Device.pin_factory
    if Device.pin_factory is None and os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock":
        Device.ensure_pin_factory()
        return Device.pin_factory
    return MockFactory()


class TickPin(MockPin):
    """A :class:`~gpiozero.pins.mock.MockPin` with ``drive_low_at(ticks)`` / ``drive_high_at(ticks)``."""

    def __init__(self, factory, info):
        self._wired_low = False
        super().__init__(factory, info)

    def drive_low_at(self, ticks: float) -> bool:
        """Pull the pin low as of *ticks* (seconds); True if that was an edge."""
        return self._edge_at(False, ticks)

    def drive_high_at(self, ticks: float) -> bool:
        """Let the pin go high as of *ticks* (seconds); True if that was an edge."""
        self._wired_low = False
        return self._edge_at(True, ticks)

    def wire_low(self) -> None:
        """Hold the pin low from outside, whatever its pull (a stuck input), until :meth:`drive_high_at`."""
        self._wired_low = True
        self._change_state(False)

    def _set_pull(self, value):
        super()._set_pull(value)
        if self._wired_low:
            self._change_state(False)

    def _edge_at(self, state: bool, ticks: float) -> bool:
        return drive_at(self, state, ticks)


def drive_at(pin, state: bool, ticks: float) -> bool:
    """Set any gpiozero :class:`~gpiozero.pins.mock.MockPin` to *state* as of *ticks*; True if that was an edge.

    The edge reaches ``when_changed`` stamped with *ticks*, not with the moment of the call, so
    a thread that is slow to make the next call cannot stretch a bounce train (what
    :meth:`rig.hardware.tosses.TossInputs.simulate_press` relies on).
    """
    assert pin._function == "input"
    if pin._state == state:
        return False
    pin._state = state
    pin.states.append(PinState(ticks - pin._last_change, state))
    pin._last_change = ticks  # MockPin._call_when_changed passes this as the edge's ticks
    wanted = ("both", "rising") if state else ("both", "falling")
    if pin._edges in wanted and pin._when_changed is not None:
        pin._call_when_changed()
    return True


def drive_train(pin, state: bool, start: float, bounces: int = 0, spacing: float = BOUNCE_S) -> float:
    """Drive *pin* to *state* as of *start*, with *bounces* flickers back and forth after it, *spacing*
    seconds apart (a contact's bounce); returns the tick of the train's last edge.

        >>> from gpiozero.pins.mock import MockFactory
        >>> factory = MockFactory(pin_class=TickPin)
        >>> pin = factory.pin("GPIO5")
        >>> pin.function = "input"; pin.pull = "up"
        >>> round(drive_train(pin, False, 10.0, bounces=1), 6), [s.state for s in pin.states][-3:]
        (10.00004, [False, True, False])
        >>> factory.reset()
    """
    for k in range(2 * bounces + 1):
        drive_at(pin, state if k % 2 == 0 else not state, start + k * spacing)
    return start + 2 * bounces * spacing

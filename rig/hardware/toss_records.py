"""What the toss inputs deliver and the debounce rule: :class:`TossEvent`, :class:`ReleaseEvent`,
:class:`InputFault` and :class:`Lockout` (first edge wins), pure and without gpiozero. Split from
:mod:`rig.hardware.tosses` (issue 29), which re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The kinds of toss input a player can have.
KINDS = ("button", "beam")


def ticks_to_us(ticks: float) -> int:
    """A pin factory's edge tick (seconds, monotonic) as integer microseconds.

    >>> ticks_to_us(12345.678901), ticks_to_us(0.0000015)
    (12345678901, 2)
    """
    return round(ticks * 1_000_000)


# --- events -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TossEvent:
    """A player's toss: ``t_us`` is the kernel's edge time (integer µs, monotonic clock)."""

    player: str
    t_us: int
    source: str

    def to_dict(self) -> dict[str, Any]:
        """The engine's ``toss`` event."""
        return {"type": "toss", "t_us": self.t_us, "source": self.source, "player": self.player}


@dataclass(frozen=True)
class ReleaseEvent:
    """The input went inactive again after ``held_us`` (the roller's hold >= 1 s confirms a copy)."""

    player: str
    t_us: int
    held_us: int


@dataclass(frozen=True)
class InputFault:
    """Something is wrong with a player's input.

    ``kind`` is ``"stuck"`` (active at start, or for longer than ``stuck_after_s``: the
    input gives no tosses until it is released) or ``"recovered"`` (a stuck input was
    released and works again).
    """

    player: str
    pin: str
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.player} ({self.pin}) {self.kind}: {self.detail}"


# --- the debounce rule --------------------------------------------------------------------


class Lockout:
    """First edge wins; edges within ``lockout_us`` after an accepted edge are dropped.

    :meth:`edge` returns the level changes ``(active, t_us)`` an edge causes. A dropped
    edge still records the pin's level, so when the lockout is over :meth:`settle` (or the
    next edge) reports a change that ended inside it, dated by the edge that made it::

        >>> lock = Lockout(30_000)
        >>> lock.edge(1_000, True)              # press: accepted
        [(True, 1000)]
        >>> lock.edge(1_300, False), lock.edge(1_900, True), lock.dropped   # bounce
        ([], [], 2)
        >>> lock.edge(90_000, False)            # release after the lockout
        [(False, 90000)]
        >>> lock.edge(95_000, True)             # a tap inside the release's lockout...
        []
        >>> lock.edge(96_000, False), lock.settle()   # ...ends released: no change
        ([], [])
        >>> lock.edge(200_000, True), lock.edge(210_000, False), lock.settle()
        ([(True, 200000)], [], [(False, 210000)])

    The glitch filter, ``min_press_us``: a press only counts if the input is *still active*
    that long after its first edge, and is then dated by that first edge. Until then the
    press is :attr:`pending`; :meth:`confirm` decides it (the dispatcher calls it when the
    order window of the first edge is over), as does any edge after the minimum press time.
    A 1 µs spike on a long wire, or an IR receiver's dropout, never becomes a press::

        >>> lock = Lockout(30_000, min_press_us=3_000)
        >>> lock.edge(1_000, True), lock.edge(1_001, False), lock.pending   # a 1 µs spike
        ([], [], 1000)
        >>> lock.confirm(), lock.glitches, lock.active
        ([], 1, False)
        >>> lock.edge(5_000, True), lock.edge(5_200, False), lock.edge(5_900, True)  # a bouncing press
        ([], [], [])
        >>> lock.confirm(), lock.dropped       # still active 3 ms on: dated by its first edge
        ([(True, 5000)], 2)

    A decision made too early (the press's last bounce edge reached us only after the order
    window) is mended: an edge still inside the minimum press time of a press judged a glitch
    reopens it, dated by its first edge again, and its bounce edges count as dropped as if it
    had never been judged::

        >>> lock = Lockout(30_000, min_press_us=1_200)
        >>> lock.edge(1_000, True), lock.edge(1_100, False)   # press, a bounce...
        ([], [])
        >>> lock.confirm(), lock.glitches                     # ...judged before the next edge came
        ([], 1)
        >>> lock.edge(1_200, True), lock.confirm(), lock.glitches, lock.dropped
        ([], [(True, 1000)], 0, 2)
    """

    def __init__(self, lockout_us: int, *, active: bool = False, min_press_us: int = 0):
        self.lockout_us = int(lockout_us)
        self.min_press_us = int(min_press_us)
        self.active = active
        self.dropped = 0
        self.glitches = 0
        self._raw = active
        self._raw_t: int | None = None
        self._until: int | None = None
        self._pending: int | None = None
        self._pending_edges = 0
        self._glitch: int | None = None  # the first edge of the last press judged a glitch
        self._glitch_edges = 0  # its edges after the first, up to its minimum press time

    def __repr__(self) -> str:
        return (f"Lockout({self.lockout_us}, active={self.active}, dropped={self.dropped}, "
                f"min_press_us={self.min_press_us}, glitches={self.glitches})")

    @property
    def pending(self) -> int | None:
        """The first edge (µs) of a press not yet confirmed by the glitch filter, else None."""
        return self._pending

    @property
    def until(self) -> int | None:
        """The end (µs, on the edges' clock) of the lockout last started, else None."""
        return self._until

    def edge(self, t_us: int, active: bool) -> list[tuple[bool, int]]:
        """Feed one edge of this input (edges of one input come in time order)."""
        changes: list[tuple[bool, int]] = []
        if self._pending is not None:
            if t_us <= self._pending + self.min_press_us:
                self._raw, self._raw_t = active, t_us
                self._pending_edges += 1
                return []
            changes = self.confirm()  # this edge is after the minimum press time: the level then is known
        if self._glitch is not None and t_us <= self._glitch + self.min_press_us:
            self._glitch_edges += 1
        if self._until is not None and t_us < self._until:
            self.dropped += 1
            self._raw, self._raw_t = active, t_us
            return changes
        changes += self.settle()
        self._raw, self._raw_t = active, t_us
        if active != self.active:
            if active and self.min_press_us > 0:
                first, edges = t_us, 0
                if self._glitch is not None and t_us <= self._glitch + self.min_press_us:
                    # that "glitch" was a press whose edges came late: mend it, this edge one of its bounces
                    first, edges = self._glitch, self._glitch_edges
                    self.glitches -= 1
                self._pending, self._pending_edges, self._glitch = first, edges, None
                return changes
            self.active = active
            self._until = t_us + self.lockout_us
            changes.append((active, t_us))
        return changes

    def confirm(self) -> list[tuple[bool, int]]:
        """Decide the pending press by the level its edges left: a press at its first edge, or a glitch."""
        if self._pending is None:
            return []
        first, self._pending = self._pending, None
        if not self._raw:
            self.glitches += 1
            self._glitch, self._glitch_edges = first, self._pending_edges
            return []
        self.dropped += self._pending_edges
        self._glitch = None
        self.active = True
        self._until = first + self.lockout_us
        return [(True, first)]

    def settle(self) -> list[tuple[bool, int]]:
        """After the lockout: the change a dropped edge left behind, if any."""
        if self._pending is not None or self._raw == self.active or self._raw_t is None:
            return []
        self.active = self._raw
        return [(self.active, self._raw_t)]


# --- the devices --------------------------------------------------------------------------

"""How far apart do the toss inputs timestamp one and the same edge? The tie window comes from this.

:func:`measure_jitter` fires ``rounds`` simultaneous presses at every toss input — on the rig, an
output pin (``drive``) wired to all the inputs through a test lead pulls them low at one instant —
and collects each input's edge timestamp (the kernel's, as for a real toss). The spread of one
round (latest minus earliest timestamp) is what the timing itself adds; two tosses closer than
the worst spread cannot honestly be told apart. :attr:`JitterReport.suggested_window_us` is the
``[tosses] tie_window_us`` to configure. With gpiozero's mock pins and no ``drive``, the inputs'
mock pins are driven one after another, so the spread is that loop's time (a simulation).
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from rig.errors import HardwareError

#: the suggested window: the worst spread seen times this margin, rounded up
MARGIN = 1.5
#: how long a round waits for the inputs to deliver the edges it fired (they are in by then, bar a dead input thread)
FLUSH_S = 30.0


@dataclass(frozen=True)
class JitterReport:
    """Spreads (µs) of the rounds in which every input saw the edge; ``missed`` edges in the others."""

    inputs: tuple[str, ...]
    rounds: int
    spreads: tuple[int, ...]
    offsets: dict[str, float] = field(default_factory=dict)  # each input's mean lag behind the round's first edge
    missed: int = 0
    simulated: bool = False

    @property
    def worst_us(self) -> int:
        return max(self.spreads) if self.spreads else 0

    @property
    def median_us(self) -> float:
        return statistics.median(self.spreads) if self.spreads else 0.0

    def percentile_us(self, q: float) -> int:
        if not self.spreads:
            return 0
        ordered = sorted(self.spreads)
        return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]

    @property
    def suggested_window_us(self) -> int:
        """``tie_window_us`` to configure: the worst spread with a margin, at least 1 µs."""
        return max(1, math.ceil(self.worst_us * MARGIN))

    def format(self) -> str:
        lines = [f"{len(self.spreads)} of {self.rounds} rounds with an edge on all {len(self.inputs)} inputs"
                 f"{f' ({self.missed} edges missed)' if self.missed else ''}"
                 f"{' — simulated: mock pins driven one after another' if self.simulated else ''}"]
        if self.spreads:
            lines.append(f"spread of one edge across the inputs: median {self.median_us:g} µs, "
                         f"p95 {self.percentile_us(0.95)} µs, worst {self.worst_us} µs")
            for name in self.inputs:
                lines.append(f"  {name:<12} lags the first edge by {self.offsets.get(name, 0.0):8.1f} µs on average")
            lines.append(f"suggested: [tosses] tie_window_us = {self.suggested_window_us}"
                         f"   (worst spread x {MARGIN:g}; tosses this close are shown as a dead heat)")
        return "\n".join(lines)


def summarise(inputs: Sequence[str], rounds: int, fired: Sequence[Sequence[tuple[str, int]]], *,
              simulated: bool = False) -> JitterReport:
    """Measure each round's edges (``fired``: the ``(input, t_us)`` each round delivered); a round that
    missed an input is left out.

    >>> report = summarise(["A", "B"], 2, [[("A", 1000), ("B", 1003)], [("A", 90000), ("B", 90001)]])
    >>> report.spreads, report.worst_us, report.suggested_window_us, report.offsets
    ((3, 1), 3, 5, {'A': 0.0, 'B': 2.0})
    """
    spreads, lags = [], {name: [] for name in inputs}
    complete = 0
    for round_edges in fired:
        seen = {}
        for name, t_us in round_edges:
            seen.setdefault(name, t_us)
        if set(seen) != set(inputs):
            continue
        complete += 1
        first = min(seen.values())
        spreads.append(max(seen.values()) - first)
        for name, t_us in seen.items():
            lags[name].append(t_us - first)
    offsets = {name: round(statistics.fmean(values), 1) if values else 0.0 for name, values in lags.items()}
    missed = rounds * len(inputs) - complete * len(inputs)
    return JitterReport(tuple(inputs), rounds, tuple(spreads), offsets, max(0, missed), simulated)


def measure_jitter(players, *, pin_factory=None, drive: str | None = None, rounds: int = 50,
                   hold_s: float = 0.03, gap_s: float = 0.07, driver: Callable[[bool], None] | None = None,
                   on_round: Callable[[int], None] | None = None) -> JitterReport:
    """Fire ``rounds`` simultaneous edges at ``players``' inputs and measure their timestamps' spread.

    ``drive``: the output pin wired to every input (real rig). Without it the inputs must be
    gpiozero mock pins (simulation). ``driver(active)`` replaces both (tests with exact ticks).
    """
    from rig.hardware.tosses import TossInputs, resolve_pin_factory

    if rounds < 1:
        raise HardwareError("--rounds must be at least 1")
    factory = resolve_pin_factory(pin_factory)
    edges: list[tuple[str, int]] = []
    lockout_ms = min(hold_s, gap_s) * 1000 / 2
    output = None
    with TossInputs(players, pin_factory=factory, lockout_ms=lockout_ms, order_window_ms=0,
                    on_toss=lambda toss: edges.append((toss.player, toss.t_us))) as inputs:
        simulated = False
        if driver is None and drive is not None:
            from gpiozero import DigitalOutputDevice

            try:
                output = DigitalOutputDevice(drive, initial_value=True, pin_factory=factory)
            except Exception as exc:  # gpiozero raises many kinds for a bad or busy pin
                raise HardwareError(f"--drive {drive}: cannot use it as an output: {exc}") from None

            def driver(active: bool) -> None:
                output.off() if active else output.on()  # low = pressed (the inputs are active low)
        elif driver is None:
            if not inputs.simulated:
                raise HardwareError("measuring jitter on real inputs needs --drive PIN: an output pin wired to "
                                    "every toss input (see docs/referee.md); with mock pins add --simulate")
            pins = [inputs.device(name).pin for name in inputs.players]
            simulated = True

            def driver(active: bool) -> None:
                for pin in pins:
                    pin.drive_low() if active else pin.drive_high()
        # each round's edges are those delivered by the time it is over, whenever the thread firing them
        # got to run (not grouped by a quiet gap: a pause of this thread mid-round split a round in two)
        fired: list[list[tuple[str, int]]] = []
        try:
            time.sleep(gap_s)
            for index in range(rounds):
                before = len(edges)
                driver(True)
                time.sleep(hold_s)
                driver(False)
                time.sleep(gap_s)
                inputs.flush(FLUSH_S)
                fired.append(edges[before:])
                if on_round is not None:
                    on_round(index)
        finally:
            if output is not None:
                output.close()
    names = [getattr(p, "name", p) for p in players]
    return summarise(names, rounds, fired, simulated=simulated)

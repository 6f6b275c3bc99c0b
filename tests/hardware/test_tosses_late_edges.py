"""Edges delivered late (a starved callback thread) cannot split one press into two.

The dispatcher's clock is replaced by one the test moves, and every edge carries its own tick
(:class:`~rig.hardware.gpio_mock.TickPin`), so "late" is exact: no sleeps, no wall time.
"""

import pytest

from rig.config import PlayerInput
from rig.hardware import tosses as tosses_module
from rig.hardware.tosses import TossInputs
from tests.waiting import WAIT_S

MS = 1_000_000  # ns


class Clock:
    """The dispatcher's clock (ns); ``clock.now += 40 * MS`` moves it."""

    def __init__(self):
        self.now = 10**12

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(tosses_module, "_clock", fake)
    return fake


def ada(tick_factory):
    """Ada's input (lockout 30 ms), what it delivered, its pin and the tick of its press."""
    seen = []
    inputs = TossInputs([PlayerInput("Ada", "GPIO17")], pin_factory=tick_factory, lockout_ms=30,
                        on_toss=seen.append, on_release=seen.append)
    return inputs, seen, inputs.device("Ada").pin, tick_factory.ticks()


def kinds(seen):
    return [type(e).__name__ for e in seen]


def test_bounce_edges_that_arrive_after_the_lockout_ended_by_arrival_time_stay_bounce(tick_factory, clock):
    inputs, seen, pin, t0 = ada(tick_factory)
    with inputs:
        pin.drive_low_at(t0)  # the press reaches the dispatcher at once...
        assert inputs.flush(WAIT_S)
        clock.now += 40 * MS  # ...its lockout is over by arrival time and is settled (nothing to settle)
        assert inputs.flush(WAIT_S)
        # The callback thread was starved: the press's bounce, 10 and 20 µs after it, arrives only now.
        pin.drive_high_at(t0 + 10e-6)
        assert inputs.flush(WAIT_S)  # handled on its own, before the next edge arrives
        pin.drive_low_at(t0 + 20e-6)
        assert inputs.flush(WAIT_S)
        clock.now += 100 * MS
        assert inputs.flush(WAIT_S)
        pin.drive_high_at(t0 + 0.080)  # the real release, 80 ms after the press
        clock.now += 100 * MS
        assert inputs.flush(WAIT_S)
    assert [(kind, e.t_us) for kind, e in zip(kinds(seen), seen)] == [
        ("TossEvent", round(t0 * 1e6)), ("ReleaseEvent", round((t0 + 0.080) * 1e6))]
    assert seen[1].held_us == 80_000
    assert inputs.stats()["Ada"].dropped == 2


def test_a_late_bounce_of_the_release_is_not_a_new_press(tick_factory, clock):
    inputs, seen, pin, t0 = ada(tick_factory)
    with inputs:
        pin.drive_low_at(t0)
        clock.now += 60 * MS
        assert inputs.flush(WAIT_S)
        pin.drive_high_at(t0 + 0.060)  # the release, on time
        assert inputs.flush(WAIT_S)
        clock.now += 40 * MS  # its lockout is over by arrival time
        assert inputs.flush(WAIT_S)
        pin.drive_low_at(t0 + 0.060010)  # its bounce, delivered 40 ms late, one edge at a time
        assert inputs.flush(WAIT_S)
        pin.drive_high_at(t0 + 0.060020)
        assert inputs.flush(WAIT_S)
        clock.now += 100 * MS
        assert inputs.flush(WAIT_S)
    assert kinds(seen) == ["TossEvent", "ReleaseEvent"]
    assert inputs.stats()["Ada"].tosses == 1


def test_a_press_inside_the_lockout_whose_level_stays_is_still_reported_once_its_lockout_is_over(
        tick_factory, clock):
    inputs, seen, pin, t0 = ada(tick_factory)
    with inputs:
        pin.drive_low_at(t0)
        clock.now += 60 * MS
        pin.drive_high_at(t0 + 0.060)
        assert inputs.flush(WAIT_S)
        clock.now += 40 * MS
        assert inputs.flush(WAIT_S)
        pin.drive_low_at(t0 + 0.070)  # a real press 10 ms after the release, delivered late, and it stays
        assert inputs.flush(WAIT_S)
        assert kinds(seen) == ["TossEvent", "ReleaseEvent"]  # not yet: its lockout runs
        clock.now += 30 * MS
        assert inputs.flush(WAIT_S)
    assert (kinds(seen)[2], seen[2].t_us) == ("TossEvent", round((t0 + 0.070) * 1e6))

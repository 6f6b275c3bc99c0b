"""The glitch filter: a press counts only if still active min_press_ms after its first edge.

Edges go through gpiozero's real MockFactory: TickPin for exact ticks (a 1 µs spike), the
plain MockPin for ``time.monotonic()`` ticks as ``GPIOZERO_PIN_FACTORY=mock`` gives them.
"""

import threading

import pytest
from gpiozero.pins.mock import MockFactory

from rig.config import RigConfig
from rig.errors import ConfigError, HardwareError
from rig.hardware import tosses as tosses_module
from rig.hardware.tosses import Lockout, TossInputs, check_ticks
from tests.hardware.test_tosses import MS, T0, US, Recorder, open_inputs, players, press_train, us
from tests.waiting import WAIT_S, wait_until


def test_a_1us_spike_is_not_a_toss_but_a_counted_glitch(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec, min_press_ms=3) as inputs:
        pin = inputs.device("Ada").pin
        pin.drive_low_at(T0)
        pin.drive_high_at(T0 + 1 * US)
        assert inputs.flush(WAIT_S)
        assert rec.tosses == [] and rec.releases == []
        stats = inputs.stats()["Ada"]
        assert (stats.tosses, stats.glitches) == (0, 1)


def test_without_the_filter_the_same_spike_is_a_toss(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec, min_press_ms=0) as inputs:
        pin = inputs.device("Ada").pin
        pin.drive_low_at(T0)
        pin.drive_high_at(T0 + 1 * US)
        assert inputs.flush(WAIT_S)
    assert [t.t_us for t in rec.tosses] == [us(T0)]


def test_a_bouncing_press_is_dated_by_its_first_edge(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec, min_press_ms=3) as inputs:
        press_train(inputs.device("Ben").pin, T0, gaps_us=(40, 120, 300, 900))  # settles pressed after 1.4 ms
        assert inputs.flush(WAIT_S)
        assert [(t.player, t.t_us) for t in rec.tosses] == [("Ben", us(T0))]
        assert inputs.stats()["Ben"].glitches == 0


def test_a_press_released_before_the_minimum_is_a_glitch_one_held_past_it_a_toss(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec, min_press_ms=3) as inputs:
        ada, ben = inputs.device("Ada").pin, inputs.device("Ben").pin
        ada.drive_low_at(T0)
        ada.drive_high_at(T0 + 2.5 * MS)  # an IR receiver's dropout: shorter than 3 ms
        ben.drive_low_at(T0 + 0.2 * MS)
        ben.drive_high_at(T0 + 3.5 * MS)  # a quick but real press: still down at 3 ms
        assert inputs.flush(WAIT_S)
    assert [(t.player, t.t_us) for t in rec.tosses] == [("Ben", us(T0 + 0.2 * MS))]


def test_a_real_press_just_after_a_glitch_still_counts(tick_factory):
    """The glitch opens no lockout: the real press 5 ms later is a toss."""
    rec = Recorder()
    with open_inputs(tick_factory, rec, min_press_ms=3) as inputs:
        pin = inputs.device("Cleo").pin
        pin.drive_low_at(T0)
        pin.drive_high_at(T0 + 1 * US)
        pin.drive_low_at(T0 + 5 * MS)
        assert inputs.flush(WAIT_S)
    assert [(t.player, t.t_us) for t in rec.tosses] == [("Cleo", us(T0 + 5 * MS))]


def test_an_undecided_press_holds_back_later_tosses_of_other_inputs(tick_factory, monkeypatch):
    """Ada's press (earlier edge, still pending) is delivered before Ben's, which is older by arrival."""
    rec = Recorder()
    delivered = threading.Event()
    now = [10**12]  # the dispatcher's clock, moved by the test (issue 28: no pause that load could stretch)
    monkeypatch.setattr(tosses_module, "_clock", lambda: now[0])

    def on_toss(event):
        rec.on_toss(event)
        delivered.set()

    with TossInputs(players(), pin_factory=tick_factory, order_window_ms=40, min_press_ms=3,
                    on_toss=on_toss) as inputs:
        inputs.device("Ben").pin.drive_low_at(T0 + 1 * MS)
        now[0] += 20 * 1_000_000  # 20 ms on: Ben's window is still open when Ada's earlier edge arrives
        inputs.device("Ada").pin.drive_low_at(T0)
        wait_until(lambda: inputs._by_name["Ada"].lockout.pending is not None, "Ada's edge to be taken in")
        now[0] += 25 * 1_000_000  # Ben's press is decided and its window over; Ada's press is not decided yet
        wait_until(lambda: inputs.stats()["Ben"].tosses == 1, "Ben's press to be decided")
        assert rec.tosses == []  # Ben's toss waits for Ada's
        now[0] += 100 * 1_000_000
        assert delivered.wait(WAIT_S)
        assert inputs.flush(WAIT_S)
    assert [t.player for t in rec.tosses] == ["Ada", "Ben"]


def test_mock_factory_spike_with_monotonic_ticks_is_filtered(mock_factory, monkeypatch):
    """Plain MockPin: drive_low() then drive_high() at once is a pulse of some µs, not a toss. The two
    calls are 5 µs apart on gpiozero's clock whatever the machine's load (a starved thread once took
    over 3 ms between them), then the clock runs on."""
    import time

    import gpiozero.pins.mock

    stopped: list[float] = []
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", lambda: stopped[-1] if stopped else time.monotonic())
    rec = Recorder()
    with open_inputs(mock_factory, rec, min_press_ms=3) as inputs:
        pin = inputs.device("Ada").pin
        stopped.append(time.monotonic())
        pin.drive_low()
        stopped.append(stopped[-1] + 5e-6)
        pin.drive_high()
        stopped.clear()
        assert inputs.flush(WAIT_S)
        assert rec.tosses == [] and inputs.stats()["Ada"].glitches == 1
        inputs.simulate_press("Ada", hold_s=0)  # made long enough to count
        assert inputs.flush(WAIT_S)
    assert [t.player for t in rec.tosses] == ["Ada"]


def test_the_filter_is_decided_inside_the_order_window(tick_factory):
    with pytest.raises(ConfigError, match="min_press_ms .*shorter than tosses.order_window_ms"):
        TossInputs(players(), pin_factory=tick_factory, order_window_ms=2, min_press_ms=3)
    with TossInputs(players(), pin_factory=tick_factory, order_window_ms=2) as inputs:
        assert inputs.min_press_us == 1200  # the default is 60% of a short window


def test_config_min_press_ms():
    config = RigConfig.parse("[tosses]\nmin_press_ms = 4\norder_window_ms = 6\n", source="rig.toml")
    assert config.tosses.min_press == 4.0
    assert RigConfig.default().tosses.min_press == 3.0
    with pytest.raises(ConfigError, match=r"rig.toml:2: tosses.min_press_ms: 5 ms must be shorter"):
        RigConfig.parse("[tosses]\nmin_press_ms = 5\n", source="rig.toml")


def test_lockout_pending_press_is_not_settled():
    lock = Lockout(30_000, min_press_us=3_000)
    lock.edge(0, True)
    assert lock.settle() == [] and lock.pending == 0
    assert lock.edge(10_000, False) == [(True, 0)]  # an edge after 3 ms decides the press...
    assert lock.settle() == [(False, 10_000)]  # ...and the release inside the lockout settles later


def test_pigpio_ticks_are_refused(mock_factory):
    """gpiozero's pigpio factory can't be built here (no pigpio daemon): a real MockFactory under its
    class name stands for it; check_ticks goes by the class name."""
    assert check_ticks(mock_factory) is mock_factory
    pigpio_like = type("PiGPIOFactory", (MockFactory,), {})()
    try:
        with pytest.raises(HardwareError, match="wrapping microseconds"):
            TossInputs(players(), pin_factory=pigpio_like)
    finally:
        pigpio_like.reset()


def test_a_press_whose_bounce_came_late_is_mended_not_lost():
    """The order window ran out in the middle of a bounce (a descheduled thread): the press is
    judged a glitch, but its next edge, still inside the minimum press time, reopens it."""
    lock = Lockout(30_000, min_press_us=3_000)
    lock.edge(1_000, True)
    lock.edge(1_050, False)  # bounce...
    assert lock.confirm() == [] and lock.glitches == 1  # ...decided too early
    assert lock.edge(1_300, True) == [] and lock.pending == 1_000  # the late edge: the same press
    assert lock.confirm() == [(True, 1_000)] and lock.glitches == 0


def test_a_press_judged_a_glitch_before_its_bounces_arrived_counts_them_as_dropped(tick_factory):
    # What a thread starved between a press's bounce edges made happen at random in test_tosses.py's
    # test_no_toss_is_lost_when_edges_come_from_many_threads:
    # the press is judged (here: by flush) after its first bounce, then mended by the next one.
    rec = Recorder()
    with open_inputs(tick_factory, rec, order_window_ms=2) as inputs:
        pin = inputs.device("Ada").pin
        pin.drive_low_at(T0)
        pin.drive_high_at(T0 + 100 * US)
        assert inputs.flush(WAIT_S)
        assert inputs.stats()["Ada"].glitches == 1
        pin.drive_low_at(T0 + 200 * US)
        assert inputs.flush(WAIT_S)
        stats = inputs.stats()["Ada"]
    assert [t.t_us for t in rec.tosses] == [us(T0)]
    assert (stats.tosses, stats.dropped, stats.glitches) == (1, 2, 0)

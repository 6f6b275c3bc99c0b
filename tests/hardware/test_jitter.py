"""Jitter calibration: simultaneous edges through the real gpiozero stack (MockFactory), exact ticks via TickPin."""

import math
import time

import pytest
from gpiozero.pins.mock import MockFactory

from rig.config import PlayerInput
from rig.errors import HardwareError
from rig.hardware.gpio_mock import TickPin
from rig.hardware.jitter import measure_jitter, summarise

PLAYERS = [PlayerInput(name, pin) for name, pin in
           [("Ada", "GPIO17"), ("Ben", "GPIO27"), ("Cleo", "GPIO22"), ("Dev", "GPIO23")]]
LAGS_US = {"Ada": 0, "Ben": 2, "Cleo": 5, "Dev": 9}  # how late each input timestamps the same edge


def test_the_measured_spread_is_the_inputs_lag_and_gives_the_window():
    factory = MockFactory(pin_class=TickPin)
    try:
        pins = {p.name: factory.pin(p.pin) for p in PLAYERS}

        def driver(active):  # one edge at one instant, each input stamping it a few µs late
            t0 = time.monotonic()
            for name, pin in pins.items():
                (pin.drive_low_at if active else pin.drive_high_at)(t0 + LAGS_US[name] / 1e6)

        report = measure_jitter(PLAYERS, pin_factory=factory, rounds=8, hold_s=0.02, gap_s=0.04, driver=driver)
    finally:
        factory.reset()
    assert len(report.spreads) == 8 and report.missed == 0
    assert all(8 <= spread <= 10 for spread in report.spreads)  # 9 µs, ±1 for rounding the ticks
    assert report.offsets["Dev"] == pytest.approx(9, abs=1) and report.offsets["Ada"] == pytest.approx(0, abs=1)
    assert report.suggested_window_us == pytest.approx(14, abs=2)
    assert "suggested: [tosses] tie_window_us = " in report.format()


def test_mock_pins_driven_together_are_a_simulation():
    """The mock pins are stamped when this thread drives them, so the spread is that loop's wall time: on a loaded
    machine one round took 31 ms (a CI run). Only what does not depend on the machine's load is checked."""
    factory = MockFactory()
    try:
        report = measure_jitter(PLAYERS, pin_factory=factory, rounds=5, hold_s=0.02, gap_s=0.04)
    finally:
        factory.reset()
    assert report.simulated and len(report.spreads) == 5 and report.missed == 0
    assert all(spread >= 0 for spread in report.spreads)
    assert report.offsets["Ada"] == 0.0  # driven first, so every round's first edge
    assert report.suggested_window_us == max(1, math.ceil(report.worst_us * 1.5))
    assert "simulated: mock pins driven one after another" in report.format()


def test_a_round_is_the_edges_it_fired_even_when_the_firing_thread_pauses_mid_round():
    """Simulated edges are stamped when the pins are driven: a thread paused between two pins (a loaded
    machine; once in the suite) spread one round over more than the quiet gap that used to end a round,
    and the round counted as two incomplete ones."""
    factory = MockFactory(pin_class=TickPin)
    try:
        pins = {p.name: factory.pin(p.pin) for p in PLAYERS}

        def driver(active):  # Ada's edge, then a 30 ms pause before the others (the gap is 40 ms)
            t0 = time.monotonic()
            for name, pin in pins.items():
                (pin.drive_low_at if active else pin.drive_high_at)(t0 + (0 if name == "Ada" else 0.03))

        report = measure_jitter(PLAYERS, pin_factory=factory, rounds=4, hold_s=0.02, gap_s=0.04, driver=driver)
    finally:
        factory.reset()
    assert len(report.spreads) == 4 and report.missed == 0
    assert all(29_000 <= spread <= 31_000 for spread in report.spreads)


def test_zero_rounds_are_refused():
    factory = MockFactory()
    with pytest.raises(HardwareError, match="--rounds must be at least 1"):
        measure_jitter(PLAYERS, pin_factory=factory, rounds=0)


def test_a_round_an_input_missed_is_left_out():
    fired = [[("A", 0), ("B", 4)], [("A", 100_000)]]  # B missed the second edge
    report = summarise(["A", "B"], 2, fired)
    assert report.spreads == (4,) and report.missed == 2

"""Toss inputs on the Pi's real GPIO through lgpio (skipped unless RIG_HARDWARE=1).

The loopback tests need a jumper wire from one free GPIO to another, named in
``RIG_TEST_LOOPBACK=OUT,IN`` (e.g. ``GPIO20,GPIO21``); they are skipped without it.
"""

import os
import time

import pytest

from rig.config import PlayerInput
from rig.errors import HardwareError


@pytest.fixture
def factory():
    from rig.hardware.tosses import resolve_pin_factory

    return resolve_pin_factory()


@pytest.fixture
def loopback():
    spec = os.environ.get("RIG_TEST_LOOPBACK")
    if not spec:
        pytest.skip("set RIG_TEST_LOOPBACK=OUT,IN with a jumper wire between those two GPIOs")
    out_pin, in_pin = (part.strip() for part in spec.split(","))
    return out_pin, in_pin


def test_the_pin_factory_is_lgpio_with_kernel_timestamps(factory):
    from rig.hardware.tosses import describe_factory

    assert describe_factory(factory) == "lgpio (kernel edge timestamps)"


def test_not_a_gpio_is_refused(factory):
    from rig.hardware.tosses import TossInputs

    with pytest.raises(HardwareError, match="player 'Ada': 'GPIO99' is not a usable GPIO pin"):
        TossInputs([PlayerInput("Ada", "GPIO99")], pin_factory=factory)


def test_edge_time_is_the_kernel_tick_on_the_monotonic_clock(factory, loopback):
    from gpiozero import DigitalOutputDevice

    from rig.hardware.tosses import TossInputs

    out_pin, in_pin = loopback
    tosses = []
    with DigitalOutputDevice(out_pin, initial_value=True, pin_factory=factory) as out, \
            TossInputs([PlayerInput("Ada", in_pin)], pin_factory=factory, on_toss=tosses.append) as inputs:
        time.sleep(0.05)
        before = time.monotonic_ns() // 1000
        out.off()  # pull the input low: a press
        after = time.monotonic_ns() // 1000
        time.sleep(0.1)
        out.on()
        time.sleep(0.1)
        assert inputs.flush()
    (toss,) = tosses
    assert before <= toss.t_us <= after + 1000  # the edge, not when Python saw it
    assert toss.source == f"button:{in_pin}"


def test_a_bounce_train_on_real_pins_is_one_toss(factory, loopback):
    from gpiozero import DigitalOutputDevice

    from rig.hardware.tosses import TossInputs

    out_pin, in_pin = loopback
    tosses = []
    with DigitalOutputDevice(out_pin, initial_value=True, pin_factory=factory) as out, \
            TossInputs([PlayerInput("Ada", in_pin)], pin_factory=factory, on_toss=tosses.append) as inputs:
        time.sleep(0.05)
        for _ in range(5):
            out.off()
            out.on()
        out.off()
        time.sleep(0.1)
        out.on()
        time.sleep(0.1)
        inputs.flush()
        dropped = inputs.stats()["Ada"].dropped
    assert len(tosses) == 1 and dropped >= 1


def test_pin_already_open_is_refused(factory, loopback):
    from rig.hardware.tosses import TossInputs

    _out_pin, in_pin = loopback
    with TossInputs([PlayerInput("Ada", in_pin)], pin_factory=factory):
        with pytest.raises(HardwareError, match=f"player 'Ben': pin {in_pin} is already in use"):
            TossInputs([PlayerInput("Ben", in_pin)], pin_factory=factory)


@pytest.fixture
def two_loopbacks(loopback):
    spec = os.environ.get("RIG_TEST_LOOPBACK2")
    if not spec:
        pytest.skip("set RIG_TEST_LOOPBACK2=OUT,IN with a second jumper wire, for cross-pin order")
    return loopback, tuple(part.strip() for part in spec.split(","))


def test_cross_pin_order_on_two_loopback_pairs(factory, two_loopbacks):
    """Two inputs pressed ~0.2 ms apart, alternating who goes first: delivered in edge order, every time."""
    from gpiozero import DigitalOutputDevice

    from rig.hardware.tosses import TossInputs

    (out_a, in_a), (out_b, in_b) = two_loopbacks
    tosses = []
    with DigitalOutputDevice(out_a, initial_value=True, pin_factory=factory) as a, \
            DigitalOutputDevice(out_b, initial_value=True, pin_factory=factory) as b, \
            TossInputs([PlayerInput("Ada", in_a), PlayerInput("Ben", in_b)], pin_factory=factory,
                       on_toss=tosses.append) as inputs:
        time.sleep(0.05)
        expected = []
        for round_ in range(20):
            first, second = ((a, "Ada"), (b, "Ben")) if round_ % 2 == 0 else ((b, "Ben"), (a, "Ada"))
            first[0].off()
            t = time.perf_counter()
            while time.perf_counter() - t < 0.0002:
                pass
            second[0].off()
            expected += [first[1], second[1]]
            time.sleep(0.1)  # held 100 ms: past the glitch filter's minimum press time
            a.on()
            b.on()
            time.sleep(0.1)  # past the lockout
        assert inputs.flush()
    assert [t.player for t in tosses] == expected
    assert all(x.t_us < y.t_us for x, y in zip(tosses[::2], tosses[1::2]))


def test_a_spike_on_a_real_pin_is_a_glitch_not_a_toss(factory, loopback):
    from gpiozero import DigitalOutputDevice

    from rig.hardware.tosses import TossInputs

    out_pin, in_pin = loopback
    tosses = []
    with DigitalOutputDevice(out_pin, initial_value=True, pin_factory=factory) as out, \
            TossInputs([PlayerInput("Ada", in_pin)], pin_factory=factory, on_toss=tosses.append) as inputs:
        time.sleep(0.05)
        out.off()
        out.on()  # a pulse of some µs: far shorter than the 3 ms minimum press
        time.sleep(0.1)
        assert inputs.flush()
        assert tosses == [] and inputs.stats()["Ada"].glitches == 1

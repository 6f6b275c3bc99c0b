"""Toss inputs through gpiozero's real MockFactory (TickPin injects exact edge ticks)."""

import subprocess
import sys
import threading
import time

import pytest
from gpiozero import Button

from rig.config import PlayerInput, RigConfig
from rig.errors import ConfigError, HardwareError
from rig.hardware.tosses import (
    BreakBeam,
    InputFault,
    ReleaseEvent,
    TossButton,
    TossEvent,
    TossInputs,
    resolve_pin_factory,
)
from tests.waiting import WAIT_S

T0 = 5000.0  # seconds, like lgpio's ns / 1e9
US = 1e-6
MS = 1e-3
PINS = ("GPIO17", "GPIO27", "GPIO22", "GPIO5", "GPIO6", "GPIO26", "GPIO23", "GPIO24")


def us(seconds: float) -> int:
    return round(seconds * 1_000_000)


class Recorder:
    def __init__(self):
        self.tosses, self.releases, self.faults, self.all, self.threads = [], [], [], [], set()

    def _add(self, bucket, event):
        self.threads.add(threading.current_thread().name)
        bucket.append(event)
        self.all.append(event)

    def on_toss(self, event):
        self._add(self.tosses, event)

    def on_release(self, event):
        self._add(self.releases, event)

    def on_fault(self, event):
        self._add(self.faults, event)

    def callbacks(self):
        return {"on_toss": self.on_toss, "on_release": self.on_release, "on_fault": self.on_fault}


def players(n=3, kinds=None):
    kinds = kinds or ["button"] * n
    names = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]
    return [PlayerInput(name, pin, kind) for name, pin, kind in zip(names, PINS, kinds)]


def open_inputs(factory, rec, specs=None, **kwargs):
    kwargs.setdefault("order_window_ms", 1000)  # tests flush(); arrival timing never matters
    return TossInputs(specs or players(), pin_factory=factory, **rec.callbacks(), **kwargs)


def press_train(pin, t, gaps_us=()):
    """Press at t, then bounce: alternating edges after the given gaps, ending pressed."""
    pin.drive_low_at(t)
    level = False
    for gap in gaps_us:
        t += gap * US
        level = not level
        (pin.drive_high_at if level else pin.drive_low_at)(t)
    if level:
        pin.drive_low_at(t + 50 * US)


def release_train(pin, t, gaps_us=()):
    pin.drive_high_at(t)
    level = True
    for gap in gaps_us:
        t += gap * US
        level = not level
        (pin.drive_low_at if not level else pin.drive_high_at)(t)
    if not level:
        pin.drive_high_at(t + 50 * US)


def wait_for(condition, timeout=WAIT_S):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


# --- the devices -------------------------------------------------------------------------


def test_toss_button_keeps_the_pins_edge_tick(tick_factory):
    edges, pressed = [], []
    with TossButton("GPIO17", player="Ada", when_edge=lambda t, a: edges.append((t, a)),
                    pin_factory=tick_factory) as button:
        button.when_pressed = lambda: pressed.append(True)
        assert button.player == "Ada" and button.kind == "button" and not button.is_pressed
        button.pin.drive_low_at(123.456789)
        assert button.is_pressed and button.last_edge_us == 123_456_789
        button.pin.drive_high_at(123.5)
        assert edges == [(123_456_789, True), (123_500_000, False)]
        assert pressed == [True]  # gpiozero's own events still work
        assert "Ada" in repr(button)


def test_break_beam_is_broken_when_pulled_low(tick_factory):
    edges = []
    with BreakBeam("GPIO27", player="Ben", when_edge=lambda t, a: edges.append((t, a)),
                   pin_factory=tick_factory) as beam:
        assert beam.kind == "beam" and not beam.is_broken  # pull-up: beam intact reads high
        beam.pin.drive_low_at(7.000001)
        assert beam.is_broken
        assert edges == [(7_000_001, True)]


# --- ordering ----------------------------------------------------------------------------


def test_tosses_are_ordered_by_edge_tick_not_by_arrival(tick_factory):
    rec = Recorder()
    specs = players(4)
    with open_inputs(tick_factory, rec, specs) as inputs:
        pins = {p.name: inputs.device(p.name).pin for p in specs}
        # arrival order Dev, Ben, Ada, Cleo; edge order Ada < Ben < Cleo < Dev, 1 µs apart
        for name, offset in [("Dev", 3), ("Ben", 1), ("Ada", 0), ("Cleo", 2)]:
            pins[name].drive_low_at(T0 + offset * US)
        assert inputs.flush(WAIT_S)
    assert [(t.player, t.t_us) for t in rec.tosses] == [
        ("Ada", us(T0)), ("Ben", us(T0) + 1), ("Cleo", us(T0) + 2), ("Dev", us(T0) + 3)]
    assert rec.threads == {"rig-tosses"}  # delivered from the inputs' own thread


def test_equal_ticks_are_both_delivered_earlier_logged_first(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec) as inputs:
        inputs.device("Cleo").pin.drive_low_at(T0)
        inputs.device("Ben").pin.drive_low_at(T0)
        assert inputs.flush(WAIT_S)
    assert [(t.player, t.t_us) for t in rec.tosses] == [("Cleo", us(T0)), ("Ben", us(T0))]


def test_events_wait_for_the_order_window_then_come_in_tick_order(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec, order_window_ms=200) as inputs:
        inputs.device("Ben").pin.drive_low_at(T0 + 200 * US)
        inputs.device("Ada").pin.drive_low_at(T0)
        assert wait_for(lambda: len(rec.tosses) == 2)  # no flush: the window runs out by itself
    assert [t.player for t in rec.tosses] == ["Ada", "Ben"]


# --- bounce -------------------------------------------------------------------------------


def test_bounce_train_gives_one_toss_at_the_first_edge(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec) as inputs:
        pin = inputs.device("Ada").pin
        press_train(pin, T0, gaps_us=[300, 200, 900, 150])  # 4 bounce edges
        release_train(pin, T0 + 80 * MS, gaps_us=[400, 600])      # 2 bounce edges
        assert inputs.flush(WAIT_S)
        stats = inputs.stats()["Ada"]
    assert rec.tosses == [TossEvent("Ada", us(T0), "sim:button:GPIO17")]
    assert rec.releases == [ReleaseEvent("Ada", us(T0 + 80 * MS), 80_000)]
    assert (stats.tosses, stats.dropped, stats.faults) == (1, 6, 0)


def test_release_and_press_after_the_lockout_is_a_new_toss(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec) as inputs:
        pin = inputs.device("Ben").pin
        pin.drive_low_at(T0)
        pin.drive_high_at(T0 + 40 * MS)
        pin.drive_low_at(T0 + 75 * MS)
        assert inputs.flush(WAIT_S)
    assert [t.t_us for t in rec.tosses] == [us(T0), us(T0 + 75 * MS)]
    assert [r.held_us for r in rec.releases] == [40_000]


def test_release_and_press_inside_the_lockout_is_bounce(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec) as inputs:
        pin = inputs.device("Ben").pin
        pin.drive_low_at(T0)
        pin.drive_high_at(T0 + 10 * MS)
        pin.drive_low_at(T0 + 20 * MS)
        assert inputs.flush(WAIT_S)
        assert inputs.stats()["Ben"].dropped == 2
    assert [t.t_us for t in rec.tosses] == [us(T0)]


def test_lockout_is_configurable(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec, lockout_ms=5) as inputs:
        pin = inputs.device("Ben").pin
        pin.drive_low_at(T0)
        pin.drive_high_at(T0 + 10 * MS)
        pin.drive_low_at(T0 + 20 * MS)
        assert inputs.flush(WAIT_S)
    assert [t.t_us for t in rec.tosses] == [us(T0), us(T0 + 20 * MS)]


def test_a_tap_shorter_than_the_lockout_is_released_when_the_lockout_ends(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec, lockout_ms=20) as inputs:
        pin = inputs.device("Cleo").pin
        pin.drive_low_at(T0)
        pin.drive_high_at(T0 + 4 * MS)  # inside the lockout: dropped, but the level is kept
        assert wait_for(lambda: inputs.flush(WAIT_S) and rec.releases)
        assert inputs.stats()["Cleo"].stuck is False
    assert rec.releases == [ReleaseEvent("Cleo", us(T0 + 4 * MS), 4000)]


# --- the 3-player double toss ---------------------------------------------------------------


def test_three_player_double_toss(tick_factory):
    """Ada rolls; Ben (button) and Cleo (beam) each toss two cards, interleaved, with bounce."""
    rec = Recorder()
    specs = players(3, ["button", "button", "beam"])
    with open_inputs(tick_factory, rec, specs) as inputs:
        ben, cleo = inputs.device("Ben").pin, inputs.device("Cleo").pin
        # Cleo's edges arrive first although Ben's first card was earlier
        press_train(cleo, T0 + 400 * US, gaps_us=[30, 40])
        release_train(cleo, T0 + 32 * MS)
        press_train(cleo, T0 + 70 * MS, gaps_us=[20])
        press_train(ben, T0, gaps_us=[500, 700, 100])
        release_train(ben, T0 + 50 * MS, gaps_us=[900])
        press_train(ben, T0 + 90 * MS)
        assert inputs.flush(WAIT_S)
    assert [(t.player, t.t_us) for t in rec.tosses] == [
        ("Ben", us(T0)),
        ("Cleo", us(T0 + 400 * US)),
        ("Cleo", us(T0 + 70 * MS)),
        ("Ben", us(T0 + 90 * MS)),
    ]
    assert {t.source for t in rec.tosses} == {"sim:button:GPIO27", "sim:beam:GPIO22"}


# --- stuck inputs ---------------------------------------------------------------------------


def test_input_active_at_start_is_a_fault_and_gives_no_toss(tick_factory):
    tick_factory.pin("GPIO27").wire_low()  # Ben's button jammed before the rig starts
    rec = Recorder()
    with open_inputs(tick_factory, rec) as inputs:
        assert inputs.flush(WAIT_S)
        assert inputs.stats()["Ben"].stuck
        inputs.device("Ada").pin.drive_low_at(T0)
        ben = inputs.device("Ben").pin
        ben.drive_high_at(T0 + 10 * MS)  # freed: recovered, not a release
        ben.drive_low_at(T0 + 100 * MS)  # and now a real toss
        assert inputs.flush(WAIT_S)
        assert not inputs.stats()["Ben"].stuck
    assert [f.kind for f in rec.faults] == ["stuck", "recovered"]
    stuck = rec.faults[0]
    assert (stuck.player, stuck.pin) == ("Ben", "GPIO27") and "at start" in stuck.detail
    assert [(t.player, t.t_us) for t in rec.tosses] == [("Ada", us(T0)), ("Ben", us(T0 + 100 * MS))]
    assert [r.player for r in rec.releases] == []


def test_input_held_longer_than_stuck_after_is_a_fault(tick_factory):
    rec = Recorder()
    with open_inputs(tick_factory, rec, stuck_after_s=0.2) as inputs:
        beam = inputs.device("Cleo").pin
        beam.drive_low_at(T0)
        assert wait_for(lambda: inputs.flush(WAIT_S) and rec.faults)
        assert inputs.stats()["Cleo"].stuck
        beam.drive_high_at(T0 + 30)
        beam.drive_low_at(T0 + 31)
        assert inputs.flush(WAIT_S)
    # (on a slow machine the new press may stick too before close: look at the first two)
    assert [f.kind for f in rec.faults][:2] == ["stuck", "recovered"]
    assert "more than 0.2 s" in rec.faults[0].detail
    assert [t.t_us for t in rec.tosses] == [us(T0), us(T0 + 31)]
    assert rec.releases == []  # the stuck press is not a hold
    assert isinstance(rec.all[1], InputFault)


# --- pins -------------------------------------------------------------------------------------


@pytest.mark.parametrize("pin", ["GPIO99", "foo", "BOARD1"])
def test_bad_pin_name_is_a_clear_error(mock_factory, pin):
    specs = [PlayerInput("Ada", "GPIO17"), PlayerInput("Ben", pin)]
    with pytest.raises(HardwareError, match=f"player 'Ben': '{pin}' is not a usable GPIO pin"):
        TossInputs(specs, pin_factory=mock_factory)
    Button("GPIO17", pin_factory=mock_factory).close()  # Ada's pin was given back


def test_same_pin_twice_names_both_players(mock_factory):
    specs = [PlayerInput("Ada", "GPIO17"), PlayerInput("Ben", "BCM17")]
    with pytest.raises(HardwareError, match="player 'Ben': pin BCM17 is already used by player 'Ada'"):
        TossInputs(specs, pin_factory=mock_factory)


def test_pin_in_use_elsewhere_is_a_clear_error(mock_factory):
    with Button("GPIO22", pin_factory=mock_factory):
        with pytest.raises(HardwareError, match="player 'Cleo': pin GPIO22 is already in use"):
            TossInputs(players(3), pin_factory=mock_factory)


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        ([], "no players"),
        ([PlayerInput("Ada", "GPIO17", "pedal")], "kind 'pedal' is not one of button, beam"),
        ([PlayerInput("Ada", "GPIO17"), PlayerInput("Ada", "GPIO27")], "listed twice"),
    ],
)
def test_bad_players_are_config_errors(mock_factory, specs, message):
    with pytest.raises(ConfigError, match=message):
        TossInputs(specs, pin_factory=mock_factory)


def test_from_config_takes_players_and_timings(mock_factory):
    config = RigConfig.parse(
        '[tosses]\nlockout_ms = 12\nstuck_after_s = 4\norder_window_ms = 2.5\n'
        '[[players]]\nname = "Ada"\npin = "GPIO17"\n'
        '[[players]]\nname = "Ben"\npin = "GPIO27"\nkind = "beam"\n'
        '[[players]]\nname = "Cleo"\npin = "GPIO22"\n'
    )
    with TossInputs.from_config(config, pin_factory=mock_factory) as inputs:
        assert inputs.players == ("Ada", "Ben", "Cleo")
        assert (inputs.lockout_us, inputs.stuck_after_us) == (12_000, 4_000_000)
        assert inputs.order_window_ns == 2_500_000
        assert isinstance(inputs.device("Ben"), BreakBeam)
        assert "Ben=beam:GPIO27" in repr(inputs)


# --- simulation and threads ---------------------------------------------------------------


def test_from_config_default_order_window_is_5_ms(mock_factory):
    with TossInputs.from_config(RigConfig.default(), pin_factory=mock_factory) as inputs:
        assert inputs.order_window_ns == 5_000_000


def test_alive_while_open_and_its_thread_runs(mock_factory):
    inputs = TossInputs(players(), pin_factory=mock_factory)
    assert inputs.alive is True
    inputs.close()
    assert inputs.alive is False
    broken = TossInputs(players(), pin_factory=mock_factory)
    try:
        from rig.hardware.tosses import _STOP

        broken._queue.put((_STOP,))  # the delivery thread ends although nobody closed the inputs
        broken._thread.join(WAIT_S)
        assert broken.alive is False
    finally:
        broken.close()



def test_simulate_press_goes_through_the_mock_pin(mock_factory):
    rec = Recorder()
    with TossInputs(players(), **rec.callbacks()) as inputs:  # gpiozero's default factory: the mock
        inputs.simulate_press("Cleo", hold_s=0.04, bounces=2)
        assert wait_for(lambda: inputs.flush(WAIT_S) and rec.releases)
        assert inputs.stats()["Cleo"].dropped == 8
        with pytest.raises(HardwareError, match="no toss input for player 'Zed'"):
            inputs.simulate_press("Zed")
    (toss,) = rec.tosses
    assert (toss.player, toss.source) == ("Cleo", "sim:button:GPIO22")
    assert rec.releases[0].held_us >= 40_000


def test_no_toss_is_lost_when_edges_come_from_many_threads(tick_factory):
    rec = Recorder()
    specs = players(8)
    presses = 40
    with open_inputs(tick_factory, rec, specs, order_window_ms=2) as inputs:
        def hammer(index, name):
            pin = inputs.device(name).pin
            for k in range(presses):
                t = T0 + k * 0.1 + index * US
                press_train(pin, t, gaps_us=[100, 100])
                release_train(pin, t + 0.05)

        threads = [threading.Thread(target=hammer, args=(i, p.name)) for i, p in enumerate(specs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert inputs.flush(WAIT_S)
        stats = inputs.stats()
    assert len(rec.tosses) == 8 * presses and len(rec.releases) == 8 * presses
    assert all(s.tosses == presses and s.dropped == 2 * presses for s in stats.values())
    for name in (p.name for p in specs):
        mine = [t.t_us for t in rec.tosses if t.player == name]
        assert mine == sorted(mine) and len(set(mine)) == presses


def test_a_failing_callback_does_not_stop_the_inputs(tick_factory, caplog):
    seen = []

    def on_toss(event):
        seen.append(event)
        if len(seen) == 1:
            raise RuntimeError("database on fire")

    with TossInputs(players(), pin_factory=tick_factory, on_toss=on_toss) as inputs:
        inputs.device("Ada").pin.drive_low_at(T0)
        inputs.device("Ben").pin.drive_low_at(T0 + MS)
        assert inputs.flush(WAIT_S)
    assert [t.player for t in seen] == ["Ada", "Ben"]
    assert "database on fire" in caplog.text


def test_close_delivers_what_is_still_waiting(tick_factory):
    rec = Recorder()
    inputs = open_inputs(tick_factory, rec, order_window_ms=60_000)
    inputs.device("Ada").pin.drive_low_at(T0)
    inputs.device("Ada").pin.drive_high_at(T0 + 5 * MS)  # a tap inside the lockout
    inputs.close()
    inputs.close()  # twice is fine
    assert [type(e).__name__ for e in rec.all] == ["TossEvent", "ReleaseEvent"]
    assert inputs.device("Ada").closed


def test_no_gpio_on_this_machine_says_so(no_gpio):
    with pytest.raises(HardwareError, match="no GPIO on this machine.*GPIOZERO_PIN_FACTORY=mock"):
        resolve_pin_factory()


def test_importing_rig_hardware_imports_no_gpio_library():
    code = ("import sys, rig.hardware; "
            "assert 'gpiozero' not in sys.modules and 'picamera2' not in sys.modules, sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_simulated_press_on_an_input_still_held_lets_go_of_the_earlier_one_first(tick_factory):
    # the earlier press's release timer is late (here: an hour late), as a starved thread makes it at random
    rec = Recorder()
    clock = [T0]
    with open_inputs(tick_factory, rec, order_window_ms=2) as inputs:
        inputs.pin_factory.ticks = lambda: clock[0]  # the presses a second apart on the edges' clock
        for bounces in (0, 0, 2):
            inputs.simulate_press("Ada", hold_s=3600, bounces=bounces)
            clock[0] += 1.0
        assert inputs.flush(WAIT_S)
    stats = inputs.stats()["Ada"]  # closed: the third press, settled at the close, counted too
    first, second, third = (t.t_us for t in rec.tosses)
    # the third press comes on the tick its forced release went: inside that lockout, dated by its last bounce
    assert (first, second) == (us(T0), us(T0 + 1)) and us(T0 + 2) <= third <= us(T0 + 2) + 100
    assert [r.t_us for r in rec.releases] == [us(T0 + 1), us(T0 + 2)]  # the last one still held at the end
    assert (stats.tosses, stats.glitches) == (3, 0)

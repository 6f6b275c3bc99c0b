"""``rig tosses``: watch the toss inputs live — the wiring test after mounting the buttons.

Prints every press with its edge time in µs and the gap to the previous press, every
release with how long it was held and how many bounce edges were dropped, and every
fault (an input stuck active). Players come from ``--config FILE``, from ``--pin``, else from
the rig's config ($RIG_CONFIG, else /etc/rig/rig.toml). ``--simulate`` presses simulated (mock)
pins on any machine, GPIO or not, with the default players when no config names any.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from pathlib import Path

from rig import argtypes
from rig.i18n import cli_gettext as _


def _pin_arg(text: str):
    from rig.config import PlayerInput, normalize_pin

    name, sep, rest = text.partition("=")
    pin, _, kind = rest.partition(":")
    kind = kind or "button"
    if not sep or not name.strip() or not pin.strip():
        raise argparse.ArgumentTypeError(_("{text}: write NAME=PIN or NAME=PIN:beam, e.g. Ada=GPIO17", text=repr(text)))
    if kind not in ("button", "beam"):
        raise argparse.ArgumentTypeError(_("{text}: the kind after ':' is button or beam, not {kind}", text=repr(text),
                                                      kind=repr(kind)))
    try:
        pin = normalize_pin(pin)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None
    return PlayerInput(name.strip(), pin, kind)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "tosses",
        help=_("show live presses of the toss buttons/beams with µs timestamps (wiring test)"),
        description=_("Prints every press with its edge time in µs and the gap to the previous press, every release "
                      "with how long it was held and how many bounce edges were dropped, and every fault (an input "
                      "stuck active). Players come from --config FILE, from --pin, else from the rig's config "
                      "($RIG_CONFIG, else /etc/rig/rig.toml). --simulate presses simulated (mock) pins on any "
                      "machine, GPIO or not, with the default players when no config names any."),
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--config", type=Path, metavar="FILE",
                        help=_("take the players and their pins from the rig's config file (default: --pin, else "
                             "$RIG_CONFIG, else /etc/rig/rig.toml if installed)"))
    source.add_argument("--pin", type=_pin_arg, action="append", metavar="NAME=GPIO17[:beam]",
                        help=_("a player and their input (repeat for each player; default kind button)"))
    parser.add_argument("--lockout-ms", type=float, metavar="MS", help=_("bounce lockout (default: config, else 30)"))
    parser.add_argument("--stuck-after-s", type=float, metavar="S",
                        help=_("report an input active this long as stuck (default: config, else 10)"))
    parser.add_argument("--count", type=int, metavar="N", help=_("stop after N tosses (with --simulate: press N times)"))
    parser.add_argument("--duration", type=argtypes.between(float, 0.001), metavar="S", help=_("stop after S seconds"))
    parser.add_argument("--simulate", action="store_true",
                        help=_("press simulated (mock) pins: two rounds of every player, or --count presses; "
                             "no GPIO and no config needed"))
    parser.add_argument("--seed", type=argtypes.seed, default=1, help=_("seed of the simulated presses (default 1)"))
    parser.add_argument("--calibrate-jitter", action="store_true",
                        help=_("measure how far apart the inputs timestamp one edge and suggest [tosses] tie_window_us "
                             "(needs --drive PIN wired to every input, or --simulate on mock pins)"))
    parser.add_argument("--drive", metavar="GPIO20",
                        help=_("with --calibrate-jitter: the output pin wired to every toss input"))
    parser.add_argument("--rounds", type=int, default=50, metavar="N",
                        help=_("with --calibrate-jitter: simultaneous edges to fire (default 50)"))
    parser.set_defaults(func=run)


class _Printer:
    """Formats events as lines; called from the inputs' one delivery thread."""

    def __init__(self, out):
        self.out = out
        self.inputs = None
        self.ready = threading.Event()  # set once the header is out and ``inputs`` is known
        self.last_toss_us: int | None = None
        self.dropped_at_press: dict[str, int] = {}
        self.tosses = 0
        self.toss_seen = threading.Condition()
        self.pins: dict[str, str] = {}

    def _line(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _dropped(self, player: str) -> int:
        return self.inputs.stats()[player].dropped

    def on_toss(self, event) -> None:
        self.ready.wait()
        gap = "" if self.last_toss_us is None else f"gap {(event.t_us - self.last_toss_us) / 1000:+10.3f} ms"
        self.last_toss_us = event.t_us
        self.dropped_at_press[event.player] = self._dropped(event.player)
        self._line(f"toss     {event.player:<12} {self.pins[event.player]:<7} {event.t_us:>16} µs  {gap}".rstrip())
        with self.toss_seen:
            self.tosses += 1
            self.toss_seen.notify_all()

    def on_release(self, event) -> None:
        self.ready.wait()
        dropped = self._dropped(event.player) - self.dropped_at_press.get(event.player, 0)
        self._line(f"release  {event.player:<12} {self.pins[event.player]:<7} {event.t_us:>16} µs  "
                   f"held {event.held_us / 1000:.3f} ms, {dropped} bounce edge{'s' if dropped != 1 else ''} dropped")

    def on_fault(self, event) -> None:
        self.ready.wait()
        self._line(f"FAULT    {event.player:<12} {event.pin:<7} {event.kind}: {event.detail}")


def run(args) -> int:
    from rig.config import RigConfig, default_config_path
    from rig.errors import ConfigError
    from rig.hardware.tosses import TossInputs, describe_factory, resolve_pin_factory

    if args.count is not None and args.count < 1:
        raise ConfigError(f"--count must be at least 1, not {args.count}")
    lockout_ms, stuck_after_s, order_window_ms, min_press_ms = 30.0, 10.0, 5.0, None
    path = args.config if args.config is not None else (None if args.pin else default_config_path())
    if path is not None:
        config = RigConfig.load(path)
        players = list(config.players)
        lockout_ms, stuck_after_s = config.tosses.lockout_ms, config.tosses.stuck_after_s
        order_window_ms, min_press_ms = config.tosses.order_window_ms, config.tosses.min_press_ms
    elif args.pin:
        players = args.pin
    elif args.simulate:
        players = list(RigConfig.default().players)  # the default five, on the recommended pins
    else:
        raise ConfigError("which inputs? give --config FILE or --pin NAME=GPIO17 (once per player); "
                          "--simulate tries it on simulated pins without either")
    if args.lockout_ms is not None:
        lockout_ms = args.lockout_ms
    if args.stuck_after_s is not None:
        stuck_after_s = args.stuck_after_s

    if args.simulate:
        from rig.hardware.gpio_mock import mock_factory

        factory = mock_factory()
    else:
        factory = resolve_pin_factory()

    if args.calibrate_jitter:
        return _calibrate_jitter(args, players, factory)

    out = sys.stdout
    printer = _Printer(out)
    inputs = TossInputs(players, pin_factory=factory, lockout_ms=lockout_ms, stuck_after_s=stuck_after_s,
                        order_window_ms=order_window_ms, min_press_ms=min_press_ms,
                        on_toss=printer.on_toss, on_release=printer.on_release, on_fault=printer.on_fault)
    with inputs:
        try:
            printer.inputs = inputs
            printer.pins = {name: str(inputs.device(name).pin) for name in inputs.players}
            print(f"{len(players)} inputs on {describe_factory(factory)}; lockout {lockout_ms:g} ms, "
                  f"stuck after {stuck_after_s:g} s, glitch filter {inputs.min_press_us / 1000:g} ms", file=out)
            for spec in players:
                print(f"  {spec.name:<12} {printer.pins[spec.name]:<7} {spec.kind}", file=out)
            if args.simulate:
                print("Simulating presses (mock pins):", file=out, flush=True)
            else:
                stop = "Ctrl-C to stop" if args.count is None and args.duration is None else "waiting"
                print(f"Press the buttons / break the beams ({stop}).", file=out, flush=True)
        finally:
            printer.ready.set()  # events that came meanwhile are printed after the header
        if args.simulate:
            _simulate(inputs, random.Random(args.seed), count=args.count)
        else:
            try:
                _wait(printer, args.count, args.duration)
            except KeyboardInterrupt:
                pass
    _summary(inputs, out)
    return 0


def _wait(printer: _Printer, count: int | None, duration: float | None) -> None:
    deadline = None if duration is None else time.monotonic() + duration
    with printer.toss_seen:
        while count is None or printer.tosses < count:
            timeout = 0.5 if deadline is None else min(0.5, deadline - time.monotonic())
            if timeout <= 0:
                return
            printer.toss_seen.wait(timeout)


def _simulate(inputs, rng: random.Random, count: int | None = None) -> None:
    """Rounds of every player pressing once with bounce, one near photo finish: two rounds, or
    ``count`` presses in all."""
    names = list(inputs.players)
    presses = count if count is not None else 2 * len(names)
    done = 0
    round_ = 0
    while done < presses:
        order = names[:]
        rng.shuffle(order)
        for i, name in enumerate(order[: presses - done]):
            inputs.simulate_press(name, hold_s=rng.uniform(0.06, 0.12), bounces=rng.randint(0, 3))
            photo_finish = round_ == 0 and i == 0 and len(order) > 1
            time.sleep(0.0003 if photo_finish else rng.uniform(0.04, 0.15))
            done += 1
        round_ += 1
        time.sleep(0.2)
    time.sleep(0.15)
    inputs.flush()


def _summary(inputs, out) -> None:
    stats = inputs.stats()
    print("Summary:", file=out)
    for s in stats.values():
        state = "STUCK" if s.stuck else "ok"
        tosses = "toss,  " if s.tosses == 1 else "tosses,"
        edges = "edge dropped, " if s.dropped == 1 else "edges dropped,"
        print(f"  {s.player:<12} {s.pin:<7} {s.kind:<6} {s.tosses:>3} {tosses} {s.dropped:>3} bounce {edges} "
              f"{s.glitches} glitch{'' if s.glitches == 1 else 'es'}, {s.faults} fault{'' if s.faults == 1 else 's'}, {state}", file=out)


def _calibrate_jitter(args, players, factory) -> int:
    """``--calibrate-jitter``: fire simultaneous edges at every input, print the spread and the tie window."""
    from rig.config import normalize_pin
    from rig.errors import HardwareError
    from rig.hardware.jitter import measure_jitter
    from rig.hardware.tosses import describe_factory

    drive = None
    if args.drive is not None:
        try:
            drive = normalize_pin(args.drive)
        except ValueError as exc:
            raise HardwareError(f"--drive {args.drive!r}: {exc}") from None
    if args.simulate and drive is not None:
        raise HardwareError("--simulate drives the mock input pins themselves: leave out --drive")
    if len(players) < 2:
        raise HardwareError("measuring jitter needs at least two inputs")
    how = f"output {drive} wired to every input" if drive else "the mock input pins driven together"
    print(f"Firing {args.rounds} simultaneous edges at {len(players)} inputs on {describe_factory(factory)} "
          f"({how})...", flush=True)
    report = measure_jitter(players, pin_factory=factory, drive=drive, rounds=args.rounds)
    print(report.format())
    return 0 if report.spreads else 2

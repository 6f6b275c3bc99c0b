"""``rig bench tosses``: toss ordering, bounce handling and latency through the real gpiozero stack.

Edges are injected with exact ticks by :class:`~rig.hardware.gpio_mock.TickPin` into
gpiozero's ``MockFactory``, then travel the same path as on the Pi: pin ``when_changed`` ->
:class:`~rig.hardware.tosses.TossButton` -> :class:`~rig.hardware.tosses.TossInputs`.
Each burst has every player's first edge within 1 ms (or exactly 1 µs apart), bounce trains
on presses and releases, some players pressing twice, and edges arriving in shuffled
player order, and 1 µs glitch spikes between the presses (a long wire, an IR receiver's
dropout). Printed: ordering errors and dropped real tosses (both must be 0), extra
tosses from bounce or glitches (must be 0 with the glitch filter on), and the p50/p99 software latency from injecting an edge to its
:class:`~rig.hardware.tosses.TossEvent` reaching the callback. The same run with the
order window off shows the window's cost in latency, and how often arrival order alone
would be wrong.

The window promises tick order for edges that reach Python within ``order_window_ms`` of
each other. When this benchmark's own injecting thread is descheduled for longer than that
(a busy machine), the late pair is counted as a *bench stall*, not as an ordering error.
Likewise the glitch filter decides a press when its first edge's window is over: a press or
spike whose edges inside the minimum press time were injected more than the rest of the
window late is a bench stall too, not a dropped or extra toss.
Every toss still carries its exact ``t_us``, so consumers that sort by it are unaffected.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

from rig import argtypes

PINS = ("GPIO17", "GPIO27", "GPIO22", "GPIO5", "GPIO6", "GPIO26", "GPIO23", "GPIO24")


def add_arguments(parser) -> None:
    parser.add_argument("--bursts", type=argtypes.count, default=100, help="bursts of presses (default 100)")
    parser.add_argument("--players", type=int, default=8, choices=range(2, 9), metavar="N",
                        help="players, 2-8 (default 8)")
    parser.add_argument("--lockout-ms", type=argtypes.span, default=30.0, help="bounce lockout (default 30)")
    parser.add_argument("--order-window-ms", type=argtypes.span, default=5.0, help="order window (default 5)")
    parser.add_argument("--min-press-ms", type=argtypes.span, default=None,
                        help="glitch filter: minimum press time (default: 3, or 60%% of the order window)")
    parser.add_argument("--glitches", type=argtypes.share, default=0.3,
                        help="share of players given a 1 µs glitch spike per burst (default 0.3)")
    parser.add_argument("--jitter-us", type=argtypes.span, default=1000.0,
                        help="how late an edge may reach Python, shuffling inputs close in time (default 1000)")
    parser.add_argument("--seed", type=argtypes.seed, default=1, help="random seed (default 1)")


@dataclass
class Result:
    window_ms: float
    injected: int = 0
    delivered: int = 0
    out_of_order: int = 0
    bench_stalls: int = 0
    filter_stalls: int = 0
    dropped_real: int = 0
    extra: int = 0
    wrong_time: int = 0
    bounce_injected: int = 0
    bounce_dropped: int = 0
    glitches_injected: int = 0
    glitches_filtered: int = 0
    min_press_ms: float = 0.0
    releases: int = 0
    latencies_us: list[float] = field(default_factory=list)

    def percentile(self, q: float) -> float:
        if not self.latencies_us:
            return float("nan")
        ordered = sorted(self.latencies_us)
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _train(rng: random.Random, start_us: int, final: bool) -> list[tuple[int, bool]]:
    """One press (final=True) or release: the first edge, then 0-6 bounce edges within 2 ms."""
    edges = [(start_us, final)]
    t, level = start_us, final
    for _ in range(rng.choice((0, 0, 1, 2, 3, 4, 5, 6))):
        t += rng.randint(5, 300)
        level = not level
        edges.append((t, level))
    if level != final:
        edges.append((t + rng.randint(5, 300), final))
    return edges


def _player_edges(rng, first_us, lockout_us, double):
    """Edges of one player in one burst, and the first-edge times of its presses."""
    edges, presses = [], []
    t = first_us
    for k in range(2 if double else 1):
        if k:
            t += lockout_us + rng.randint(5_000, 90_000)
        presses.append(t)
        edges += _train(rng, t, True)
        t += lockout_us + rng.randint(10_000, 90_000)
        edges += _train(rng, t, False)
    return edges, presses


def arrival_order(edges, rng: random.Random, jitter_us: float):
    """Edges ``(t_us, player, active)`` in the order a pin library might deliver them.

    Each edge is late by up to *jitter_us*, so edges of different inputs close in time
    arrive shuffled; one input's own edges keep their order (the kernel queues them).

    >>> order = arrival_order([(0, "A", True), (5, "A", False), (1, "B", True)], random.Random(3), 10)
    >>> [e for e in order if e[1] == "A"]
    [(0, 'A', True), (5, 'A', False)]
    """
    keyed = sorted(edges, key=lambda e: e[0] + rng.uniform(0, jitter_us))
    own = {}
    for edge in sorted(edges):
        own.setdefault(edge[1], []).append(edge)
    cursor = {player: iter(items) for player, items in own.items()}
    return [next(cursor[player]) for _t, player, _a in keyed]


def run_once(args, window_ms: float, min_press_ms: float) -> Result:
    from gpiozero.pins.mock import MockFactory

    from rig.config import PlayerInput
    from rig.hardware.gpio_mock import TickPin
    from rig.hardware.tosses import TossInputs

    rng = random.Random(args.seed)
    lockout_us = round(args.lockout_ms * 1000)
    specs = [PlayerInput(f"P{i + 1}", PINS[i], "button" if i % 2 == 0 else "beam") for i in range(args.players)]
    result = Result(window_ms, min_press_ms=min_press_ms)
    delivered: list[tuple[object, int]] = []
    arrived = threading.Condition()
    releases = []

    def on_toss(event) -> None:
        now = time.monotonic_ns()
        with arrived:
            delivered.append((event, now))
            arrived.notify_all()

    factory = MockFactory(pin_class=TickPin)
    injected_at: dict[tuple[str, int], int] = {}
    expected: list[tuple[str, int]] = []
    trains: dict[str, list[int]] = {}  # player -> first-edge times of its presses and spikes
    edge_times: dict[str, list[int]] = {}
    try:
        with TossInputs(specs, pin_factory=factory, lockout_ms=args.lockout_ms, order_window_ms=window_ms,
                        min_press_ms=min_press_ms, on_toss=on_toss, on_release=releases.append) as inputs:
            pins = {spec.name: inputs.device(spec.name).pin for spec in specs}
            base_us = round(time.monotonic() * 1e6) + 1_000_000
            for burst in range(args.bursts):
                start = base_us + burst * 1_000_000
                if burst % 2:  # first edges exactly 1 µs apart
                    offsets = rng.sample(range(len(specs)), len(specs))
                else:  # first edges within 1 ms
                    offsets = [rng.randint(0, 999) for _ in specs]
                tagged = []
                for spec, offset in zip(specs, offsets):
                    edges, presses = _player_edges(rng, start + offset, lockout_us, double=rng.random() < 0.25)
                    tagged += [(t_us, spec.name, active) for t_us, active in edges]
                    expected += [(spec.name, t) for t in presses]
                    trains.setdefault(spec.name, []).extend(presses)
                    edge_times.setdefault(spec.name, []).extend(t for t, _ in edges)
                    result.bounce_injected += len(edges) - 2 * len(presses)
                    if rng.random() < args.glitches:  # a 1 µs spike well after this burst's presses
                        spike = start + rng.randint(600_000, 800_000)
                        tagged += [(spike, spec.name, True), (spike + 1, spec.name, False)]
                        trains[spec.name].append(spike)
                        edge_times[spec.name] += [spike, spike + 1]
                        result.glitches_injected += 1
                previous_us = None
                for t_us, name, active in arrival_order(tagged, rng, args.jitter_us):
                    if previous_us is not None and t_us - previous_us > 2 * args.jitter_us:
                        time.sleep(min(t_us - previous_us, 3_000) / 1e6)  # quiet time between groups
                    previous_us = t_us if previous_us is None else max(previous_us, t_us)
                    injected_at[(name, t_us)] = time.monotonic_ns()
                    pin = pins[name]
                    (pin.drive_low_at if active else pin.drive_high_at)(t_us / 1e6)
                with arrived:
                    arrived.wait_for(lambda: len(delivered) >= len(expected), timeout=2.0)
            inputs.flush()
            result.bounce_dropped = sum(s.dropped for s in inputs.stats().values())
            result.glitches_filtered = sum(s.glitches for s in inputs.stats().values())
    finally:
        factory.reset()

    result.injected = len(expected)
    result.delivered = len(delivered)
    result.releases = len(releases)
    window_ns = window_ms * 1e6
    for (a, _), (b, _) in zip(delivered, delivered[1:]):
        if b.t_us < a.t_us:
            result.out_of_order += 1
            late_ns = injected_at[(b.player, b.t_us)] - injected_at[(a.player, a.t_us)]
            if window_ns and late_ns > window_ns:
                result.bench_stalls += 1  # the bench itself injected b later than the window allows
    got = {(event.player, event.t_us) for event, _ in delivered}
    want = set(expected)
    min_press_us = round(min_press_ms * 1000)
    slack_ns = (window_ms - min_press_ms) * 1e6

    def stalled(player: str, t_us: int) -> bool:
        """The press or spike around *t_us* had an edge inside its minimum press time injected too late."""
        starts = [t for t in trains.get(player, ()) if t <= t_us <= t + min_press_us]
        if not min_press_us or not starts:
            return False
        first = max(starts)
        late = [injected_at[(player, t)] for t in edge_times[player] if first <= t <= first + min_press_us]
        return max(late) - injected_at[(player, first)] > slack_ns

    dropped = [key for key in want - got if not stalled(*key)]
    extra = [key for key in got - want if not stalled(*key)]
    result.filter_stalls = len(want - got) - len(dropped) + len(got - want) - len(extra)
    result.dropped_real = len(dropped)
    result.extra = len(extra)
    for event, at in delivered:
        start = injected_at.get((event.player, event.t_us))
        if start is not None:
            result.latencies_us.append((at - start) / 1000)
    return result


def run(args) -> int:
    from rig.config import default_min_press_ms

    min_press = default_min_press_ms(args.order_window_ms) if args.min_press_ms is None else args.min_press_ms
    with_window = run_once(args, args.order_window_ms, min_press)
    without = run_once(args, 0.0, 0.0)
    print(f"rig bench tosses: {args.players} players, {args.bursts} bursts through gpiozero MockFactory "
          f"+ TickPin (exact ticks), lockout {args.lockout_ms:g} ms, seed {args.seed}")
    print(f"  glitch filter: min press {min_press:g} ms with the window (off with the window off); "
          f"1 µs spikes on {args.glitches:.0%} of players per burst")
    print("  bursts alternate: first edges within 1 ms / exactly 1 µs apart; bounce trains of 0-6 edges;")
    print(f"  25% of players press twice; edges reach Python up to {args.jitter_us:g} µs late, shuffling players")
    head_a = f"order window {with_window.window_ms:g} ms"
    head_b = "window and filter off"
    print(f"{'':28}{head_a:>24}{head_b:>28}")
    rows = [
        ("tosses injected", "injected", "{}"),
        ("tosses delivered", "delivered", "{}"),
        ("delivered out of tick order", "out_of_order", "{}"),
        ("  of which bench stalls", "bench_stalls", "{}"),
        ("glitch filter bench stalls", "filter_stalls", "{}"),
        ("dropped real tosses (must 0)", "dropped_real", "{}"),
        ("extra tosses (must be 0)", "extra", "{}"),
        ("releases delivered", "releases", "{}"),
        ("bounce edges injected", "bounce_injected", "{}"),
        ("bounce edges dropped", "bounce_dropped", "{}"),
        ("1 µs glitches injected", "glitches_injected", "{}"),
        ("glitches filtered", "glitches_filtered", "{}"),
    ]
    for label, attr, fmt in rows:
        print(f"{label:<28}{fmt.format(getattr(with_window, attr)):>24}{fmt.format(getattr(without, attr)):>28}")
    errors = with_window.out_of_order - with_window.bench_stalls
    print(f"{'ordering errors (must be 0)':<28}{errors:>24}{'(no promise)':>28}")
    for label, q in (("latency p50", 0.5), ("latency p99", 0.99)):
        a, b = with_window.percentile(q), without.percentile(q)
        print(f"{label:<28}{a / 1000:>21.3f} ms{b / 1000:>25.3f} ms")
    ok = errors == 0 and with_window.dropped_real == 0 and with_window.extra == 0
    print("result: " + ("OK" if ok else "FAILED: the order window run must have 0 ordering errors, 0 dropped, 0 extra"))
    return 0 if ok else 1

"""The debounce rule on its own: first edge wins, bounce is dropped and counted."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rig.hardware.tosses import Lockout

LOCKOUT = 30_000


def train(start, gaps, final):
    """Edges of one press (final=True) or release, starting at *start*, flickering after *gaps*."""
    edges = [(start, final)]
    level, t = final, start
    for gap in gaps:
        t += gap
        level = not level
        edges.append((t, level))
    if level != final:
        edges.append((t + 1, final))
    return edges


bounce = st.lists(st.integers(1, 2_000), max_size=8).filter(lambda g: sum(g) + 1 < LOCKOUT)
press = st.tuples(st.integers(LOCKOUT, 2_000_000), bounce, st.integers(LOCKOUT, 2_000_000), bounce)


@settings(max_examples=200, deadline=None)
@given(st.lists(press, min_size=1, max_size=12))
def test_every_press_gives_one_toss_at_its_first_edge(presses):
    lock = Lockout(LOCKOUT)
    expected, changes, bounces, t = [], [], 0, 0
    for gap_before, press_bounce, hold, release_bounce in presses:
        t += gap_before
        press_edges = train(t, press_bounce, True)
        release_edges = train(t + hold, release_bounce, False)
        expected += [(True, t), (False, t + hold)]
        bounces += len(press_edges) + len(release_edges) - 2
        for edge_t, level in press_edges + release_edges:
            changes += lock.edge(edge_t, level)
        t += hold
    assert changes + lock.settle() == expected
    assert lock.dropped == bounces


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 80_000), min_size=1, max_size=40))
def test_any_edge_train_alternates_and_ends_at_the_pins_level(gaps):
    lock, t, level, changes, edges = Lockout(LOCKOUT), 0, False, [], set()
    for gap in gaps:
        t += gap
        level = not level
        edges.add((level, t))
        changes += lock.edge(t, level)
    changes += lock.settle()
    levels = [active for active, _ in changes]
    assert levels == [bool(i % 2 == 0) for i in range(len(levels))]  # press, release, press, ...
    times = [when for _, when in changes]
    assert times == sorted(times)
    assert lock.active == level
    assert set(changes) <= edges  # every change is dated by a real edge of that level
    assert len(changes) + lock.dropped >= len(gaps)  # every edge is a change or counted as dropped


def test_zero_lockout_keeps_every_edge():
    lock = Lockout(0)
    assert [lock.edge(t, t % 2 == 1) for t in (1, 2, 3)] == [[(True, 1)], [(False, 2)], [(True, 3)]]
    assert lock.dropped == 0

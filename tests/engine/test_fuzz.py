"""Any sequence of inputs: only clean refusals, JSON state, and a replay equal to the live state."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rig.engine.errors import EventRefused
from rig.engine.log import EventLog
from rig.engine.service import EngineService

NAMES = ["Ada", "Ben", "Cleo", "Dev", "Zed"]
FACES = ["blue", "pink", "yellow", "blank", "pink+blue", "yellow+pink", "blue+yellow", "green"]
CARDS = ["blue", "pink", "yellow", "blank", "gray", "red"]

name = st.sampled_from(NAMES)
t = st.integers(0, 10_000)
steps = st.one_of(
    st.tuples(st.just("press"), name, t),
    st.tuples(st.just("release"), name, t, st.sampled_from([50_000, 1_500_000])),
    st.builds(lambda p: ("submit", {"type": "game_started", "players": p}),
              st.lists(name, min_size=2, max_size=5)),
    st.builds(lambda d: ("submit", {"type": "roll_settled", "dice": d}), st.lists(st.sampled_from(FACES), max_size=7)),
    st.builds(lambda c: ("submit", {"type": "card_revealed", "card": c}), st.sampled_from(CARDS)),
    st.builds(lambda p, c: ("submit", {"type": "copy_chosen", "player": p, "confirmed": c}), name, st.booleans()),
    st.builds(lambda i, f: ("submit", {"type": "correction", "what": "die", "index": i, "face": f}),
              st.integers(-1, 7), st.sampled_from(FACES)),
    st.builds(lambda i, c: ("submit", {"type": "correction", "what": "card", "index": i, "card": c}),
              st.integers(-1, 4), st.sampled_from(CARDS)),
    st.builds(lambda i, p: ("submit", {"type": "correction", "what": "toss", "index": i, "player": p}),
              st.integers(-1, 5), name),
    st.just(("submit", {"type": "correction", "what": "undo"})),
    st.just(("submit", {"type": "turn_scored"})),
    st.just(("submit", {"type": "turn_started"})),
    st.just(("submit", {"type": "game_ended"})),
    st.builds(lambda p: ("submit", {"type": "violation", "kind": "re-roll", "player": p}), name),
)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(steps, max_size=40))
def test_random_inputs(sequence):
    clock = iter(range(1, 10_000_000, 7))
    service = EngineService(EventLog(":memory:"), clock="sim", now_us=lambda: next(clock))
    service.submit({"type": "game_started", "players": ["Ada", "Ben", "Cleo", "Dev"]})
    for step in sequence:
        if step[0] == "press":
            service.press(step[1], step[2])
        elif step[0] == "release":
            service.release(step[1], step[2] + step[3], step[3])
        else:
            try:
                service.submit(step[1])
            except EventRefused as exc:
                assert exc.reason
    state = service.state()
    json.dumps(state)
    from rig.engine.engine import Engine

    replayed = Engine(service.log).state()
    assert replayed == state

"""Hypothesis strategies for hostile input, shared by the fuzz tests of the HTTP API and the CLI."""

from __future__ import annotations

import json

from hypothesis import strategies as st

#: any code point, lone surrogates, controls and RTL overrides included
ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=()), max_size=40)
NAMES = st.sampled_from(["Ada", "Ben", "Cleo", "Dev", "Eli", "blue", "pink", "gray", "undo", "card", "die"])
SCALARS = (st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT | NAMES
           | st.integers(min_value=2**62, max_value=2**65) | st.just("HUGE"))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=6)
                    | st.dictionaries(ANY_TEXT | st.sampled_from(["type", "player", "t_us", "card", "dice",
                                                                   "players", "what", "index", "options"]),
                                      inner, max_size=6), max_leaves=25)
EVENT_TYPES = st.sampled_from(["game_started", "turn_started", "roll_settled", "toss", "copy_chosen",
                               "card_revealed", "correction", "violation", "turn_scored", "game_ended"])
EVENTS = st.builds(lambda kind, extra: {"type": kind, **extra}, EVENT_TYPES,
                   st.dictionaries(st.sampled_from(["player", "t_us", "card", "dice", "players", "what", "index",
                                                    "source", "confidence", "clock", "x"]), JSON, max_size=4))


def dumps(value) -> bytes:
    """JSON as a careless client sends it: NaN and Infinity literals, lone surrogates escaped."""
    return json.dumps(value, allow_nan=True).encode().replace(b'"HUGE"', b"9" * 5000)  # beyond str(int) limits


BODIES = (EVENTS | JSON).map(dumps) | st.binary(max_size=200) | st.sampled_from(
    [b"[" * 100_000, b"{" * 40 + b"}" * 40, b"", b"\xff\xfe", b'{"a": 1e400}', b'"\\ud800"',
     b'{"type": [1]}', b'{"type": {"a": 1}, "what": ["undo"]}', b'{"players": [["Ada"]], "game": [1]}'])

"""Hypothesis strategies for hostile input, shared by the fuzz tests of the HTTP API and the CLI."""

from __future__ import annotations

import json

from hypothesis import strategies as st

from rig.engine.events import json_schema

#: any code point, lone surrogates, controls and RTL overrides included
ANY_TEXT = st.text(alphabet=st.characters(exclude_categories=()), max_size=40)
NAMES = st.sampled_from(["Ada", "Ben", "Cleo", "Dev", "Eli", "blue", "pink", "gray", "undo", "card", "die"])
SCALARS = (st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT | NAMES
           | st.integers(min_value=2**62, max_value=2**65) | st.just("HUGE"))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=6)
                    | st.dictionaries(ANY_TEXT | st.sampled_from(["type", "player", "t_us", "card", "dice",
                                                                   "players", "what", "index", "options"]),
                                      inner, max_size=6), max_leaves=25)

#: the event types and their fields, from the JSON Schema the rig serves (GET /api/schema): generated
#: from the same msgspec types that decode events (rig.engine.events), so a new field is fuzzed at once
SCHEMA = json_schema()
_DEFS = {spec["properties"]["type"]["enum"][0]: spec for spec in SCHEMA["$defs"].values()
         if "enum" in spec.get("properties", {}).get("type", {})}
EVENT_TYPES = st.sampled_from(sorted(_DEFS))
FIELDS = sorted({name for spec in _DEFS.values() for name in spec["properties"]} | {"x"})


def _plausible(spec: dict) -> st.SearchStrategy:
    """A value of the kind a schema property asks for (bounds and patterns left to chance)."""
    options = spec.get("anyOf", [spec])
    kinds = []
    for option in options:
        kind = option.get("type")
        if "enum" in option:
            kinds.append(st.sampled_from(option["enum"]))
        elif kind == "integer":
            kinds.append(st.integers(min_value=-1, max_value=10**7) | st.integers())
        elif kind == "number":
            kinds.append(st.floats())
        elif kind == "string":
            kinds.append(NAMES | ANY_TEXT)
        elif kind == "array":
            kinds.append(st.lists(NAMES | ANY_TEXT, max_size=7))
        elif kind == "object":
            kinds.append(st.dictionaries(ANY_TEXT, JSON, max_size=3))
        elif kind == "boolean":
            kinds.append(st.booleans())
        elif kind == "null":
            kinds.append(st.none())
    return st.one_of(kinds) if kinds else JSON


def _from_schema(kind: str) -> st.SearchStrategy:
    spec = _DEFS[kind]
    fields = {name: _plausible(sub) for name, sub in spec["properties"].items() if name != "type"}
    required = [name for name in spec.get("required", []) if name in fields]
    return st.fixed_dictionaries({"type": st.just(kind), **{name: fields[name] for name in required}},
                                 optional={name: fields[name] for name in fields if name not in required})


#: events built from the schema (each field of its kind), then 0 to 4 fields overwritten with anything
EVENTS = st.builds(lambda event, extra: {**event, **extra}, EVENT_TYPES.flatmap(_from_schema),
                   st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=4))

def dumps(value) -> bytes:
    """JSON as a careless client sends it: NaN and Infinity literals, lone surrogates escaped."""
    return json.dumps(value, allow_nan=True).encode().replace(b'"HUGE"', b"9" * 5000)  # beyond str(int) limits


BODIES = (EVENTS | JSON).map(dumps) | st.binary(max_size=200) | st.sampled_from(
    [b"[" * 100_000, b"{" * 40 + b"}" * 40, b"", b"\xff\xfe", b'{"a": 1e400}', b'"\\ud800"',
     b'{"type": [1]}', b'{"type": {"a": 1}, "what": ["undo"]}', b'{"players": [["Ada"]], "game": [1]}'])

"""A die's flag carries its kind and place as data, its text as before (issue 24, round 13): the second look's
``named`` takes them from the flag, not from the text; a logged reason (plain text) is still read from its text."""

from __future__ import annotations

import copy
import json
import pickle
import re

import numpy as np

import rig.vision.dice_second_look as second
from rig.vision import dice
from rig.vision.dice_flag import Flag

from .dice_twin import frame_and_profile

#: how named read a reason before round 13 (the text matched for its kind and place)
_AT = re.compile(r" (?:on die )?at \((\d+), (\d+)\)")
KINDS = [(k, False) for k in ("cocked die", "die partly hidden or on edge", "die top read in the frame's overall light",
                              "die in a glare spot", "three colours on one die", "part of a die (glare or hidden?)",
                              "hand, object or glare in view", "die top in shade read brightened",
                              "die on a die-coloured spot of the box")]
KINDS += [(k, True) for k in ("unclear pink", "unclear blue/yellow", "pink/yellow frog of unusual size (glare?)",
                              "unknown colour or glare", "pink read through glare", "blue not one frog (scattered colour)")]


def _named_as_before(reasons, dice_at, side, every=False):
    own, rest = [[] for _ in dice_at], False
    for j, text in enumerate(reasons):
        m = _AT.search(text)
        kind = text[: m.start()] if m else text
        if m is None or not (every or second.freeable(kind)):
            rest = True
            continue
        x, y = float(m.group(1)), float(m.group(2))
        near = [((x - dx) ** 2 + (y - dy) ** 2, i) for i, (dx, dy) in enumerate(dice_at)]
        d2, i = min(near) if near else (np.inf, -1)
        if d2 > (0.5 * side) ** 2:
            rest = True
            continue
        own[i].append(j)
    return own, rest


def test_a_flags_text_is_the_reasons_text_as_before_with_its_kind_and_place():
    x, y = 2 * (40.0 + 0.5), 2 * (17.25 + 0.5)  # (_where: a working-scale point's pixel centre, factor 2)
    flag = Flag("cocked die", x, y)
    assert flag == f"cocked die at ({x:.0f}, {y:.0f})" == "cocked die at (81, 36)" and isinstance(flag, str)
    assert (flag.kind, flag.at) == ("cocked die", (81.0, 36.0))
    on = Flag("unclear pink", 300.4, 200.6, True)
    assert on == "unclear pink on die at (300, 201)" and (on.kind, on.at) == ("unclear pink", (300.0, 201.0))
    assert hash(on) == hash(str(on)) and {on: 1}["unclear pink on die at (300, 201)"] == 1
    assert json.dumps([on]) == '["unclear pink on die at (300, 201)"]' and repr(on) == repr(str(on))
    for again in (pickle.loads(pickle.dumps(on)), copy.copy(on), copy.deepcopy(on)):
        assert again == on and isinstance(again, Flag) and (again.kind, again.at) == (on.kind, on.at)


def test_a_plain_reasons_kind_and_place_are_read_from_its_text():
    for kind, on_die in KINDS:
        flag = Flag(kind, 123.0, 45.0, on_die)
        text = str(flag)
        parsed = Flag.parse(text)
        m = _AT.search(text)
        assert type(text) is str and parsed == text and parsed.kind == text[: m.start()] == kind
        assert parsed.at == (float(m.group(1)), float(m.group(2))) and Flag.parse(flag) is flag
    for text in ("5 of the 6 dice thrown seen (one hidden in shade?)", "The light changed — recalibrate (x1.7)"):
        assert Flag.parse(text) is None


def test_named_takes_a_flags_kind_and_place_from_the_flag_and_groups_as_it_did_on_the_text():
    rng = np.random.default_rng(13)
    plain = ["5 of the 6 dice thrown seen (one hidden in shade?)", "The light changed — recalibrate (x1.3)"]
    for _ in range(300):
        dice_at = [tuple(rng.uniform(0, 640, 2)) for _ in range(rng.integers(0, 7))]
        flags = []
        for _ in range(rng.integers(1, 5)):
            kind, on_die = KINDS[rng.integers(len(KINDS))]
            x, y = dice_at[rng.integers(len(dice_at))] if dice_at and rng.random() < 0.8 else rng.uniform(0, 640, 2)
            x, y = (max(0.5, v + rng.normal(0, 12)) for v in (x, y))  # (the reader's places: pixel centres, >= 0.5)
            flags.append(Flag(kind, x, y, on_die))
        if rng.random() < 0.2:
            flags.append(plain[rng.integers(2)])
        for every in (False, True):
            got = second.named(flags, dice_at, 40.0, every)
            assert got == second.named([str(r) for r in flags], dice_at, 40.0, every)  # as text: parsed alike
            assert got == _named_as_before([str(r) for r in flags], dice_at, 40.0, every)
    # the place is the flag's data: a flag whose text said elsewhere is still its die's
    moved = Flag._made("cocked die at (5, 5)", "cocked die", (300.0, 200.0))
    assert second.named([moved], [(100.0, 100.0), (300.0, 200.0)], 40.0) == ([[], [0]], False)


def test_the_readers_placed_reasons_are_flags_and_name_their_dice_as_their_text_does(monkeypatch):
    # twin table 8205 (seen), turn 1: "cocked die at (89, 333)"; with seven dice thrown, a reason with no place too
    monkeypatch.setattr(second, "ENABLED", False)
    frame, profile = frame_and_profile("t8205-turn1.jpg", "t8205")
    reading = dice.read_dice(frame, profile, thrown=7)
    assert reading.reasons[0] == "cocked die at (89, 333)" and len(reading.reasons) == 2
    flag, short = reading.reasons
    assert isinstance(flag, Flag) and (flag.kind, flag.at) == ("cocked die", (89.0, 333.0))
    assert not isinstance(short, Flag)
    at = [(d.x, d.y) for d in reading.dice]
    assert second.named(reading.reasons, at, 40.0) == second.named([str(r) for r in reading.reasons], at, 40.0)


def test_a_readings_dict_holds_plain_text_that_msgspec_encodes():
    # a Flag is a str subclass, which msgspec refuses to encode ("Encoding objects of type Flag is unsupported"):
    # a reading leaves the reader (log, display, MQTT) as plain JSON types
    import msgspec

    from rig.vision.dice import DiceReading, DieObservation

    die = DieObservation("blue", 10.0, 20.0, (0, 0, 20, 20), 0.5, cocked=True)
    reading = DiceReading((die,), "uncertain", (Flag("cocked die", 10, 20), "7 dice seen, there are only 6"))
    data = reading.to_dict()
    assert [type(r) for r in data["reasons"]] == [str, str]
    assert data["reasons"][0] == "cocked die at (10, 20)"
    assert b"cocked die at (10, 20)" in msgspec.json.encode(data)

"""read_dice's hot path mended (issue 24, round 14): a die's window for the cocked tests made once, and
``scripts/twin_turns.py`` reading a reason's kind and place by :meth:`rig.vision.dice_flag.Flag.parse`.

The corpus check (every reading of 256 frames the same before and after) is ``scripts/speed_corpus.py``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from rig.vision import dice, dice_cocked
from rig.vision.dice_flag import Flag
from tests.vision.dice_twin import frame_and_profile

ROOT = Path(__file__).resolve().parents[2]
#: committed twin frames with a die whose flank test comes near its bound (the verdict on its top and flank is asked)
JUDGED = [("t8902-turn3.jpg", "t8902"), ("t8403-turn1.jpg", "t8403"), ("t111-turn2-bright.jpg", "t111")]

# round 13's twin_turns: its own copy of the place's pattern (the reference)
_AT = re.compile(r" (?:on die )?at \((\d+), (\d+)\)")


def _kind_before(text: str) -> str:
    kind = _AT.sub("", text)
    kind = re.sub(r"^\d+ of the \d+", "N of the 6", kind)
    kind = re.sub(r" \(warmer white balance x[\d.]+\)| \(.*x[\d.]+.*\)$", "", kind)
    return re.sub(r"^\d+ dice", "N dice", kind)


def _places_before(reasons) -> list[tuple[str, float, float]]:
    out = []
    for text in reasons:
        m = _AT.search(text)
        if m:
            out.append((_kind_before(text), float(m.group(1)), float(m.group(2))))
    return out


@pytest.fixture
def twin_turns():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import twin_turns
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return twin_turns


def _sample_reasons(rng) -> list[str]:
    kinds = ["cocked die", "die in shadow or on edge", "part of a die (glare or hidden?)", "die partly hidden or on edge",
             "die top read in the frame's overall light", "unknown colour or glare", "die top in shade read brightened",
             "hand, object or glare in view", "lamp's reflection on die top", "die top much like the floor (glare?)",
             "die under the floor's glare reads another face without it", "three colours on one die", "die in a glare spot",
             "second look reads another face", "frames disagree on the die"]
    on_die = ["unclear pink", "unclear blue/yellow", "pink frog of unusual size (glare?)", "blue+yellow frog of unusual colour",
              "pink read through glare", "pink/blue not one frog (scattered colour)"]
    plain = ["7 dice seen, there are only 6", "5 of the 6 dice seen", "3 dice read as blue+yellow, only 2 dice carry it",
             "The light changed — recalibrate (warmer white balance x1.23)", "The light changed — recalibrate (lamp x0.8)"]
    out = list(plain)
    for _ in range(300):
        x, y = rng.uniform(0, 1280, 2)
        on = bool(rng.integers(2))
        flag = Flag(str(rng.choice(on_die if on else kinds)), float(x), float(y), on)
        out += [flag, str(flag)]  # a flag as the reader makes it, and its text as a JSON line gives it back
    return out


def test_twin_turns_kinds_and_places_from_flags_are_those_of_its_own_pattern(twin_turns):
    reasons = _sample_reasons(np.random.default_rng(14))
    assert "_AT" not in vars(twin_turns)  # no copy of the pattern of its own
    assert [twin_turns.reason_kind(r) for r in reasons] == [_kind_before(r) for r in reasons]
    assert twin_turns.reason_places(reasons) == _places_before(reasons)
    assert any(isinstance(r, Flag) for r in reasons) and any(type(r) is str and Flag.parse(r) for r in reasons)


def _counting(monkeypatch) -> Counter:
    """Calls of ``_around`` by die (its centre) from here on."""
    calls, made = Counter(), dice_cocked._around

    def around(obs, work, others=()):
        calls[(obs.x, obs.y)] += 1
        return made(obs, work, others)

    monkeypatch.setattr(dice_cocked, "_around", around)
    return calls


def test_a_dies_window_is_made_once_for_the_flank_test_and_the_verdict(monkeypatch):
    judged = Counter()
    shape = dice_cocked.flank_shape

    def flank_shape(obs, *args, **kw):
        judged[(obs.x, obs.y)] += 1
        return shape(obs, *args, **kw)

    monkeypatch.setattr(dice_cocked, "flank_shape", flank_shape)
    for frame, table in JUDGED:
        calls = _counting(monkeypatch)
        judged.clear()
        reading = dice.read_dice(*frame_and_profile(frame, table))
        assert judged, frame  # the verdict was asked about a die (its window used twice)
        assert set(judged) <= set(calls) and max(calls.values()) == 1, (frame, calls)
        assert len(calls) >= sum(not d.cocked for d in reading.dice)  # every die not called cocked was judged


def _leans_before(obs, work, t, walls, others) -> bool:
    """Round 13's :func:`dice_cocked.leans`: the flank test and the verdict each making the die's window."""
    excess, mx, my, stray, _ = numbers = dice_cocked._moment(obs, work, t, walls, others)
    moment = float(np.hypot(mx, my))
    past = dice_cocked._past_bound(excess, moment, stray, t)
    if not past and moment <= dice_cocked.NEAR * stray:
        return False
    x = dice_cocked.flank_shape(obs, work, t, walls, others, numbers)
    verdict = dice_cocked.check()
    if past:
        return x is None or verdict.cocked(x)
    return x is not None and float(verdict.score(x)[0]) >= max(verdict.threshold, dice_cocked.NEAR_SCORE)


def test_the_verdicts_are_those_of_the_window_made_for_each_test():
    said = Counter()
    for frame, table in JUDGED:
        image, profile = frame_and_profile(frame, table)
        work = dice.prepare(image, profile)
        others = dice.read_labels(work, profile).dice
        for obs in others:
            got = dice_cocked.leans(obs, work, profile.thresholds, profile.walls, others)
            assert got == _leans_before(obs, work, profile.thresholds, profile.walls, others)
            said[got] += 1
    assert said[True] and said[False]


def test_a_dies_measures_make_its_window_once_and_are_those_of_each_measure_alone(monkeypatch):
    frame, profile = frame_and_profile("t8205-turn1.jpg", "t8205")
    work = dice.prepare(frame, profile)
    reading = dice.read_labels(work, profile)
    t, walls, others = profile.thresholds, profile.walls, reading.dice
    before = []
    for obs in others:  # each measure making the die's window itself, as round 13 did
        rx, ry = dice_cocked._radial(obs, work)
        excess, mx, my, stray, r = numbers = dice_cocked._moment(obs, work, t, walls, others)
        flank = dice_cocked.flank_shape(obs, work, t, walls, others, numbers)
        top = dice_cocked.top_shape(obs, work, others)
        out = [obs.aspect + walls[3] * float(np.hypot(rx, ry)), obs.area, excess / t.flank_area,
               float(np.hypot(mx, my)) / stray, float(flank is not None and top is not None)]
        out += list(flank) if flank is not None else [0.0] * len(dice_cocked.FEATURES)
        out += list(top) if top is not None else [0.0] * len(dice_cocked.ASPECT_FEATURES)
        before.append(np.clip(np.nan_to_num(np.array(out, np.float32)), -20.0, 20.0))
    calls = _counting(monkeypatch)
    after = [dice_cocked.measures(obs, work, t, walls, others) for obs in others]
    assert sorted(calls.values()) == [1] * len(others)
    assert all(np.array_equal(a, b) for a, b in zip(after, before))
    assert sum(b[4] for b in before) > 0  # some die with a flank and a top measured

"""read_dice's hot path mended (issue 24, round 14): a die's window for the cocked tests made once, and
``scripts/twin_turns.py`` reading a reason's kind and place by :meth:`rig.vision.dice_flag.Flag.parse`.

The corpus check (every reading of 256 frames the same before and after) is ``scripts/speed_corpus.py``.
"""

from __future__ import annotations

import re
from collections import Counter

import cv2
import numpy as np
import pytest

from rig.vision import dice, dice_cocked, dice_upright
from rig.vision.dice_flag import Flag
from tests.vision.dice_twin import frame_and_profile
from tests.vision.conftest import script

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
    return script("twin_turns")


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
    monkeypatch.setattr(dice_upright, "_around", around)  # the reader's judge makes it for the flank test (round 15)
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


# --------------------------------------------------------------------------- speed: the same numbers, less time

def test_the_glare_in_the_frames_light_is_the_glare_multiplied_as_before():
    from rig.vision.dice_frames import _times

    rng = np.random.default_rng(140)
    every = np.tile(np.arange(256, dtype=np.uint8), 3 * 97)[: 96 * 97 * 3].reshape(96, 97, 3)  # each level, many places
    for k in range(400):
        channels = tuple(float(v) for v in rng.uniform(0.3, 3.0, 3))
        if k % 2:
            channels = tuple(round(v, 4) for v in channels)  # as Light.channels gives them
        image = every if k % 4 < 2 else rng.integers(0, 256, (int(rng.integers(1, 60)), int(rng.integers(1, 60)), 3),
                                                     dtype=np.uint8)
        want = cv2.multiply(image, channels + (0.0,), dtype=cv2.CV_8U)
        got = _times(image, channels)
        assert got.dtype == want.dtype and np.array_equal(got, want), channels


def _side_faces_before(dark, lab, small):
    """Round 13's :func:`rig.vision.dice_frames._side_faces` (the reference)."""
    from rig.vision.dice_frames import SIDE_HUE, sum3
    from rig.vision.pixel_classes import BG, BODY

    sel = dark > 0
    if not sel.any():
        return dark
    body, floor = (lab == BODY).view(np.uint8), (lab == BG).view(np.uint8)
    if cv2.countNonZero(body) < 8 or cv2.countNonZero(floor) < 8:
        return dark
    top = np.array(cv2.mean(small, body)[:3], np.float32) + 4.0
    ground = np.array(cv2.mean(small, floor)[:3], np.float32) + 4.0
    px = small[sel].astype(np.float32) + 4.0
    hue = px / sum3(px)[:, None]
    keep = sum3(np.abs(hue - top / top.sum())) <= SIDE_HUE * sum3(np.abs(hue - ground / ground.sum()))
    out = np.zeros_like(dark)
    out[sel] = np.where(keep, dark[sel], 0)
    return out


def test_a_dies_side_faces_are_those_picked_as_before(monkeypatch):
    from rig.vision.dice_frames import _side_faces
    from rig.vision.pixel_classes import _IS_DARK, BG, BODY

    rng = np.random.default_rng(141)
    windows = []
    for _ in range(400):  # random windows: views into a frame, as _around cuts them, some with nothing dark or no floor
        h, w = (int(v) for v in rng.integers(0, 40, 2))
        frame = rng.integers(0, 256, (h + 8, w + 8, 3), dtype=np.uint8)
        lab = rng.choice([BG, BODY, 2, 3, 4, 5, 6, 7], (h + 8, w + 8), p=rng.dirichlet(np.ones(8))).astype(np.uint8)
        windows.append((cv2.LUT(lab, _IS_DARK)[4 : 4 + h, 4 : 4 + w], lab[4 : 4 + h, 4 : 4 + w], frame[4 : 4 + h, 4 : 4 + w]))
    made = dice_cocked._side_faces

    def grab(dark, lab, small):  # and every window the reader cuts round the dice of the committed frames
        windows.append((dark.copy(), lab, small))
        return made(dark, lab, small)

    monkeypatch.setattr(dice_cocked, "_side_faces", grab)
    for frame, table in JUDGED:
        dice.read_dice(*frame_and_profile(frame, table))
    picked = 0
    for dark, lab, small in windows:
        want, got = _side_faces_before(dark, lab, small), _side_faces(dark.copy(), lab, small)
        assert got.dtype == want.dtype and np.array_equal(got, want)
        picked += not np.array_equal(want, dark)
    assert picked > 100  # dark pixels dropped as not the die's own in many windows


def _lift_shade_before(small, labels, gain, lift, lut, censored):
    """Round 13's :func:`rig.vision.dice_frames._lift_shade`: the whole box round the shade lifted and looked up (with round
    21's pixels lifted to white left as they are)."""
    from rig.vision import dice_frames
    from rig.vision.dice_frames import _shade_patch, label_pixels
    from rig.vision.pixel_classes import _K3, BG, BLOWN, BLUE, BODY, IS_TOP, PINK, YELLOW

    patch = _shade_patch(lift)
    if patch is None:
        return small, labels, gain, None
    (y0, y1, x0, x1), up, shaded, deeper = patch
    lifted = cv2.multiply(small[y0:y1, x0:x1], up, dtype=cv2.CV_8U)
    was = labels[y0:y1, x0:x1]
    seen = was.copy()
    np.copyto(seen, label_pixels(lifted, lut, None if censored is None else censored[y0:y1, x0:x1] * shaded), where=shaded)
    top, new_top = cv2.LUT(was, IS_TOP) > 0, cv2.morphologyEx(cv2.LUT(seen, IS_TOP), cv2.MORPH_OPEN, _K3) > 0
    frog = ((seen == BLUE) | (seen == PINK) | (seen == YELLOW)) & new_top
    white = cv2.inRange(lifted, (dice_frames.STANDING,) * 3, (255, 255, 255)) > 0  # round 21: lit over the band
    standing = cv2.morphologyEx((white & shaded).view(np.uint8), cv2.MORPH_OPEN, _K3) > 0
    take = shaded & (was != BLOWN) & ~standing & ((~top & (new_top | (seen == BG))) | ((was == BODY) & frog))
    mask = take.view(np.uint8)
    cv2.copyTo(lifted, mask, small[y0:y1, x0:x1])
    np.copyto(was, seen, where=take)
    gain_patch = gain[y0:y1, x0:x1]
    cv2.copyTo(cv2.multiply(gain_patch, up), mask, gain_patch)
    deep = np.zeros(labels.shape, np.uint8)
    deep[y0:y1, x0:x1] = mask & deeper
    return small, labels, gain, deep


def test_a_walls_shade_lifted_in_the_boxes_round_its_parts_is_lifted_as_before(monkeypatch):
    from rig.vision import dice_frames
    from rig.vision.colour_table import colour_lut
    from rig.vision.dice_frames import _lift_shade, _parts

    rng = np.random.default_rng(142)
    for _ in range(300):  # a mask's parts: apart, all of it inside them, none larger than its box
        h, w = (int(v) for v in rng.integers(1, 120, 2))
        mask = np.zeros((h, w), bool)
        for _ in range(int(rng.integers(0, 4))):
            y, x = rng.integers(0, h), rng.integers(0, w)
            mask[y : y + int(rng.integers(1, 40)), x : x + int(rng.integers(1, 40))] = True
        covered = np.zeros((h, w), int)
        for part in _parts(mask):
            covered[part] += 1
        assert covered.max() <= 1 and not (mask & (covered == 0)).any()
    calls = []
    made = dice_frames._lift_shade

    def both(small, labels, gain, lift, lut, censored):
        before = _lift_shade_before(small.copy(), labels.copy(), gain.copy(), lift, lut,
                                    None if censored is None else censored.copy())
        after = made(small, labels, gain, lift, lut, censored)
        calls.append(dice_frames._shade_parts(lift))
        for a, b in zip(before, after):
            assert (a is None and b is None) or np.array_equal(a, b)
        return after

    monkeypatch.setattr(dice_frames, "_lift_shade", both)
    for frame, table in [*JUDGED, ("t8205-turn1.jpg", "t8205"), ("t8707-turn1.jpg", "t8707")]:
        image, profile = frame_and_profile(frame, table)
        dice.prepare(image, profile)
    assert any(len(p) > 1 for p in calls)  # some shade lifted in more than one box
    # and in random frames and censoring, on a committed profile's shade
    image, profile = frame_and_profile("t8902-turn3.jpg", "t8902")
    work = dice.prepare(image, profile)
    lift = dice_frames.shade_gain(profile, work.small.shape[:2])
    for _ in range(20):
        small = rng.integers(0, 256, work.small.shape, dtype=np.uint8)
        labels = rng.integers(0, 10, work.labels.shape, dtype=np.uint8)
        gain = rng.uniform(0.5, 2.0, work.gain.shape).astype(np.float32)
        censored = (rng.integers(0, 8, labels.shape) * (rng.random(labels.shape) < 0.1)).astype(np.uint8)
        before = _lift_shade_before(small.copy(), labels.copy(), gain.copy(), lift, colour_lut(profile), censored)
        after = _lift_shade(small, labels, gain, lift, colour_lut(profile), censored)
        assert all(np.array_equal(a, b) for a, b in zip(before, after))

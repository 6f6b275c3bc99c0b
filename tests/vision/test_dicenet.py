"""The learned pip-dice reader (rig.vision.dicenet): its pieces, its judgement, and the shipped ONNX
nets run by OpenCV on drawn frames."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from rig.vision.anydie import AnyDieParams, read_pip_dice
from rig.vision.dicenet import (CROP, FIND_DIE, FIND_LONG, FIND_WEIGHTS, READ_WEIGHTS, Candidate, DiceNet, DiceNetError, crop_die,
                                default_dicenet, finder_input, judge, peaks, read_dice)

SHIPPED = FIND_WEIGHTS.exists() and READ_WEIGHTS.exists()
LAYOUT = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
          5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def draw_die(frame, x, y, pips, body, pip, side=40):
    h = side // 2
    cv2.rectangle(frame, (x - h, y - h), (x + h, y + h), body, -1)
    for dx, dy in LAYOUT[pips]:
        cv2.circle(frame, (x + dx * side * 3 // 10, y + dy * side * 3 // 10), max(2, side // 10), pip, -1, cv2.LINE_AA)


def test_finder_input_is_scaled_and_padded():
    small, s = finder_input(np.zeros((480, 640, 3), np.uint8))
    assert small.shape == (192, 256, 3) and s == pytest.approx(0.4)
    small, s = finder_input(np.zeros((500, 700, 3), np.uint8))
    assert small.shape[1] == 256 and small.shape[0] % 8 == 0


def test_die_crop_is_centred_and_sized():
    frame = np.zeros((200, 200, 3), np.uint8)
    cv2.rectangle(frame, (90, 90), (109, 109), (255, 255, 255), -1)  # a 20 px square centred at 100, 100
    crop = crop_die(frame, 100, 100, 20)
    assert crop.shape == (CROP, CROP, 3)
    ys, xs = np.nonzero(crop[..., 0] > 127)
    assert abs(xs.mean() - CROP / 2) < 1.5 and abs(ys.mean() - CROP / 2) < 1.5
    assert abs((xs.max() - xs.min() + 1) - CROP / 1.3) < 2  # the die fills 1 / CROP_GROW of the crop
    assert crop_die(frame, 100, 100, 20, size=64).shape == (64, 64, 3)


def test_heat_peaks_are_local_maxima_and_a_near_weaker_one_is_dropped():
    gy, gx = np.mgrid[0:40, 0:40].astype(np.float32)

    def spot(x, y, height):
        return height * np.exp(-((gx - x) ** 2 + (gy - y) ** 2) / 1.0)

    heat = np.maximum.reduce([spot(10, 10, 1.0), spot(30, 12, 0.9), spot(12, 10, 0.6)])  # the last: too near
    sides = np.full_like(heat, np.log(5.0))
    found = peaks(heat, sides, 0.3)
    assert len(found) == 2
    (x0, y0, s0, h0), (x1, y1, _, h1) = found
    assert h0 > h1 and abs(x0 - 42) < 1 and abs(y0 - 42) < 1 and abs(x1 - 122) < 1 and s0 == pytest.approx(20)


def candidate(score, probs):
    return Candidate(100.0, 80.0, 40.0, score, np.array(probs, np.float32))


def test_judgement_ok_flagged_or_dropped():
    p = AnyDieParams()
    sure = [0.0, 0.0, 0.0, 0.98, 0.02, 0.0, 0.0]
    die = judge(candidate(0.9, sure), p)
    assert (die.pips, die.count.status, die.box) == (3, "ok", (80, 60, 40, 40))
    die = judge(candidate(0.9, [0.0, 0.0, 0.0, 0.55, 0.0, 0.45, 0.0]), p)
    assert die.count.status == "uncertain" and "pips unclear: 3 (0.55) or 5 (0.45)" in die.count.reasons
    die = judge(candidate(p.find_keep + 0.01, sure), p)
    assert die.count.status == "uncertain" and die.count.reasons[0].startswith("faint die")
    # below find_keep: a faint die only when the reader is sure of its count (rig.vision.diefaint), always flagged
    assert judge(candidate(p.find_keep - 0.01, sure), replace(p, faint_keep=0.0)) is None
    assert judge(candidate(p.find_keep - 0.01, [0.0, 0.0, 0.0, 0.8, 0.2, 0.0, 0.0]), p) is None
    die = judge(candidate(p.find_keep - 0.01, sure), p)
    assert die.count.status == "uncertain" and die.count.reasons[0].startswith("faint die")
    not_a_die = [0.9, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0]
    assert judge(candidate(p.find_ok - 0.01, not_a_die), p) is None  # faint and no die: dropped
    die = judge(candidate(0.95, not_a_die), p)  # a strong peak the reader doubts: kept, flagged
    assert die.count.status == "uncertain" and "sees no die" in die.count.reasons[0]


def test_a_one_the_finder_is_unsure_of_is_flagged():
    """Coins, knots and screw heads are read as a die showing 1, with a weaker finder score than real 1s."""
    p = AnyDieParams()
    one = [0.0, 0.99, 0.01, 0.0, 0.0, 0.0, 0.0]
    die = judge(candidate(p.one_ok - 0.02, one), p)
    assert die.pips == 1 and die.count.status == "uncertain" and "coin or knot" in die.count.reasons[0]
    assert judge(candidate(p.one_ok + 0.02, one), p).count.status == "ok"
    three = [0.0, 0.0, 0.0, 0.99, 0.01, 0.0, 0.0]
    assert judge(candidate(p.one_ok - 0.02, three), p).count.status == "ok"  # only a 1 looks like a coin


def test_missing_and_broken_net_files(tmp_path):
    with pytest.raises(DiceNetError, match="does not exist"):
        DiceNet(tmp_path / "none.onnx", tmp_path / "none.onnx")
    (tmp_path / "junk.onnx").write_bytes(b"not an onnx model")
    with pytest.raises(DiceNetError, match="cannot read"):
        DiceNet(tmp_path / "junk.onnx", tmp_path / "junk.onnx")


needs_nets = pytest.mark.skipif(not SHIPPED, reason="no shipped dice nets")


@needs_nets
def test_shipped_nets_are_small_and_loaded_once():
    assert FIND_WEIGHTS.stat().st_size + READ_WEIGHTS.stat().st_size < 1_000_000
    assert default_dicenet() is default_dicenet()


def drawn_frame():
    frame = np.full((480, 640, 3), 215, np.uint8)
    dice = [(120, 120, 3, (40, 40, 200), (240, 240, 240)),   # red, white pips
            (320, 140, 5, (245, 245, 245), (20, 20, 20)),    # white, black pips
            (500, 300, 4, (40, 180, 40), (240, 240, 240)),   # green, white pips
            (200, 350, 6, (30, 200, 230), (20, 20, 20)),     # yellow, black pips
            (400, 380, 2, (30, 30, 30), (240, 240, 240))]    # black, white pips
    for x, y, pips, body, pip in dice:
        draw_die(frame, x, y, pips, body, pip)
    return frame, dice


@needs_nets
def test_shipped_nets_read_drawn_dice_of_any_colour():
    frame, dice = drawn_frame()
    reading = read_pip_dice(frame, expected=(5,))
    got = sorted((round(d.centre[0] / 10), round(d.centre[1] / 10), d.pips) for d in reading.dice)
    assert len(got) == 5
    for (x, y, pips, _, _), (gx, gy, gp) in zip(sorted(dice), got):
        assert abs(gx - x / 10) <= 1 and abs(gy - y / 10) <= 1 and gp == pips
    assert read_pip_dice(frame, expected=(6,)).status == "uncertain"  # a die missing from the known count


@needs_nets
def test_a_peak_below_find_keep_is_never_read(monkeypatch):
    frame, _ = drawn_frame()
    nets = default_dicenet()
    die = 640 * FIND_DIE / FIND_LONG  # the size told: one pass of the finder, as the scores below
    heat, sides, _ = nets.heat(frame, die)
    scores = [score for *_, score in peaks(heat, sides, 0.2)]
    keep = float(np.median(scores))
    read = []
    monkeypatch.setattr(nets, "read_features", lambda crops, hidden=True: read.append(len(crops))
                        or DiceNet.read_features(nets, crops, hidden))
    # faint_keep 0: no faint die (rig.vision.diefaint reads the peaks from faint_keep, tests/vision/test_diefaint.py)
    dice = read_dice(frame, AnyDieParams(find_floor=0.2, find_keep=keep, faint_keep=0.0, die_px=die), nets)
    assert read == [sum(s > keep for s in scores)] == [len(dice)] and 0 < len(dice) < len(scores)


@needs_nets
def test_shipped_nets_see_no_die_on_an_empty_floor():
    rng = np.random.default_rng(0)
    frame = np.clip(rng.normal(200, 6, (480, 640, 3)), 0, 255).astype(np.uint8)
    reading = read_pip_dice(frame, expected=(2,))
    assert reading.dice == () and reading.status == "uncertain" and "0 dice seen, want 2" in reading.reasons


def scaled_dice_frame(side, seed=3):
    """Five drawn dice of ``side`` px, any colours, spread over a 640x480 frame."""
    rng = np.random.default_rng(seed)
    frame = np.full((480, 640, 3), 200, np.uint8)
    cols, rows = max(1, min(5, 600 // int(1.6 * side))), max(1, min(5, 440 // int(1.6 * side)))
    cells = [(c, r) for r in range(rows) for c in range(cols)][:5]
    dice = []
    for i, (c, r) in enumerate(cells):
        x, y = int((c + 0.5) * 640 / cols), int((r + 0.5) * 480 / rows)
        pips = int(rng.integers(1, 7))
        body, pip = ((40, 40, 200), (240, 240, 240)) if i % 2 else ((245, 245, 245), (20, 20, 20))
        draw_die(frame, x, y, pips, body, pip, side=side)
        dice.append((x, y, pips))
    return frame, dice


@needs_nets
@pytest.mark.parametrize("side", [26, 90, 150])
def test_dice_far_from_the_trained_size_are_found_without_a_size_hint(side):
    """The finder was trained on dice about 1/16 of the frame (40 px here); the pyramid finds and reads
    dice of other sizes with no hint, and the size it picks is about theirs."""
    frame, dice = scaled_dice_frame(side)
    reading = read_pip_dice(frame, expected=(len(dice),))
    got = sorted((d.centre[0], d.centre[1], d.pips) for d in reading.dice if d.count.status == "ok")
    assert len(reading.dice) >= len(dice) - 1, reading
    # the second opinion (rig.vision.diecheck, fitted on photographed and rendered dice) may flag a drawn flat die
    assert len(got) >= len(dice) - 2, reading
    for x, y, pips in got:  # every die said ok is a true die, read right
        assert any(abs(x - tx) < side / 3 and abs(y - ty) < side / 3 and pips == tp for tx, ty, tp in dice), reading
    size, strength = default_dicenet().die_size(frame, 0.45)
    assert 0.6 * side < size < 1.6 * side and strength > 0.5


def pyramid_passes(monkeypatch, side):
    """The full pyramid's level and the coarse-to-fine search's on five drawn dice of ``side`` px, and the die
    sizes the search ran the finder at (the full pyramid runs all seven levels: in a 640 px frame the shipped six and
    rig.vision.dicepyramid's extra one)."""
    frame, _ = scaled_dice_frame(side)
    nets = default_dicenet()
    passes = []
    finder_pass = DiceNet.finder_pass  # every finder pass (heat's too)
    monkeypatch.setattr(DiceNet, "finder_pass",
                        lambda self, f, die_px=0.0, *guides: passes.append(die_px) or finder_pass(self, f, die_px, *guides))
    full = nets.level(frame, 0.45, full=True)
    assert len(passes) == 7
    passes.clear()
    return full, nets.level(frame, 0.45), passes


@needs_nets
@pytest.mark.parametrize("side", [34, 40])
def test_the_pyramid_skips_finer_levels_once_the_dice_are_sure(monkeypatch, side):
    """Coarse to fine, a finer level that could not beat the strongest so far by more than SKIP_SLACK is not
    run: dice about the trained size (40 px here) are found with fewer finder passes than the full pyramid's
    seven, at the level the full pyramid picks."""
    full, quick, passes = pyramid_passes(monkeypatch, side)
    assert len(passes) < 6 and passes == sorted(passes, reverse=True)  # coarse to fine, the finest skipped
    assert quick[0] == full[0] and quick[1] == pytest.approx(full[1])


@needs_nets
@pytest.mark.parametrize("side", [56, 90])
def test_finer_levels_are_not_run_once_sure_dice_are_too_large_for_them(monkeypatch, side):
    """Dice larger than the trained size (56 and 90 px, the levels of 56 and 84 px pick them): once a level's dice
    are sure (STOP_SURE) and more than STOP_BAND times a finer level's die size, that level and the finer ones
    are not run (before: all six, now seven), and the level picked is the full pyramid's."""
    full, quick, passes = pyramid_passes(monkeypatch, side)
    assert min(passes) >= 640 * FIND_DIE / FIND_LONG  # no level finer than the finder's own size was run
    assert quick[0] == full[0] and quick[1] == pytest.approx(full[1])


@needs_nets
def test_every_die_is_read_once_per_frame_the_levels_coarse_peaks_in_one_batch(monkeypatch):
    """With no size hint the pyramid's levels read their strongest peaks to score themselves; those readings are
    kept for the dice found (no crop read twice), and the levels at the finder's size and coarser read theirs in
    one batch (every coarse level read, ``UNREAD_LEVELS`` off; on, the likeliest level's come first,
    :mod:`rig.vision.dicelevels`)."""
    import rig.vision.dicenet as dicenet

    frame, _ = scaled_dice_frame(60)
    nets = default_dicenet()
    crops, batches = [], []
    crop = dicenet.crop_die
    monkeypatch.setattr(dicenet, "crop_die", lambda f, x, y, side, *a, **k: crops.append((x, y, side)) or crop(f, x, y, side, *a, **k))
    read = DiceNet.read_features
    monkeypatch.setattr(DiceNet, "read_features", lambda self, c, hidden=True: batches.append(len(c)) or read(self, c, hidden))
    for unread in (True, False):
        monkeypatch.setattr(dicenet, "UNREAD_LEVELS", unread)
        crops.clear()
        batches.clear()
        dice = read_dice(frame, AnyDieParams(), nets)
        assert len(dice) >= 4 and len(crops) == len(set(crops)) == sum(batches)
    assert batches[0] > 3  # the coarse levels' peaks together (each level vouches with VOUCH = 3 at most)


@needs_nets
def test_a_level_peak_on_a_die_the_second_pass_read_surely_is_not_read(monkeypatch):
    """With no size hint the level's peaks and the second pass's both fall on each die; where the second pass read
    the die surely (DUPES_SURE), the level's peak there is not read: fewer crops, the same dice."""
    import rig.vision.dicenet as dicenet

    frame, _ = scaled_dice_frame(26)  # dice smaller than the finder's size: both passes find them
    nets = default_dicenet()
    crops = []
    crop = dicenet.crop_die
    monkeypatch.setattr(dicenet, "crop_die", lambda f, *a, **k: crops.append(a) or crop(f, *a, **k))
    got = {}
    for sure in (0.0, dicenet.DUPES_SURE):
        monkeypatch.setattr(dicenet, "DUPES_SURE", sure)
        crops.clear()
        dice = read_dice(frame, AnyDieParams(), nets)
        got[sure] = (len(crops), sorted((round(d.centre[0] / 10), round(d.centre[1] / 10), d.pips) for d in dice))
    assert 0 < dicenet.DUPES_SURE < 1 and got[dicenet.DUPES_SURE][0] < got[0.0][0]
    assert got[dicenet.DUPES_SURE][1] == got[0.0][1] and len(got[0.0][1]) >= 4


def test_a_peak_read_surely_as_two_to_six_pips_is_no_pip():
    from rig.vision.dicenet import PIPS_SURE, shows_pips

    assert shows_pips(np.array([0, 0, 0, 0.95, 0.05, 0, 0], np.float32))  # a die showing 3: not a pip
    assert not shows_pips(np.array([0, 0.95, 0.05, 0, 0, 0, 0], np.float32))  # a 1: a pip may look so
    assert not shows_pips(np.array([0.2, 0, PIPS_SURE - 0.1, 0.1, 0, 0, 0], np.float32))  # unsure


def test_a_die_found_by_the_second_pass_alone_must_be_read_surer():
    """A peak of the finder's second pass with no first-pass peak on it (a card corner the level never saw) is
    ok only from ``alone_read_ok``; the same reading of a die both passes saw is ok from ``read_ok``."""
    p = AnyDieParams(read_ok=0.9, alone_read_ok=0.97)
    fairly_sure = [0.0, 0.0, 0.95, 0.05, 0.0, 0.0, 0.0]
    assert judge(candidate(0.9, fairly_sure), p).count.status == "ok"
    lone = Candidate(100.0, 80.0, 40.0, 0.9, np.array(fairly_sure, np.float32), alone=True)
    die = judge(lone, p)
    assert die.pips == 2 and die.count.status == "uncertain" and die.count.reasons[0].startswith("pips unclear: 2 (0.95)")
    very_sure = np.array([0.0, 0.0, 0.99, 0.01, 0.0, 0.0, 0.0], np.float32)
    assert judge(Candidate(100.0, 80.0, 40.0, 0.9, very_sure, alone=True), p).count.status == "ok"


def test_second_pass_peaks_are_marked_alone_only_where_the_first_pass_saw_nothing(monkeypatch):
    def out(spots, s):  # a heat map with a peak at each (x, y) finder px, dice of 16 finder px; scale s
        gy, gx = np.mgrid[0:60, 0:80].astype(np.float32)
        heat = np.maximum.reduce([0.9 * np.exp(-((gx - x / 4) ** 2 + (gy - y / 4) ** 2)) for x, y in spots])
        return heat, np.full_like(heat, np.log(4.0)), s

    nets = DiceNet.__new__(DiceNet)
    # the second pass at twice the first's scale: its peaks at (42, 42) and (202, 42) are frame (21, 21) and
    # (101, 21); the first pass (scale 1) saw a die at (22, 21) only
    monkeypatch.setattr(nets, "normalised", lambda frame, floor, memo=None, level_floor=0.0, tile_floor=0.0: [out([(42, 42), (202, 42)], 2.0), out([(22, 21)], 1.0)],
                        raising=False)
    found = nets._found(np.zeros((240, 320, 3), np.uint8), 0.45, 0.0)
    got = sorted((x, a) for x, _, _, _, a in found)
    assert [a for _, a in got] == [False, False, True]  # the first pass's die and the second's on it; one alone
    assert abs(got[2][0] - 101) < 3 and all(abs(x - 22) < 4 for x, _ in got[:2])
    monkeypatch.setattr(nets, "normalised", lambda frame, floor, memo=None, level_floor=0.0, tile_floor=0.0: [out([(42, 42), (202, 42)], 2.0)], raising=False)
    assert not any(a for *_, a in nets._found(np.zeros((240, 320, 3), np.uint8), 0.45, 0.0))  # one pass: none alone


def test_the_level_is_chosen_on_peaks_above_level_floor(monkeypatch):
    """With no size hint the pyramid's level is chosen on the finder's peaks above LEVEL_FLOOR when it is set (a
    level seeing a die weakly must not lose to one not seeing it at all, issue 25: Banana Moon seed 24), else above
    the caller's floor; the candidates kept are above the caller's floor either way."""
    import rig.vision.dicenet as dicenet

    floors = []
    out = (np.zeros((4, 4), np.float32), np.zeros((4, 4), np.float32), 1.0)
    # a strong level (1.0): a weak one is chosen again above dicelevels.WEAK_FLOOR (tests/vision/test_dicenet_weak.py)
    monkeypatch.setattr(DiceNet, "level", lambda self, frame, floor, **k: floors.append(floor) or (40.0, 1.0, out))
    nets = DiceNet.__new__(DiceNet)
    nets.full_pyramid, nets.refine = False, True
    frame = np.zeros((48, 64, 3), np.uint8)
    for level_floor in (0.0, 0.2, 0.6):
        monkeypatch.setattr(dicenet, "LEVEL_FLOOR", level_floor)
        assert nets.normalised(frame, 0.45) == [out]
    assert floors == [0.45, 0.2, 0.45]  # never above the caller's floor


def test_peaks_all_at_once_are_the_peak_by_peak_floats_to_the_bit():
    from rig.vision.dicepeaks import peaks, peaks_one_by_one

    rng = np.random.default_rng(25)
    for k in range(200):
        h, w = (int(v) for v in rng.integers(6, 60, 2))
        heat = rng.random((h, w)).astype(np.float32)
        if k % 2:
            heat = cv2.GaussianBlur(heat, (0, 0), float(rng.uniform(0.5, 3.0)))
            heat = (heat / heat.max()).astype(np.float32)
        sides = rng.normal(1.3, 0.5, (h, w)).astype(np.float32)
        assert peaks(heat, sides, 0.2) == peaks_one_by_one(heat, sides, 0.2)
    assert peaks(np.zeros((8, 8), np.float32), np.zeros((8, 8), np.float32), 0.2) == []


def test_peak_memo_finds_each_maps_peaks_once_and_hands_out_copies(monkeypatch):
    from rig.vision import dicepeaks

    calls = []
    monkeypatch.setattr(dicepeaks, "peaks", lambda heat, sides, floor: calls.append(floor) or [(1.0, 2.0, 3.0, 0.5)])
    memo = dicepeaks.PeakMemo(size=2)
    a, b, c = (np.zeros((4, 4), np.float32) for _ in range(3))
    first = memo(a, a, 0.2)
    first.append("changed by the caller")
    assert memo(a, a, 0.2) == [(1.0, 2.0, 3.0, 0.5)] and calls == [0.2]
    memo(a, a, 0.3)  # another floor: found again
    memo(b, b, 0.2)  # another map (equal, not the same): found again, and a's 0.2 forgotten (size 2)
    memo(a, a, 0.2)
    assert calls == [0.2, 0.3, 0.2, 0.2]
    memo(c, c, 0.2)
    assert len(calls) == 5


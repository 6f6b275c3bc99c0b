"""Issue 25, round 23: the per-die checks read turned half round (rig.vision.dieturn) and in a wider crop
(rig.vision.diewide) read a frame's ``ok`` dice in one batch each, and flag the very dice the one-by-one checks flag;
the shipped reader gives a crop the same numbers alone or in a batch, to the bit, with both engines."""

import numpy as np
import pytest

from rig.vision import dicenet
from rig.vision.dieturn import turned_reason, turned_reasons
from rig.vision.diewide import wide_reason, wide_reasons
from rig.vision.netengine import ENGINE_ENV
from rig.vision.pips import PipCount, PipDie


class _LightTopReader:
    """Reads a 4 only where the crop's top is lighter than its bottom; counts its calls."""

    crop = dicenet.CROP

    def __init__(self):
        self.calls = 0

    def read(self, crops):
        self.calls += 1
        out = np.full((len(crops), 7), 0.01, np.float32)
        for i, c in enumerate(crops):
            out[i, 4] = 0.95 if c[: len(c) // 2].mean() > c[len(c) // 2 :].mean() + 1 else 0.1
        return out


def _frame_and_dice():
    """Four 4s: two light on top (read 4 the right way up, not turned), two dark on top; one of each flagged."""
    frame = np.full((240, 480, 3), 150, np.uint8)
    dice = []
    for i, (top, bottom) in enumerate([(220, 60), (60, 220), (220, 60), (60, 220)]):
        x = 20 + 110 * i
        frame[60:100, x : x + 80], frame[100:140, x : x + 80] = top, bottom
        status = ("uncertain", ("pips unclear",)) if i == 2 else ("ok", ())
        dice.append(PipDie((x, 60, 80, 80), PipCount(4, (), 0.95, *status)))
    return frame, dice


def test_the_checks_read_a_frames_dice_in_one_batch_each_and_flag_as_one_by_one():
    frame, dice = _frame_and_dice()
    reader = _LightTopReader()
    turned = turned_reasons(frame, dice, reader, 0.3)
    wide = wide_reasons(frame, dice, reader, 1.5, 0.3)
    assert reader.calls == 2  # one batch per check, not one read per die
    assert turned == [turned_reason(frame, d, _LightTopReader(), 0.3) for d in dice]
    assert wide == [wide_reason(frame, d, _LightTopReader(), 1.5, 0.3) for d in dice]
    assert [d.count.status for d in turned] == ["uncertain", "ok", "uncertain", "ok"]  # the 3rd was flagged before
    assert turned[2] is dice[2] and turned[1] is dice[1]


def test_no_die_to_check_reads_nothing():
    frame, dice = _frame_and_dice()
    reader = _LightTopReader()
    assert turned_reasons(frame, dice, reader, 0.0) == dice and wide_reasons(frame, dice, reader, 0.0, 0.3) == dice
    assert turned_reasons(frame, [], reader, 0.3) == [] and reader.calls == 0


@pytest.mark.parametrize("engine", ["cv2", "onnxruntime"])
def test_the_reader_gives_a_crop_the_same_numbers_alone_or_in_a_batch(engine, monkeypatch):
    if engine == "onnxruntime":
        pytest.importorskip("onnxruntime")
    if not (dicenet.FIND_WEIGHTS.exists() and dicenet.READ_WEIGHTS.exists()):
        pytest.skip("no dice nets")
    monkeypatch.setenv(ENGINE_ENV, engine)
    nets = dicenet.DiceNet()
    rng = np.random.default_rng(23)
    frame = rng.integers(0, 256, (300, 400, 3), np.uint8)
    crops = [dicenet.crop_die(frame, *rng.uniform(60, 240, 2), rng.uniform(20, 90), size=nets.crop) for _ in range(9)]
    batch, hidden = nets.read_features(crops)
    for i, crop in enumerate(crops):
        alone, alone_hidden = nets.read_features([crop])
        assert np.array_equal(alone[0], batch[i])
        assert hidden is None or np.array_equal(alone_hidden[0], hidden[i])

"""The learned pip counter: its weight file, its features, and how it checks the classical counter."""

import numpy as np
import pytest

from rig.vision.anydie import AnyDieParams, read_die
from rig.vision.pipnet import DEFAULT_WEIGHTS, N_FEATURES, PipNet, PipNetError, crop_square, default_net, features


class FixedNet:
    """A stand-in with a fixed answer, to test the combining rules (the real net is tested below)."""

    def __init__(self, k, p):
        self.k, self.p = k, p

    def classify(self, frame, box):
        return self.k, self.p


def red_die(pips_at):
    import cv2

    frame = np.full((200, 200, 3), 215, np.uint8)
    cv2.rectangle(frame, (78, 78), (122, 122), (40, 40, 200), -1)
    for x, y in pips_at:
        cv2.circle(frame, (x, y), 4, (240, 240, 240), -1)
    mask = np.ones((45, 45), np.uint8)
    return frame, (78, 78, 45, 45), mask


THREE = [(88, 88), (100, 100), (112, 112)]


def test_agreement_is_ok_and_disagreement_is_flagged():
    frame, box, mask = red_die(THREE)
    p = AnyDieParams()
    assert read_die(frame, box, mask, p, FixedNet(3, 0.7)).count.status == "ok"
    d = read_die(frame, box, mask, p, FixedNet(5, 0.99))
    assert (d.pips, d.count.status) == (5, "uncertain") and "disagree (3 or 5)" in d.count.reasons[0]
    d = read_die(frame, box, mask, p, FixedNet(5, 0.5))
    assert (d.pips, d.count.status) == (3, "uncertain")
    d = read_die(frame, box, mask, p, FixedNet(0, 0.9))  # the net sees no die where the counter reads 3
    assert d.count.status == "uncertain" and d.pips == 3
    assert read_die(frame, box, mask, p, FixedNet(0, 0.99)).pips == 0  # ... very surely: dropped


def test_the_counters_pip_centres_are_kept_when_the_net_outvotes_it():
    frame, box, mask = red_die(THREE)
    d = read_die(frame, box, mask, AnyDieParams(), FixedNet(5, 0.99))
    assert d.pips == 5 and len(d.count.centres) == 3  # where the pips are, for their colour


def test_a_candidate_nobody_can_read_is_dropped_when_the_net_sees_no_die():
    frame, box, mask = red_die([])
    assert read_die(frame, box, mask, AnyDieParams(), FixedNet(0, 0.95)).pips == 0


def test_features_are_fixed_length_and_colour_free():
    frame, box, _ = red_die(THREE)
    f = features(crop_square(frame, box))
    assert f.shape == (N_FEATURES,) and np.isfinite(f).all()
    swapped = frame[..., ::-1].copy()  # a blue die with the same pips
    g = features(crop_square(swapped, box))
    assert np.abs(f[-120:] - g[-120:]).sum() <= 8  # the blob counts barely change with the colour


def test_crop_near_the_edge_is_padded():
    frame = np.zeros((50, 50, 3), np.uint8)
    assert crop_square(frame, (-10, 40, 20, 20)).shape == (23, 23, 3)


@pytest.mark.skipif(not DEFAULT_WEIGHTS.exists(), reason="no shipped weights")
def test_shipped_weights_load_and_give_probabilities():
    net = default_net()
    assert net is default_net()  # loaded once
    p = net.probabilities(np.zeros((3, N_FEATURES), np.float32))
    assert p.shape == (3, 7) and np.allclose(p.sum(axis=1), 1)
    assert sum(a.size for a in (net.w1, net.b1, net.w2, net.b2)) < 200_000  # small


def test_bad_weight_files(tmp_path):
    with pytest.raises(PipNetError, match="do not exist"):
        PipNet.load(tmp_path / "none.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(PipNetError, match="cannot read"):
        PipNet.load(tmp_path / "junk.npz")
    z = np.zeros((2, 2), np.float32)
    np.savez(tmp_path / "small.npz", w1=z, b1=z, w2=z, b2=z, mean=z, std=z)
    with pytest.raises(PipNetError, match="not a 24x24 pip net"):
        PipNet.load(tmp_path / "small.npz")

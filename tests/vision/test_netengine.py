"""The engine that runs the dice nets (rig.vision.netengine): OpenCV's cv2.dnn, or ONNX Runtime when installed — the
same outputs within float noise, the same readings of drawn dice, and the choice by RIG_DICENET_ENGINE."""

import sys

import cv2
import numpy as np
import pytest

from rig.vision import dicenet
from rig.vision.netengine import ENGINE_ENV, CvNet, NetLoadError, _extra_output, _varint, engine_name, load_net

SHIPPED = dicenet.FIND_WEIGHTS.exists() and dicenet.READ_WEIGHTS.exists()
needs_nets = pytest.mark.skipif(not SHIPPED, reason="no shipped nets")


def crops(n=9):
    """Drawn dice (1-6 pips, light and dark) and noise, as the reader's crops."""
    from tests.vision.test_dicenet import draw_die

    out = []
    for i in range(n):
        frame = np.full((80, 80, 3), (40 + 20 * i) % 200, np.uint8)
        if i < 6:
            draw_die(frame, 40, 40, i + 1, (230, 230, 230) if i % 2 else (30, 30, 160), (20, 20, 20) if i % 2 else (240, 240, 240))
        else:
            frame = np.random.default_rng(i).integers(0, 255, frame.shape).astype(np.uint8)
        out.append(dicenet.crop_die(frame, 40, 40, 40))
    return out


def test_varint_and_the_extra_output_are_protobuf_wire_format():
    assert _varint(1) == b"\x01" and _varint(300) == b"\xac\x02"
    # ModelProto.graph (7) { GraphProto.output (12) { name (1) "h", type (2) { tensor_type (1) { elem_type (1) 1 } } } }
    assert _extra_output("h") == bytes([0x3A, 11, 0x62, 9, 0x0A, 1, ord("h"), 0x12, 4, 0x0A, 2, 0x08, 1])


def test_the_engine_is_chosen_by_the_environment(monkeypatch):
    monkeypatch.setenv(ENGINE_ENV, "cv2")
    assert engine_name() == "cv2"
    monkeypatch.delenv(ENGINE_ENV)
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # not installed
    assert engine_name() == "cv2"
    monkeypatch.setenv(ENGINE_ENV, "onnxruntime")
    with pytest.raises(NetLoadError, match="not installed"):
        engine_name()
    monkeypatch.setenv(ENGINE_ENV, "tensorrt")
    with pytest.raises(NetLoadError, match="'tensorrt': expected cv2 or onnxruntime"):
        engine_name()


@needs_nets
def test_cv2_engine_is_opencvs_own_net(monkeypatch):
    monkeypatch.setenv(ENGINE_ENV, "cv2")
    net = load_net(dicenet.READ_WEIGHTS, "ENGINE_CLASSIC", dicenet.HIDDEN)
    assert isinstance(net, CvNet) and net.name == "cv2" and net.hidden in dicenet.HIDDEN


@needs_nets
def test_onnxruntime_gives_the_same_outputs_and_hidden_layer_as_opencv(monkeypatch):
    pytest.importorskip("onnxruntime")
    monkeypatch.setenv(ENGINE_ENV, "cv2")
    cv = dicenet.DiceNet()
    monkeypatch.setenv(ENGINE_ENV, "onnxruntime")
    ort = dicenet.DiceNet()
    assert ort.reader.name == "onnxruntime" and ort.hidden == "/head/head.2/Relu_output_0"
    some = crops()
    (p1, f1), (p2, f2) = cv.read_features(some), ort.read_features(some)
    assert f2.shape == f1.shape == (len(some), 96)
    assert np.abs(p2 - p1).max() < 1e-5 and np.abs(f2 - f1).max() < 1e-4 * max(1.0, np.abs(f1).max())
    assert (p2.argmax(axis=1) == p1.argmax(axis=1)).all()
    assert ort.read(some) == pytest.approx(p2, abs=1e-6)  # without the hidden layer: the same probabilities
    frame = np.full((480, 640, 3), 90, np.uint8)
    h1, s1, _ = cv.heat(frame)
    h2, s2, _ = ort.heat(frame)
    assert np.abs(h2 - h1).max() < 1e-5 and np.abs(s2 - s1).max() < 1e-4


@needs_nets
def test_onnxruntime_runs_on_as_many_threads_as_opencv(monkeypatch):
    pytest.importorskip("onnxruntime")
    monkeypatch.setenv(ENGINE_ENV, "onnxruntime")
    threads = cv2.getNumThreads()
    try:
        cv2.setNumThreads(1)
        net = load_net(dicenet.FIND_WEIGHTS)
        assert set(net.sessions) == {1}
        cv2.setNumThreads(2)
        net.run(np.zeros((1, 3, 64, 64), np.float32))
        assert set(net.sessions) == {1, 2}
    finally:
        cv2.setNumThreads(threads)


@needs_nets
def test_both_engines_read_drawn_dice_alike(monkeypatch):
    pytest.importorskip("onnxruntime")
    from tests.vision.test_dicenet import draw_die

    frame = np.full((480, 640, 3), (70, 110, 60), np.uint8)
    for k, (x, y) in enumerate([(120, 120), (300, 140), (480, 110), (150, 330), (330, 350), (500, 320)]):
        draw_die(frame, x, y, k + 1, (235, 235, 235) if k % 2 else (40, 40, 190), (25, 25, 25) if k % 2 else (245, 245, 245), 56)
    p = dicenet.AnyDieParams()
    read = []
    for engine in ("cv2", "onnxruntime"):
        monkeypatch.setenv(ENGINE_ENV, engine)
        nets = dicenet.DiceNet()
        read.append([(d.box, d.count.pips, d.count.status) for d in dicenet.read_dice(frame, p, nets)])
    assert read[0] == read[1] and len(read[0]) == 6

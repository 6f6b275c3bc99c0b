"""scripts/train_dicenet.py (issue 25): what the finder's training tiles are made of."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load_script(monkeypatch):
    pytest.importorskip("torch")
    monkeypatch.syspath_prepend(str(SCRIPTS))  # its neighbours: onnx_weights, tune_dicenet, twin_frames
    spec = importlib.util.spec_from_file_location("train_dicenet", SCRIPTS / "train_dicenet.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_dicenet", module)
    spec.loader.exec_module(module)
    return module


def test_drawn_dice_from_photo_tiles_only_keep_the_twin_share(monkeypatch):
    """``--drawn-from photos``: the flat drawn dice take the place of photo tiles only, so the twin frames' share of
    the tiles is what it is without them; ``--drawn-from all`` (D's) takes it from both."""
    train = load_script(monkeypatch)
    from twin_frames import TwinShot

    photo = (object(), None, None)
    twin = (TwinShot(Path("9100/0"), np.zeros((0, 4))), None, None)
    entries = [photo] * 700 + [twin] * 300

    def shares(drawn_twin):
        rng = np.random.default_rng(0)
        got = [train.tile_source(e, rng, 0.14, drawn_twin, 0.25) for e in entries]
        return {k: got.count(k) / len(got) for k in ("drawn", "photo", "twin", "twin big")}

    only_photos, anywhere = shares(False), shares(True)
    assert only_photos["twin"] + only_photos["twin big"] == 0.3  # every twin entry gives a twin tile
    assert 0.08 < only_photos["drawn"] < 0.12 and only_photos["photo"] + only_photos["drawn"] == 0.7
    assert anywhere["twin"] + anywhere["twin big"] < 0.28  # some twin tiles drawn instead
    assert 0.2 < only_photos["twin big"] / 0.3 < 0.3

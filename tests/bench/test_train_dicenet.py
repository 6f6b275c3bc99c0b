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


def test_kept_photos_ask_for_the_start_finders_own_output(monkeypatch, tmp_path):
    """``--keep-photos``: a finder that already gives the start finder's output on photo tiles has nothing to learn
    from them, whatever their labels; a twin tile still teaches, and the start finder's output moved costs."""
    train = load_script(monkeypatch)
    import torch

    torch.manual_seed(0)
    net = train.Finder(folded=True).eval()
    x = torch.rand(2, 3, 64, 64)
    with torch.no_grad():
        wanted = net(x)
    assert float(train.kept_loss(wanted, wanted)) == 0.0
    moved = wanted.clone()
    moved[:, 0] = (moved[:, 0] + 0.2).clamp(max=1)
    assert float(train.kept_loss(moved, wanted)) > 0.0
    heat = torch.zeros(2, 16, 16)
    heat[:, 8, 8] = 1.0
    labels = (heat, torch.zeros(2, 16, 16), heat.clone(), torch.ones(2, 16, 16))
    assert float(train.finder_loss(wanted, *labels)) > 0.0
    assert float(train.finder_loss(wanted[:0], *(t[:0] for t in labels))) == 0.0


@pytest.mark.parametrize("levels", [0.0, 1.0])
def test_a_finder_trained_on_with_kept_photos_runs(monkeypatch, levels):
    """One step of ``train_finder`` with ``keep``: photo tiles (``levels``: windows of whole pyramid levels) against
    the start finder, twin tiles against labels."""
    train = load_script(monkeypatch)
    from twin_frames import TwinShot

    rng = np.random.default_rng(0)
    image = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    dice = np.array([[320, 240, 40, 3]], np.float32)
    entries = [(object(), image, dice)] * 3 + [(TwinShot(Path("twin/9140-0"), np.zeros((0, 4))), image, dice)]
    start = Path(__file__).resolve().parents[2] / "calibration" / "dicenet_find.onnx"
    net = train.train_finder(entries, 1, rng, start=start, lr=1e-4, keep=1.0, levels=levels,
                             twin=dict(sizes=(9.0, 26.0), limit=28.0, big=0.25))
    assert not net.training


def test_kept_levels_ask_for_the_start_finders_output_on_the_whole_level(monkeypatch):
    """``--keep-levels``: a photo tile is a window of a whole pyramid level, its target the start finder's output on
    the level; at the cells it weighs the window alone gives that very output, and the levels span the pyramid's
    scales (the kept tiles of round 31 held the photos' dice at 10-25 finder px only)."""
    train = load_script(monkeypatch)
    import torch

    from onnx_weights import load_onnx

    torch.set_num_threads(1)
    teacher = load_onnx(train.Finder(folded=True), train.FIND_WEIGHTS).eval()
    rng = np.random.default_rng(0)
    image = np.full((960, 1280, 3), 90, np.uint8)
    image[::40] = 250  # a grid: the finder responds somewhere on every level
    image[:, ::40] = 250
    cuts, shown = 0, set()
    for _ in range(12):
        window, heat, sides, mask, weight = train.level_sample(image, rng, teacher)
        assert window.shape == (256, 256, 3) and heat.shape == sides.shape == weight.shape == (64, 64)
        assert not mask.any()
        with torch.no_grad():
            out = teacher(train.to_tensor([window]))[0].numpy()
        assert np.abs(out[0] - heat)[weight > 0].max() < 1e-4
        assert np.abs(out[1] - sides)[weight > 0].max() < 1e-4
        cuts += int((weight == 0).any())
        shown.add(round(float(np.mean(np.abs(np.diff(window[..., 0].astype(int), axis=1)) > 60)), 2))
    assert cuts and len(shown) > 4  # some windows cut from larger levels; the grid at many scales

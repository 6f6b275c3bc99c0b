"""Per-frame light correction: exposure and white-balance drift read the same; beyond it, one clear reason."""

import numpy as np
import pytest

from rig.vision.dice import read_dice
from rig.vision.light import Light, drift_text
from rig.vision.profile import Profile
from rig.vision.render import random_scene, render_scene


def drifted(frame: np.ndarray, exposure: float = 1.0, warm: float = 1.0) -> np.ndarray:
    """The frame as the camera would give it after the light moved (gains on B, G, R; clipped)."""
    gains = np.array([exposure / warm ** 0.5, exposure, exposure * warm ** 0.5], np.float32)
    return np.clip(frame.astype(np.float32) * gains, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def turns():
    out = []
    for k in range(6):
        rng = np.random.default_rng([4, k])
        scene = random_scene(rng, 6, "neutral")
        out.append((render_scene(scene, seed=k), sorted(d.face for d in scene.truth().dice)))
    return out


@pytest.mark.parametrize("exposure,warm", [(0.7, 1.0), (0.8, 1.0), (1.2, 1.0), (1.3, 1.0), (1.0, 1.3), (1.0, 1 / 1.3)])
def test_drift_reads_the_same(virtual_profile, turns, exposure, warm):
    right = 0
    for frame, faces in turns:
        reading = read_dice(drifted(frame, exposure, warm), virtual_profile)
        assert reading.light is not None and reading.light.correctable
        assert reading.light.exposure == pytest.approx(exposure, rel=0.08)
        assert reading.light.warm == pytest.approx(warm, rel=0.08)
        assert not reading.ok or reading.faces == faces  # never a wrong reading that says ok
        right += reading.ok and reading.faces == faces
    assert right >= len(turns) - 2  # bright yellow frogs clip at x1.3: flagged, never misread


def test_light_beyond_correction_is_one_clear_reason(virtual_profile, turns):
    frame, _ = turns[0]
    reading = read_dice(drifted(frame, 0.4), virtual_profile)
    assert not reading.ok and not reading.light.correctable
    assert any(r.startswith("The light changed — recalibrate") for r in reading.reasons)


def test_light_value_and_text():
    assert Light(0.8, 1.0).correctable and not Light(0.4, 1.0).correctable and not Light(1.0, 2.0).correctable
    assert not Light(1.0, 1.0, floor_seen=0.1).reliable
    assert drift_text(Light(0.4, 1.0)) == "The light changed — recalibrate (darker x0.40)"
    assert "warmer white balance" in drift_text(Light(1.0, 2.0))


def test_a_format_2_profile_still_loads_and_reads(virtual_profile, turns):
    text = virtual_profile.to_toml()
    old = text[: text.index("[floor]")] + text[text.index("[[background]]"):]
    old = old.replace("format = 3", "format = 2")
    profile = Profile.parse(old)
    assert profile.floor is None
    frame, faces = turns[0]
    reading = read_dice(frame, profile)
    assert reading.light is None and reading.faces == faces


def test_the_floor_grid_round_trips(virtual_profile, tmp_path):
    path = virtual_profile.save(tmp_path / "p.toml")
    again = Profile.load(path)
    assert again.floor_cells == virtual_profile.floor_cells
    assert np.allclose(np.array(again.floor), np.array(virtual_profile.floor), atol=0.06)
    assert again.walls == pytest.approx(virtual_profile.walls)

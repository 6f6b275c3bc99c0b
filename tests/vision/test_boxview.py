"""rig.vision.boxview on virtual-table frames: the box in view is not flagged, a moved camera is."""

from __future__ import annotations

import numpy as np
import pytest

from rig.vision import render
from rig.vision.boxview import find_box_floor

SIZE = (1280, 960)


def frame(seed: int, lighting: str = "neutral") -> np.ndarray:
    rng = np.random.default_rng([seed, 23])
    scene = render.random_scene(rng, 6, lighting, size=SIZE, die_side=55)
    return render.render_scene(scene, seed=seed)


@pytest.mark.parametrize("lighting", ["neutral", "warm", "dim", "bright"])
def test_box_in_view_is_found_inside_the_picture(lighting):
    seen = find_box_floor(frame(1, lighting))
    assert seen.touches == ()
    x0, y0, x1, y1 = render.floor_rect(SIZE)
    # the floor found is the box bottom inside the walls, give or take the wall's shading
    assert seen.rect == pytest.approx((x0, y0, x1, y1), abs=0.03 * SIZE[0])


@pytest.mark.parametrize("side", ["top", "bottom", "left", "right"])
def test_a_side_cut_off_is_named(side):
    f = frame(2)
    h, w = f.shape[:2]
    cut = {"top": f[h // 5:], "bottom": f[: -h // 5], "left": f[:, w // 6:], "right": f[:, : -w // 6]}[side]
    assert side in find_box_floor(cut).touches

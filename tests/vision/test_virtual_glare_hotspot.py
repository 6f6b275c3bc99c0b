"""A blue frog under the virtual table's glare hotspot keeps some of its hue (50-73 degrees off the model's, chroma
~20): still a frog, read blue; only a colour turned far across (dice_hue.NO_FROG_HUE, the lamp's grey image on twin
11405 140-150 degrees off) is no frog (round 31: the virtual bench's glare lost three blue dice to "blank"). A pink
frog the hotspot washed out entirely is read blank, flagged, and no longer freed by the second look, which reads the
same washed-out top blank (dice_second_look._blank_in_glare: the bench's two silent frames since round 27)."""

from __future__ import annotations

import numpy as np
import pytest

from rig.cli.calibrate import virtual_ritual
from rig.vision import dice_hue, dice_second_look
from rig.vision.calibrate import fit_profile
from rig.vision.dice import read_dice
from rig.vision.render import LIGHTINGS, random_scene, render_scene


@pytest.fixture(scope="module")
def glare_profile():
    frames, empty = virtual_ritual("glare")
    return fit_profile(frames, empty=empty, name="glare").profile


def _frame(k: int):
    """``rig bench vision``'s frame ``k`` of the glare lighting (seed 1)."""
    rng = np.random.default_rng([1, list(LIGHTINGS).index("glare"), k])
    n = 6 if rng.random() < 0.5 else int(rng.integers(0, 6))
    extra = rng.random()
    scene = random_scene(rng, n, "glare", cocked=0.12, hand=extra < 0.04,
                         card=str(rng.choice(["blue", "pink", "gray"])) if 0.04 <= extra < 0.06 else None)
    return render_scene(scene, seed=k)


def _face_at(reading, x, y):
    return min(reading.dice, key=lambda d: (d.x - x) ** 2 + (d.y - y) ** 2).face


@pytest.mark.parametrize("k, x, y", [(82, 209, 166), (155, 208, 184), (247, 189, 168)])
def test_a_blue_frog_under_the_hotspot_reads_blue(glare_profile, k, x, y):
    assert _face_at(read_dice(_frame(k), glare_profile), x, y) == "blue"


def test_at_the_old_bound_it_was_no_frog(glare_profile, monkeypatch):
    monkeypatch.setattr(dice_hue, "NO_FROG_HUE", dice_hue.OFF_HUE)
    reading = read_dice(_frame(82), glare_profile)
    assert _face_at(reading, 209, 166) == "blank" and reading.status == "uncertain"


@pytest.mark.parametrize("k, x, y", [(114, 184, 161), (185, 180, 167)])
def test_a_pink_frog_washed_out_by_the_hotspot_is_asked(glare_profile, k, x, y):
    reading = read_dice(_frame(k), glare_profile)
    assert _face_at(reading, x, y) == "blank"  # the pink frog lost to the glare: read wrong, so it must be asked
    assert reading.status == "uncertain" and any("glare" in r for r in reading.reasons)


def test_freed_by_the_second_look_it_said_ok(glare_profile, monkeypatch):
    monkeypatch.setattr(dice_second_look, "_blank_in_glare", lambda *a: False)
    assert read_dice(_frame(114), glare_profile).status == "ok"

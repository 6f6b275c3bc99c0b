"""The virtual table: seeded, truthful, re-renderable."""

import numpy as np
import pytest

from rig.vision import render
from rig.vision.errors import VisionError
from rig.vision.render import (
    LIGHTINGS, Hand, PlacedCard, PlacedDie, Scene, random_faces, random_scene, render_card, render_scene, render_table,
)


def test_render_table_is_seeded_and_returns_truth():
    a, truth_a = render_table(11, n_dice=5)
    b, truth_b = render_table(11, n_dice=5)
    assert a.shape == (480, 640, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert truth_a == truth_b and len(truth_a.dice) == 5
    c, _ = render_table(12, n_dice=5)
    assert not np.array_equal(a, c)


def test_truth_scales_with_the_rendered_size():
    scene = random_scene(np.random.default_rng(3), 4, "neutral")
    small, big = scene.truth(), scene.truth((1280, 960))
    assert [round(d.x * 2, 6) for d in small.dice] == [round(d.x, 6) for d in big.dice]
    frame = render_scene(scene, size=(1280, 960))
    assert frame.shape == (960, 1280, 3)


def test_re_rendering_a_scene_changes_only_the_noise():
    scene = random_scene(np.random.default_rng(4), 6, "neutral")
    a = render_scene(scene, seed=1).astype(int)
    b = render_scene(scene, seed=2).astype(int)
    diff = np.abs(a - b)
    assert 0 < diff.mean() < 6  # noise and JPEG only: the dice did not move


def test_dice_appear_where_the_truth_says():
    scene = Scene(dice=(PlacedDie("blank", 320, 240, 10),), lighting=LIGHTINGS["neutral"])
    frame = render_scene(scene)
    b, g, r = frame[240, 320].astype(int)
    assert b > g + 40 and r > g + 20  # violet die body under the centre
    floor = frame[100, 100].astype(int)
    assert abs(floor[0] - floor[2]) < 30  # grey box bottom elsewhere


def test_random_faces_respect_the_dice():
    rng = np.random.default_rng(0)
    for _ in range(200):
        faces = random_faces(rng, 6)
        for combo in ("pink+blue", "yellow+pink", "blue+yellow"):
            assert faces.count(combo) <= 2


def test_hard_conditions_are_present():
    rng = np.random.default_rng(5)
    scenes = [random_scene(rng, 6, "random", cocked=0.5, touching=0.5) for _ in range(20)]
    assert any(d.cocked for s in scenes for d in s.dice)
    assert len({s.lighting.name for s in scenes}) >= 4
    assert any(l.glare for l in LIGHTINGS.values()) and any(l.gradient[0] > 0.3 for l in LIGHTINGS.values())
    hand = random_scene(rng, 3, "dim", hand=True)
    assert isinstance(hand.hand, Hand) and hand.truth().should_be_uncertain


def test_card_rendering():
    frame = render_card("pink", lighting="neutral", seed=2)
    centre = frame[200:280, 280:360].reshape(-1, 3).astype(int)
    assert (centre[:, 2] > centre[:, 1] + 60).mean() > 0.3  # mostly pink
    scene = Scene(card=PlacedCard("gray", 320, 240))
    assert scene.truth().card == "gray"


def test_bad_values_are_refused():
    with pytest.raises(VisionError, match="unknown die face"):
        PlacedDie("green", 1, 1)
    with pytest.raises(VisionError, match="unknown card"):
        PlacedCard("red", 1, 1)
    with pytest.raises(VisionError, match="unknown lighting"):
        random_scene(np.random.default_rng(0), 2, "disco")
    with pytest.raises(VisionError, match="0 to 6 dice"):
        random_scene(np.random.default_rng(0), 7)


def test_face_names_are_the_rules_names():
    from rig.games.frogs.rules import FACE_NAMES, Face

    for face in FACE_NAMES:
        assert str(Face.parse(face)) == face
    assert render.CARD_NAMES == ("blue", "pink", "yellow", "blank", "gray")

"""The dice reader on seeded virtual-table frames with known truth."""

import numpy as np
import pytest

from rig.vision.dice import DiceReading, read_dice
from rig.vision.errors import FrameError
from rig.vision.render import LIGHTINGS, Hand, PlacedCard, PlacedDie, Scene, random_scene, render_scene


def _scene(*dice, **kw):
    return Scene(dice=tuple(PlacedDie(*d) for d in dice), lighting=LIGHTINGS["neutral"], **kw)


def test_reads_seeded_tables(virtual_profile):
    wrong_silent = 0
    right = total = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        scene = random_scene(rng, int(rng.integers(1, 7)), "neutral", touching=0.2)
        reading = read_dice(render_scene(scene, seed=seed), virtual_profile)
        truth = scene.truth()
        total += len(truth.dice)
        right += sum(
            any(o.face == d.face and abs(o.x - d.x) < 20 and abs(o.y - d.y) < 20 for o in reading.dice)
            for d in truth.dice
        )
        wrong_silent += reading.ok and reading.faces != truth.faces
    assert wrong_silent == 0
    assert right >= total - 1


def test_every_face_is_read(virtual_profile):
    faces = ["blue", "pink", "yellow", "blank", "pink+blue", "blue+yellow"]
    scene = _scene(*[(f, 110 + 140 * (i % 3), 140 + 200 * (i // 3), 17 * i) for i, f in enumerate(faces)])
    reading = read_dice(render_scene(scene, seed=1), virtual_profile)
    assert reading.status == "ok", reading.reasons
    assert reading.faces == sorted(faces)
    for obs in reading.dice:
        assert obs.confidence > 0.5
        x, y, w, h = obs.box
        assert x <= obs.x <= x + w and y <= obs.y <= y + h


def test_to_dict_shape(virtual_profile):
    reading = read_dice(render_scene(_scene(("yellow+pink", 300, 200, 30)), seed=2), virtual_profile)
    d = reading.to_dict()
    assert set(d) == {"dice", "status", "reasons"}
    assert set(d["dice"][0]) == {"face", "x", "y", "box", "confidence"}
    assert d["dice"][0]["face"] == "yellow+pink" and d["status"] == "ok"


def test_empty_box_reads_no_dice(virtual_profile):
    reading = read_dice(render_scene(_scene(), seed=3), virtual_profile)
    assert reading.dice == () and reading.ok


def test_touching_dice_are_split(virtual_profile):
    scene = _scene(("pink", 300, 240, 0), ("blue", 354, 240, 0), ("blank", 327, 294, 0))
    reading = read_dice(render_scene(scene, seed=4), virtual_profile)
    assert reading.faces == ["blank", "blue", "pink"]


def test_impossible_combo_count_is_uncertain(virtual_profile):
    scene = _scene(*[("pink+blue", 150 + 150 * i, 240, 20 * i) for i in range(3)])
    reading = read_dice(render_scene(scene, seed=5), virtual_profile)
    assert reading.status == "uncertain"
    assert any("only 2 dice carry it" in r for r in reading.reasons)


def test_cocked_die_is_flagged(virtual_profile):
    scene = _scene(("blue", 200, 240, 0), ("pink", 420, 240, 0))
    scene = scene.replace(dice=scene.dice[:1] + (PlacedDie("pink", 420, 240, 20, True, 35, "yellow"),))
    reading = read_dice(render_scene(scene, seed=6), virtual_profile)
    assert reading.status == "uncertain"
    assert any("cocked" in r or "edge" in r for r in reading.reasons)


def test_hand_in_view_is_flagged(virtual_profile):
    scene = _scene(("blue", 200, 240, 0), hand=Hand(380, 260))
    reading = read_dice(render_scene(scene, seed=7), virtual_profile)
    assert reading.status == "uncertain" and any("hand" in r for r in reading.reasons)


def test_card_in_view_is_flagged(virtual_profile):
    scene = _scene(("blue", 120, 240, 0), card=PlacedCard("yellow", 380, 240, 10))
    reading = read_dice(render_scene(scene, seed=8), virtual_profile)
    assert reading.status == "uncertain"


@pytest.mark.parametrize("frame", [None, np.zeros((100, 100), np.uint8), np.zeros((100, 100, 3), np.float32),
                                   np.zeros((10, 10, 3), np.uint8)])
def test_bad_frames_are_refused(virtual_profile, frame):
    with pytest.raises(FrameError):
        read_dice(frame, virtual_profile)


def test_reading_repr():
    r = DiceReading((), "uncertain", ("hand or object in view at (1, 2)",))
    assert "uncertain" in repr(r) and "hand" in repr(r)

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


# --------------------------------------------------------------------------- glare

@pytest.fixture(scope="module")
def glare_profile():
    from rig.cli.calibrate import virtual_ritual
    from rig.vision.calibrate import fit_profile

    frames, empty = virtual_ritual("glare")
    return fit_profile(frames, empty=empty, name="glare").profile


def test_glare_is_learned_at_its_true_height(glare_profile):
    """The empty box is blown out in the strongest spot: its peak is extrapolated, not capped."""
    import cv2

    from rig.vision.render import _glare

    true = _glare(LIGHTINGS["glare"], (640, 480))
    est = cv2.resize(np.asarray(glare_profile.glare, np.float32), (640, 480), interpolation=cv2.INTER_LINEAR)
    spot = true[..., 1] > 60
    assert abs(float(est[spot].mean() - true[spot].mean())) < 12
    assert est.max() > 0.85 * true.max()


def test_censored_channel_keeps_a_frog_readable(glare_profile):
    """A blue frog whose blue channel clipped under the glare: with the channel taken as a lower
    bound it still reads blue; taken at face value it would not."""
    from rig.vision.dice import BLUE, colour_lut, label_pixels

    lut = colour_lut(glare_profile)
    teal = np.array([[[150, 116, 36]]], np.uint8)  # a blue frog with B clipped, glare taken off
    assert label_pixels(teal, lut, np.array([[1]], np.uint8))[0, 0] == BLUE
    assert label_pixels(teal, lut)[0, 0] != BLUE


def test_body_and_pink_with_blue_and_red_clipped_are_ambiguous(glare_profile):
    """Violet body and pink frog differ mainly in red; with blue and red clipped only green is
    left, a few levels apart: such pixels are unreadable, never read as one colour."""
    from rig.vision.dice import AMBIG, BLOWN, colour_lut, label_pixels

    lut = colour_lut(glare_profile)
    px = np.array([[[110, 70, 110]]], np.uint8)
    assert label_pixels(px, lut, np.array([[5]], np.uint8))[0, 0] in (AMBIG, BLOWN)


def test_dice_partly_under_glare_are_read(glare_profile):
    """Dice at the rim of the glare spots (frogs partly washed out) read right."""
    light = LIGHTINGS["glare"]
    right = total = silent = 0
    for k, (gx, gy, r, _) in enumerate(light.glare):
        for j, face in enumerate(("blue", "blue+yellow", "yellow+pink", "pink+blue")):
            a = 2 * np.pi * (j + k) / 4
            x, y = gx * 640 + 1.6 * r * 640 * np.cos(a), gy * 480 + 1.6 * r * 640 * np.sin(a)
            scene = Scene(dice=(PlacedDie(face, float(np.clip(x, 70, 570)), float(np.clip(y, 70, 410)), 20.0 * j),),
                          lighting=light)
            reading = read_dice(render_scene(scene, seed=k * 4 + j), glare_profile)
            total += 1
            right += reading.faces == [face]
            silent += reading.ok and reading.faces != [face]
    assert silent == 0
    assert right >= total - 1


def test_glare_frames_are_never_silently_wrong(glare_profile):
    wrong = silent = dice = 0
    for seed in range(16):
        rng = np.random.default_rng([7, seed])
        scene = random_scene(rng, 6, "glare")
        reading = read_dice(render_scene(scene, seed=seed), glare_profile)
        truth = scene.truth()
        dice += 6
        bad = reading.faces != truth.faces
        wrong += bad
        silent += bad and reading.ok
    assert silent == 0
    assert wrong <= 2


def test_pink_frog_under_glare_is_told_from_the_body(glare_profile):
    """A pink frog near the centre of a strong glare spot: blue and red clip on frog and body
    alike, but the frog is still redder than the die's own body beside it."""
    light = LIGHTINGS["glare"]
    gx, gy, r, _ = light.glare[0]
    right = silent = 0
    for k, (dx, dy) in enumerate(((0.5, 0.0), (0.0, 0.5), (-0.5, 0.2), (0.4, -0.4))):
        scene = Scene(dice=(PlacedDie("pink", gx * 640 + dx * r * 640, gy * 480 + dy * r * 640, 11.0 * k),),
                      lighting=light)
        reading = read_dice(render_scene(scene, seed=k), glare_profile)
        right += reading.faces == ["pink"]
        silent += reading.ok and reading.faces != ["pink"]
    assert silent == 0
    assert right == 4  # the last one reads blank without comparing with the die's own body


def test_format_1_profiles_still_load():
    """Format 2 added the glare thresholds; a format-1 profile loads with their defaults and
    keeps its own values for the rest."""
    from rig.vision.profile import FORMAT, Profile, Thresholds, default_profile_path

    text = default_profile_path().read_text()
    old = text.replace(f"format = {FORMAT}", "format = 1", 1)
    old = "\n".join(line for line in old.splitlines()
                    if not line.startswith(("censor_level", "ambiguity", "glare_pink")))
    old = old.replace("glare_flag = 128", "glare_flag = 40")
    profile = Profile.parse(old)
    assert profile.format == 1
    assert profile.thresholds.glare_flag == 40
    assert profile.thresholds.censor_level == Thresholds().censor_level
    assert read_dice(render_scene(_scene(("pink", 300, 200, 10)), seed=3), profile).faces == ["pink"]

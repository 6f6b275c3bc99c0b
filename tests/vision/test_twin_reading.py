"""What the path-traced twin taught the frog dice reader (issue 24, part 2): the die's size is its
lit top face, a die's flank leaves its neighbours' shade alone, and a table whose flat ritual dice
show lopsided shade (lamps at a slant) does not call every flat die cocked."""

import dataclasses

import numpy as np
import pytest

from rig.vision.calibrate import _find_dice
from rig.vision.calibrate_top import RIM, top_side
from rig.vision.errors import CalibrationError
from rig.vision.dice import DieObservation, Work, _flank, _leaning
from rig.vision.pixel_classes import BG, BODY, EDGE
from rig.vision.profile import Profile, Thresholds

FLOOR = (90, 110, 120)  # BGR, a warm grey box bottom
VIOLET = (150, 60, 110)
SIDE = (75, 30, 55)  # the same violet, turned from the lamp


def _box_with_dice(side: int, wall: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A 640x480 empty box and the same with six flat dice: each a lit violet top ``side`` px wide
    with a shaded side wall ``wall`` px wide below and right of it, as a slanted view shows."""
    rng = np.random.default_rng(seed)
    empty = np.empty((480, 640, 3), np.uint8)
    empty[:] = FLOOR
    empty = np.clip(empty + rng.normal(0, 2, empty.shape), 0, 255).astype(np.uint8)
    frame = empty.copy()
    for cx, cy in ((120, 120), (320, 120), (520, 120), (120, 340), (320, 340), (520, 340)):
        x0, y0 = cx - side // 2, cy - side // 2
        frame[y0 + wall : y0 + side + wall, x0 + wall : x0 + side + wall] = SIDE
        frame[y0 : y0 + side, x0 : x0 + side] = VIOLET
    return frame, empty


def test_the_die_size_is_its_top_face_not_what_changed():
    frame, empty = _box_with_dice(side=40, wall=12)
    found = _find_dice("blank", frame[::2, ::2].copy(), empty[::2, ::2].copy(), 6, 2)
    changed = 2 * np.sqrt(np.median([m.sum() for m in found.masks]))
    assert changed > 1.15 * 40  # the side walls count in what changed
    assert top_side(frame, found.masks, 2) == pytest.approx(RIM * 40, rel=0.06)


def test_no_top_measured_without_square_tops():
    frame, empty = _box_with_dice(side=40, wall=0)
    found = _find_dice("blank", frame[::2, ::2].copy(), empty[::2, ::2].copy(), 6, 2)
    assert top_side(frame, [m[:, : m.shape[1] // 2] & False for m in found.masks], 2) is None


def test_dice_joined_by_a_coloured_shadow_are_told_apart_by_its_hue():
    frame, empty = _box_with_dice(side=40, wall=0)
    # two lamps of different colour: the shadow between two dice is not grey, but keeps the floor's hue
    frame[100:140, 140:300] = np.array(FLOOR) * np.array((0.35, 0.5, 0.6))
    small, bg = frame[::2, ::2].copy(), empty[::2, ::2].copy()
    with pytest.raises(CalibrationError, match="found 5 dice"):
        _find_dice("blank", small, bg, 6, 2)
    assert len(_find_dice("blank", small, bg, 6, 2, hue_shadows=True).masks) == 6


def _work(labels: np.ndarray, side: float = 10.0) -> Work:
    return Work(labels, np.zeros((*labels.shape, 3), np.uint8), 1, side, 0.8 * side * side)


def _die(x0: int, y0: int, side: int = 10) -> DieObservation:
    return DieObservation("blank", x0 + (side - 1) / 2, y0 + (side - 1) / 2, (x0, y0, side, side), 1.0)


def test_the_shade_of_a_die_beside_is_not_this_dies_flank():
    labels = np.full((60, 80), BG, np.uint8)
    labels[20:30, 20:30] = BODY  # this die
    labels[20:30, 33:43] = BODY  # its neighbour, with a shaded rim all round it
    labels[18:32, 32:33] = EDGE
    labels[18:32, 43:45] = EDGE
    me, beside = _die(20, 20), _die(33, 20)
    work = _work(labels)
    alone, mx, _ = _flank(me, work)
    assert alone > 0.1 and mx > 0.05  # without its neighbour known, the rim reads as a flank on one side
    shared, mx2, _ = _flank(me, work, [me, beside])
    assert shared == 0.0 and mx2 == 0.0


def test_a_table_whose_flat_dice_stray_has_a_wider_moment_allowance():
    labels = np.full((60, 80), BG, np.uint8)
    labels[20:30, 20:30] = BODY
    labels[20:30, 30:32] = EDGE  # shade on one side only: lopsided, as a slanted lamp's shadow
    me = _die(20, 20)
    work = _work(labels)
    t = dataclasses.replace(Thresholds(), flank_area=1e9)
    _, mx, my = _flank(me, work)
    assert t.flank_moment < np.hypot(mx, my) < 2 * 0.1
    assert _leaning(me, work, t, (0.0, 0.0, 0.0, 0.0))  # a profile of before: no spread known
    assert _leaning(me, work, t, (0.0, 0.0, 0.0, 0.0, 0.02))  # flat ritual dice kept tight: leaning
    assert not _leaning(me, work, t, (0.0, 0.0, 0.0, 0.0, 0.1))  # they strayed that far themselves


def test_profiles_with_four_or_five_wall_numbers_load(virtual_profile, tmp_path):
    four = dataclasses.replace(virtual_profile, walls=virtual_profile.walls[:4])  # as profiles saved before
    assert Profile.load(four.save(tmp_path / "four.toml")).walls == pytest.approx(four.walls)
    five = dataclasses.replace(virtual_profile, walls=(*four.walls, 0.05))
    assert Profile.load(five.save(tmp_path / "five.toml")).walls == pytest.approx(five.walls)
    bad = (tmp_path / "four.toml").read_text().replace("walls = [", "walls = [1.0, 2.0, 3.0, ", 1)
    (tmp_path / "bad.toml").write_text(bad)
    with pytest.raises(ValueError, match="four or five"):
        Profile.load(tmp_path / "bad.toml")


def test_fewer_dice_than_thrown_is_never_ok(virtual_profile):
    """A die lost in a wall's deep shadow while five read right: the game knows six were cast."""
    from rig.vision.dice import read_dice
    from rig.vision.render import LIGHTINGS, PlacedDie, Scene, render_scene

    faces = ["blue", "pink", "yellow", "blank", "pink+blue"]  # five seen; the sixth lies unseen
    scene = Scene(dice=tuple(PlacedDie(f, 110 + 140 * (i % 3), 140 + 200 * (i // 3), 17 * i)
                             for i, f in enumerate(faces)), lighting=LIGHTINGS["neutral"])
    frame = render_scene(scene, seed=7)
    assert read_dice(frame, virtual_profile).ok  # nothing on the frame says a die is missing
    short = read_dice(frame, virtual_profile, thrown=6)
    assert short.status == "uncertain" and short.faces == sorted(faces)
    assert short.reasons == ("5 of the 6 dice thrown seen (one hidden in shade?)",)
    assert read_dice(frame, virtual_profile, thrown=5).ok


def _top(labels: np.ndarray, x0: int, y0: int, w: int, h: int, frog: int = 9) -> tuple[int, int]:
    """A die top of ``w`` x ``h`` working px with a yellow frog ``frog`` px square at its middle;
    returns the frog's corner."""
    from rig.vision.pixel_classes import YELLOW

    labels[y0 : y0 + h, x0 : x0 + w] = BODY
    fx, fy = x0 + (w - frog) // 2, y0 + (h - frog) // 2
    labels[fy : fy + frog, fx : fx + frog] = YELLOW
    return fx, fy


def _read(labels: np.ndarray, profile):
    from rig.vision.dice import read_labels

    return read_labels(Work(labels, np.zeros((*labels.shape, 3), np.uint8), 1, 20.0, profile.top_area * 400), profile)


def test_a_yellow_frogs_warm_edge_is_not_an_unclear_pink_half(virtual_profile):
    from rig.vision.pixel_classes import PINK

    edge = np.full((60, 80), BG, np.uint8)
    fx, fy = _top(edge, 30, 20, 19, 19)
    edge[fy : fy + 9, fx + 9] = PINK  # the warm blend along the frog's right edge and part of its foot
    edge[fy + 9, fx + 5 : fx + 9] = PINK
    reading = _read(edge, virtual_profile)
    assert reading.faces == ["yellow"] and reading.ok, reading.reasons
    half = np.full((60, 80), BG, np.uint8)
    fx, fy = _top(half, 30, 20, 19, 19)
    half[fy + 2 : fy + 6, fx + 9 : fx + 12] = PINK  # as much pink, but reaching out from the frog: a pink half
    half[fy + 3, fx + 12] = PINK
    assert any(r.startswith("unclear pink") for r in _read(half, virtual_profile).reasons)
    hugging = np.full((60, 80), BG, np.uint8)
    fx, fy = _top(hugging, 30, 20, 19, 19)
    hugging[fy + 2 : fy + 6, fx + 6 : fx + 9] = PINK  # all within 2 px of yellow, but a blob: what is left of a half
    assert any(r.startswith("unclear pink") for r in _read(hugging, virtual_profile).reasons)


def test_a_frog_on_a_top_half_in_shade_is_not_of_unusual_size(virtual_profile):
    from rig.vision.pixel_classes import YELLOW

    shaded = np.full((60, 80), BG, np.uint8)
    _top(shaded, 30, 20, 19, 19)
    shaded[23:32, 35:44] = YELLOW  # the frog, wholly lit ...
    shaded[32:39, 30:49] = EDGE  # ... and the lower third of the top in a wall's shade: the frog's share grows
    reasons = _read(shaded, virtual_profile).reasons
    assert not any("unusual size" in r for r in reasons), reasons
    big = np.full((60, 80), BG, np.uint8)
    _top(big, 30, 20, 19, 19, frog=13)  # a whole top with a frog too big for one: still flagged
    assert any("yellow frog of unusual size" in r for r in _read(big, virtual_profile).reasons)

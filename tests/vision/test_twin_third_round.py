"""The twin's third round (issue 24): the empty box's deep shade is the light reference for a die
lying in a wall's shadow."""

import dataclasses

import numpy as np
import pytest

from rig.vision.calibrate_shade import fit_shade


def _empty(h: int = 240, w: int = 320) -> tuple[np.ndarray, np.ndarray]:
    """An evened empty box (grey floor) with a wall's deep shadow along the bottom (a quarter of the
    light, bluer) and a dark printed spot amid the floor; and its 12 x 16 floor grid."""
    img = np.full((h, w, 3), (100, 110, 120), np.uint8)
    img[h - 40 :] = (35, 28, 26)  # two cells high: the floor grid's last row, and the wall's face below
    yy, xx = np.mgrid[0:h, 0:w]
    img[(yy - 100) ** 2 + (xx - 160) ** 2 < 30**2] = (40, 45, 50)  # print, not shade
    cells = np.ones((12, 16), bool)
    cells[-2:] = False  # the deep shade stands off the floor's smooth light
    cells[:1] = cells[:, :1] = cells[:, -1:] = False
    return img, cells


def test_the_shade_map_holds_a_walls_shadow_not_a_printed_spot():
    img, cells = _empty()
    shade = np.array(fit_shade(img, cells, side=20.0))
    assert shade.shape == (36, 48, 3)
    band = shade[-5:-3, 5:-5]  # the floor in the shade (beyond the floor grid's hull by a cell at most)
    assert band.max() <= 40 and band[..., 0].mean() > band[..., 2].mean()  # the shade's own colour, per channel
    assert shade[10:20, 20:28].min() == 100  # the printed spot is the floor's colour, not less light
    assert shade[:20].min() == 100
    flat = np.full((240, 320, 3), (100, 110, 120), np.uint8)
    assert fit_shade(flat, cells, side=20.0) is None


def test_a_die_in_a_walls_deep_shadow_is_found_and_read_but_flagged(virtual_profile):
    from rig.vision.dice import read_dice
    from rig.vision.render import LIGHTINGS, PlacedDie, Scene, render_scene

    faces = ["blue", "pink", "yellow", "blank", "pink+blue", "yellow+pink"]
    scene = Scene(dice=tuple(PlacedDie(f, 110 + 200 * (i % 3), 120 + 280 * (i // 3), 11 * i)
                             for i, f in enumerate(faces)), lighting=LIGHTINGS["neutral"])
    frame = render_scene(scene, seed=3)
    share = np.array([0.22, 0.2, 0.17])  # the bottom rows in a wall's shade: a fifth of the light, bluer
    shaded = frame.copy()
    shaded[360:] = np.clip(frame[360:] * share, 0, 255).astype(np.uint8)
    grid = np.full((36, 48, 3), 100, np.int64)
    grid[-9:] = np.round(100 * share).astype(int)  # rows 360-480 of 480 on the 36-row map, as calibration learns it
    lit = dataclasses.replace(virtual_profile, shade=tuple(tuple(tuple(px) for px in row) for row in grid.tolist()))
    assert read_dice(frame, virtual_profile, thrown=6).faces == sorted(faces)
    dark = read_dice(shaded, virtual_profile, thrown=6)
    assert dark.faces != sorted(faces) and not dark.ok  # the three dice in the shade are lost or misread
    reading = read_dice(shaded, lit, thrown=6)
    assert reading.faces == sorted(faces), reading  # found and read right ...
    # ... but a die read from a wall's deep shade, its noise lifted with it, is never taken as sure
    assert reading.reasons == tuple(f"die in shadow or on edge at ({x}, 400)" for x in (110, 310, 511)), reading


def test_the_shade_map_round_trips(virtual_profile, tmp_path):
    from rig.vision.profile import Profile

    img, cells = _empty()
    shade = fit_shade(img, cells, side=20.0)
    with_shade = dataclasses.replace(virtual_profile, shade=shade)
    assert Profile.load(with_shade.save(tmp_path / "p.toml")).shade == shade
    assert Profile.load(virtual_profile.save(tmp_path / "q.toml")).shade is None


def test_a_dies_cast_shadow_is_not_its_side_face():
    from rig.vision.dice import DieObservation, Work, _flank, _leaning
    from rig.vision.pixel_classes import BG, BODY, EDGE
    from rig.vision.profile import Thresholds

    labels = np.full((60, 80), BG, np.uint8)
    labels[20:30, 20:30] = BODY
    labels[20:30, 30:35] = EDGE  # dark on one side, read as die body in shade
    small = np.zeros((60, 80, 3), np.uint8)
    small[:] = (100, 110, 120)  # the floor
    small[20:30, 20:30] = (150, 60, 110)  # the violet top
    me = DieObservation("blank", 24.5, 24.5, (20, 20, 10, 10), 1.0)
    side = small.copy()
    side[20:30, 30:35] = (68, 27, 50)  # the die's own side face: its violet in shade
    shadow = small.copy()
    shadow[20:30, 30:35] = (40, 44, 48)  # its cast shadow: the floor's hue, darker
    t = Thresholds()

    def work(img):
        return Work(labels, img, 1, 10.0, 80.0)

    assert _flank(me, work(side))[0] == pytest.approx(0.3) and _leaning(me, work(side), t)
    assert _flank(me, work(shadow)) == (0.0, 0.0, 0.0) and not _leaning(me, work(shadow), t)


def test_die_colour_the_empty_box_shows_too_is_no_die(virtual_profile, tmp_path):
    from rig.vision.calibrate_shade import fit_spots
    from rig.vision.dice import read_dice
    from rig.vision.profile import Profile
    from rig.vision.render import LIGHTINGS, PlacedDie, Scene, render_scene

    faces = ["blue", "pink", "yellow", "blank", "pink+blue", "yellow+pink"]
    scene = Scene(dice=tuple(PlacedDie(f, 110 + 200 * (i % 3), 120 + 240 * (i // 3), 11 * i)
                             for i, f in enumerate(faces)), lighting=LIGHTINGS["neutral"])
    frame = render_scene(scene, seed=5)
    empty = render_scene(Scene(dice=(), lighting=LIGHTINGS["neutral"]), seed=5)
    violet = np.median(frame[350:370, 100:120].reshape(-1, 3), axis=0)  # the blank die's top
    for img in (frame, empty):  # a violet band in the box's print, as wide as a die and a third as high
        img[228:246, 40:95] = violet
    assert fit_spots(empty, dataclasses.replace(virtual_profile, spots=None)) is not None
    before = read_dice(frame, virtual_profile, thrown=6)
    assert not before.ok and len(before.dice) == 7  # the band reads as a die partly hidden
    spotted = dataclasses.replace(virtual_profile, spots=fit_spots(empty, virtual_profile))
    reading = read_dice(frame, spotted, thrown=6)
    assert reading.faces == sorted(faces) and reading.ok, reading
    assert Profile.load(spotted.save(tmp_path / "s.toml")).spots == spotted.spots


def test_specks_lifted_out_of_deep_shade_are_no_die(virtual_profile):
    from rig.vision.colour_table import colour_lut
    from rig.vision.dice_frames import _lift_shade, label_pixels, prepare
    from rig.vision.pixel_classes import BG, BODY
    from rig.vision.render import LIGHTINGS, PlacedDie, Scene, render_scene

    work = prepare(render_scene(Scene(dice=(PlacedDie("blank", 320, 240, 0),), lighting=LIGHTINGS["neutral"]),
                                seed=2), virtual_profile)
    violet = work.small[work.labels == BODY].mean(axis=0)
    floor = work.small[work.labels == BG].mean(axis=0)
    small = np.empty((40, 60, 3), np.float32)
    small[:] = floor
    small[10, 10] = violet  # one speck of die colour (the camera's noise, lifted ten times over) ...
    small[20:32, 30:42] = violet  # ... and a die's top
    dark = np.round(small * 0.1).astype(np.uint8)  # in a tenth of the light
    lut = colour_lut(virtual_profile)
    lift = np.full((40, 60, 3), 10.0, np.float32)
    _, labels, gain, deep = _lift_shade(dark, label_pixels(dark, lut), np.ones((40, 60, 3), np.float32), lift, lut, None)
    assert labels[10, 10] != BODY and (labels[22:30, 32:40] == BODY).all()
    assert gain[25, 35, 0] == 10.0 and deep[25, 35] and not deep[10, 10]

"""The twin's fourth round (issue 24): calibration first try on tables the earlier rounds refused."""

import numpy as np

from rig.vision.calibrate_top import frog_pixels, within_cov


def _top(rng, violet, n=300, frog=None, share=0.4):
    """Lab pixels of one die top: its violet with the camera's noise, a share of them its frog."""
    px = rng.normal(violet, (3.0, 1.5, 1.5), (n, 3))
    if frog is not None:
        k = int(share * n)
        px[:k] = rng.normal(frog, (3.0, 1.5, 1.5), (k, 3))
    return px


def test_a_dim_blue_frog_is_told_from_its_own_dies_violet_when_the_light_differs_die_to_die():
    rng = np.random.default_rng(7)
    # the blank ritual's dice: one violet, lit very differently from die to die (a warm lamp at a slant)
    levels = [(40, 160, 90), (55, 166, 82), (70, 156, 86), (85, 162, 94), (62, 170, 80), (48, 152, 92)]
    tops = [_top(rng, v) for v in levels]
    body = np.concatenate(tops)
    mean, cov = body.mean(axis=0), np.cov(body.T)
    within = within_cov(tops)
    assert np.all(np.diag(within) < 0.2 * np.diag(cov))  # noise within a top, not the light between them
    # a blue frog in warm light: a few units bluer than its die's violet — within the spread of all the dice
    blue = _top(rng, (55, 158, 76), frog=(55, 150, 84))
    d = blue - mean
    assert (np.einsum("ij,jk,ik->i", d, np.linalg.inv(cov), d) > 25).mean() < 0.04  # the old test: "shows no frog"
    assert 0.25 < frog_pixels(blue, mean, cov, within).mean() < 0.5
    # a die left blank side up still shows no frog
    assert frog_pixels(_top(rng, (55, 158, 76)), mean, cov, within).mean() < 0.04
    # a frog far from the violet is found as before, by the body colour of all the dice
    yellow = _top(rng, (60, 160, 86), frog=(150, 130, 190))
    assert 0.35 < frog_pixels(yellow, mean, cov, within).mean() < 0.45


def test_a_die_whose_shadow_rings_it_is_no_die_left_in_the_empty_box():
    from rig.vision.calibrate import _left_in_empty

    empty = np.full((60, 60, 3), 150, np.uint8)
    blob = np.zeros((60, 60), bool)
    blob[20:40, 20:40] = True
    frame = empty.copy()
    frame[16:44, 16:44] = (112, 98, 116)  # the die's shadow all round it (a lamp overhead, a dark print) ...
    frame[20:40, 20:40] = (120, 100, 122)  # ... and the die: a big yellow frog lifts its median to the shadow's
    assert not _left_in_empty(frame, empty, blob)
    # a die truly left in the empty box: there it stands out from the floor around it, here it does not
    left = empty.copy()
    left[20:40, 20:40] = (120, 60, 100)
    assert _left_in_empty(empty, left, blob)


def test_a_die_that_differs_from_the_floor_in_hue_only_is_found():
    import cv2
    import pytest

    from rig.vision.calibrate import _find_dice
    from rig.vision.errors import CalibrationError

    empty = np.full((240, 320, 3), 120, np.uint8)
    frame = empty.copy()
    spots = [(40, 50), (140, 50), (240, 50), (40, 150), (140, 150), (240, 150)]
    for x, y in spots[:5]:
        cv2.rectangle(frame, (x, y), (x + 22, y + 22), (150, 60, 120), -1)  # violet dice, far from the grey floor
    x, y = spots[5]
    # a die in a blue lamp's light: no brighter or darker than the floor by much, but bluer
    cv2.rectangle(frame, (x, y), (x + 22, y + 22), (138, 114, 104), -1)
    found = _find_dice("blue", frame, empty, 6)
    assert len(found.masks) == 6
    assert any(abs(cx - 251) < 2 and abs(cy - 161) < 2 for cx, cy in found.centres)
    with pytest.raises(CalibrationError, match="found 5 dice"):  # a speck of hue is no die
        cv2.rectangle(frame, (x, y), (x + 22, y + 22), (120, 120, 120), -1)
        cv2.rectangle(frame, (x, y), (x + 5, y + 5), (138, 114, 104), -1)
        _find_dice("blue", frame, empty, 6)


def test_the_box_bottoms_colours_can_be_learned_inside_the_box_only():
    from rig.vision.calibrate import _Frame
    from rig.vision.calibrate_background import fit_background, in_box

    empty = np.full((120, 160, 3), (60, 110, 40), np.uint8)  # a green floor ...
    empty[:, 140:] = (150, 200, 215)  # ... beside a beige table top beyond the box, lifted near a frog's yellow
    cells = np.zeros((12, 16), bool)
    cells[1:11, 1:12] = True
    box = in_box(cells, empty.shape[:2])
    assert box[60, 60] and box[60, 125] and not box[60, 150]  # the floor and a cell beyond it, not the table
    fr = {"blank": _Frame("blank", empty.copy())}
    rng = np.random.default_rng(0)
    everywhere = fit_background(fr, empty, 10.0, rng)
    inside = fit_background(fr, empty, 10.0, np.random.default_rng(0), box)
    assert max(m.mean[0] for m in everywhere) > 190  # the beige table, L ~ 205
    assert max(m.mean[0] for m in inside) < 120  # only the green floor


def test_the_lifted_shade_is_written_into_the_frames_own_arrays_only_where_taken(virtual_profile):
    """The lift (OpenCV's masked copies into views of the frame's arrays, the shade labelled again
    only where it lifts) changes the working frame, its labels and its gain in place, and nowhere else."""
    from rig.vision.colour_table import colour_lut
    from rig.vision.dice_frames import _lift_shade, label_pixels

    rng = np.random.default_rng(3)
    small = rng.integers(0, 60, (60, 80, 3)).astype(np.uint8)  # a dark frame
    lut = colour_lut(virtual_profile)
    labels = label_pixels(small, lut)
    gain = np.ones((60, 80, 3), np.float32)
    lift = np.ones((60, 80, 3), np.float32)
    lift[40:, 10:70] = 3.0  # a wall's deep shade along the bottom, lifted x3
    before = small.copy(), labels.copy()
    out_small, out_labels, out_gain, deep = _lift_shade(small, labels, gain, lift, lut, None)
    assert out_small is small and out_labels is labels and out_gain is gain  # in place
    taken = np.any(small != before[0], axis=2)
    assert taken[40:, 10:70].any() and not taken[:40].any() and not taken[:, :10].any() and not taken[:, 70:].any()
    assert np.all(gain[taken] == 3.0) and np.all(gain[~taken] == 1.0)
    lifted = np.clip(before[0].astype(np.float32) * 3.0, 0, 255).round().astype(np.uint8)
    assert np.array_equal(small[taken], lifted[taken])
    assert np.array_equal(labels[taken], label_pixels(lifted, lut)[taken])
    assert np.array_equal(labels[~taken], before[1][~taken])
    assert deep is not None and np.array_equal(deep > 0, taken)  # lifted x3 > DEEP_LIFT: flagged if read there

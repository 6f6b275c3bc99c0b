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

"""The twin's sixth round (issue 24): a die whose lit top is not square (the top's aspect test) is
tilted away, or only partly in shade; the top joined to its own shaded body decides (a fitted
verdict, calibration/cocked_aspect.npz)."""

import dataclasses

import numpy as np
import pytest

from rig.vision.dice import DieObservation, Work, read_labels
from rig.vision.dice_cocked import ASPECT_FEATURES, CockedCheck, aspect_check, tilted, top_shape
from rig.vision.errors import VisionError
from rig.vision.pixel_classes import BG, BODY, EDGE

FLOOR, VIOLET, SHADE = (100, 110, 120), (150, 60, 110), (68, 27, 50)


def _die(lit: int, shade: int) -> tuple[DieObservation, Work]:
    """A die 10 working px wide in an 80 x 60 frame (a top: 90 px inside its rounded rim): its lit top
    10 px wide and ``lit`` px tall, and ``shade`` px of its body in shade (die hue, dark) below it:
    the rest of a top partly in shade, or the side face of a die tilted towards the frame's bottom."""
    labels = np.full((60, 80), BG, np.uint8)
    small = np.zeros((60, 80, 3), np.uint8)
    small[:] = FLOOR
    labels[20 : 20 + lit, 35:45] = BODY
    small[20 : 20 + lit, 35:45] = VIOLET
    labels[20 + lit : 20 + lit + shade, 35:45] = EDGE
    small[20 + lit : 20 + lit + shade, 35:45] = SHADE
    return DieObservation("blank", 39.5, 20 + (lit - 1) / 2, (35, 20, 10, lit), 1.0), Work(labels, small, 1, 10.0, 90.0)


def test_the_top_is_measured_with_its_own_shade_joined():
    half, work = _die(6, 3)  # a top partly in shade: lit 10 x 6, lit and shade one top
    lit_fill, body_fill, body_area = top_shape(half, work)
    assert lit_fill == pytest.approx(1.0) and body_fill == pytest.approx(1.0)
    assert body_area == pytest.approx(90 / 90)
    leaning, work = _die(8, 3)  # a top tilted away (foreshortened) and the side face below it: more than a top
    assert top_shape(leaning, work)[2] == pytest.approx(110 / 90)
    alone, work = _die(6, 0)  # no shade joined: the lit part alone
    assert top_shape(alone, work)[1:] == pytest.approx((1.0, 60 / 90))


def test_the_verdict_frees_a_top_partly_in_shade_and_keeps_a_tilted_one():
    assert not tilted(*_die(6, 3))
    assert tilted(*_die(8, 3))


def test_only_a_top_mostly_lit_is_put_to_the_verdict(monkeypatch):
    from rig.vision import dice_cocked

    assert dice_cocked.SHADE_FREED == pytest.approx(1 / 3)
    assert not tilted(*_die(6, 3))  # its own shade: 30 px, a third of a top
    monkeypatch.setattr(dice_cocked, "SHADE_FREED", 0.2)  # more shade than that: it may hide a frog, or be a side face
    assert tilted(*_die(6, 3))


def test_the_reader_asks_the_verdict_before_it_calls_a_die_with_a_top_not_square_cocked(virtual_profile):
    profile = dataclasses.replace(virtual_profile, walls=(0.0, 0.0, 0.0, 0.0))  # no perspective allowance

    def read(lit: int, shade: int):
        _, work = _die(lit, shade)
        return read_labels(work, profile)

    half = read(6, 3)  # lit top 10 x 6 (aspect 0.56: the aspect test alone calls it cocked), one top with its shade
    assert half.ok and not half.dice[0].cocked
    leaning = read(8, 3)  # lit top 10 x 8 (aspect 0.78), and its side face: more than a top
    assert not leaning.ok and leaning.dice[0].cocked and leaning.reasons == ("cocked die at (40, 24)",)


# rows of the validation split (tables of odd seed) as scripts/fit_cocked.py --test aspect measured them
FLAT_FREED = [(0.368, 0.498, 0.753), (0.738, 0.723, 0.905), (0.586, 0.662, 0.99), (0.357, 0.515, 0.755),
              (0.572, 0.545, 0.862)]  # 1001, 2007, 2011, 8003, 8111
COCKED = [(0.774, 0.791, 1.687), (0.827, 0.924, 1.356), (0.418, 0.779, 1.016)]  # 6001, 6009, 7005


def test_the_committed_verdict_keeps_cocked_dice_and_frees_flat_ones_it_was_not_fitted_on():
    verdict = aspect_check()
    assert verdict.features == ASPECT_FEATURES
    assert all(verdict.cocked(np.array(x)) for x in COCKED)
    assert not any(verdict.cocked(np.array(x)) for x in FLAT_FREED)


def test_the_flank_tests_verdict_file_is_no_aspect_verdict(tmp_path):
    from rig.vision.dice_cocked import WEIGHTS

    with pytest.raises(VisionError, match="other features"):
        CockedCheck.load(WEIGHTS, ASPECT_FEATURES)
    n = len(ASPECT_FEATURES)
    CockedCheck(np.zeros(n), 0.0, np.zeros(n), np.ones(n), 0.5, ASPECT_FEATURES).save(tmp_path / "ok.npz")
    assert CockedCheck.load(tmp_path / "ok.npz", ASPECT_FEATURES).threshold == 0.5

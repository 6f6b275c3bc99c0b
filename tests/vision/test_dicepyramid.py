"""Issue 25, round 36: in a small frame the pyramid has one level a step finer than the shipped ones, for dice under
rig.vision.dicenet.MIN_DIE px, run only when the strongest level's dice so far are small (rig.vision.dicepyramid).

The fixture is a tuning photo of ../shared/data/real-colour-dice (never the held-out split) as the benchmark's x0.4
frame shows it (rig.bench.pips.scaled_frame: the photo shrunk to 256 x 256 px, centred, its edges replicated out to
640 x 640): the shrunk photo is kept, the frame rebuilt here."""

import cv2
import pytest

from rig.vision import dicepyramid
from rig.vision.anydie import AnyDieParams, read_pip_dice
from rig.vision.dicenet import FIND_DIE, FIND_MAX, LEVELS, MIN_DIE

from .pip_small import HERE

AT = 192  # the shrunk photo's place in the 640 x 640 frame
#: IMG_20191208_111751's labelled dice (pips, centre in the shrunk photo), 13-28 px; the shipped pyramid's strongest
#: level is its finest (16.7 px), its dice 20 px by their median side
TRUTH = [(6, 135.4, 165.2), (6, 102.3, 169.6), (5, 111.8, 144.8), (5, 80.1, 111.7), (5, 155.7, 126.9),
         (4, 99.9, 155.6), (4, 132.6, 109.5), (4, 146.7, 100.8), (3, 229.5, 136.7), (3, 120.9, 164.5),
         (3, 112.7, 131.0), (2, 170.1, 153.1), (2, 104.3, 123.9), (1, 119.5, 122.2)]


def _read() -> list[tuple[int, str, list[int]]]:
    """The x0.4 frame read: per die found, its pips, status and the labelled dice its box holds."""
    small = cv2.imread(str(HERE / "IMG_20191208_111751-x0.4.png"))
    frame = cv2.copyMakeBorder(small, AT, AT, AT, AT, cv2.BORDER_REPLICATE)
    out = []
    for die in read_pip_dice(frame, AnyDieParams()).dice:
        x, y, w, h = die.box
        held = [pips for pips, tx, ty in TRUTH if x <= tx + AT <= x + w and y <= ty + AT <= y + h]
        out.append((die.pips, die.count.status, held))
    return out


def test_small_dice_in_a_small_frame_are_found_at_the_finer_level(nets, monkeypatch):
    found = _read()
    assert sorted(held for _, _, held in found) == sorted([pips] for pips, _, _ in TRUTH)  # one box a die
    assert all([pips] == held for pips, _, held in found)  # each read right (5 of 14 flagged)
    monkeypatch.setattr(dicepyramid, "SMALL_DIE", MIN_DIE)  # no extra level: the shipped pyramid (main)
    shipped = _read()
    assert len(shipped) == len(TRUTH) - 1  # the 14 px 3 at (112.7, 131.0) not found, a 5 read 4 (flagged)
    assert sum([pips] == held for pips, _, held in shipped) == len(TRUTH) - 2


@pytest.mark.parametrize("long_side, extra", [(480, None), (600, 10.4), (640, 11.1), (900, 15.6), (960, None),
                                              (1280, None), (1920, None)])
def test_the_extra_level_only_for_dice_under_the_shipped_floor(long_side, extra):
    levels = dicepyramid.pyramid_levels(long_side, LEVELS, MIN_DIE, FIND_DIE, FIND_MAX)
    shipped = [r for r in LEVELS if r * long_side >= MIN_DIE]
    assert levels == (shipped if extra is None else [levels[0], *shipped])
    assert extra is None or round(levels[0] * long_side, 1) == extra


def test_the_extra_level_runs_once_small_dice_are_seen():
    finest = [16.7, -2.0, None, []]
    assert dicepyramid.small_dice_seen(-2.0, [], None)  # a shipped level: always
    assert dicepyramid.small_dice_seen(-3.0, [finest], (16.7, 0.6, None, 20.0))
    assert dicepyramid.small_dice_seen(-3.0, [finest], (25.0, 0.6, None, 24.0))
    assert not dicepyramid.small_dice_seen(-3.0, [finest], (37.5, 0.3, None, 35.0))  # white x0.6 dice_8, pips
    assert not dicepyramid.small_dice_seen(-3.0, [finest], (25.0, 0.5, None, 29.0))  # the pip twin at 640x480

"""Flat dice far out on the 2D unseen tables called cocked by the flank test (issue 24, round 29): the die's wall, seen
in perspective, reads as part of its top (1.1-1.7 tops), which pulls the die's centre in, so the flank's moment beyond
perspective's points outward. Such a die does not lean (``dice_cocked.wall_as_top``); a truly cocked die, its top
foreshortened under a whole top, is still called cocked."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from rig.bench.tables import DRIFTS
from rig.vision import dice, dice_cocked
from rig.vision.card_empty import EmptyBox, remember
from rig.vision.dice_cocked import wall_as_top
from rig.vision.dice_flag import Flag

from tests.vision.conftest import calibrated_unseen


def _read(seed, k, light="same"):
    table, profile = calibrated_unseen(seed)
    remember(profile, EmptyBox.of(table.ritual()[1]))  # kept beside the profile, as the bench does
    frame, truth = table.turn(k, DRIFTS[light])
    return dice.read_dice(frame, profile), truth, table


# 2D 52010 turn 3: the blank die at (586, 267), 31 px dice at 640x480, 0.42 frame widths out; its top reads 1.54 tops.
# 2D 52003 turn 2: the die at (226, 359), 77 px dice at 1280x960; its top reads 1.24 tops. Both lie flat.
CASES = [(52010, 3, (586, 267)), (52003, 2, (226, 359))]


@pytest.mark.parametrize(("seed", "turn", "at"), CASES)
def test_a_flat_die_whose_wall_reads_as_top_is_read_ok(seed, turn, at):
    reading, truth, _ = _read(seed, turn)
    assert reading.status == "ok" and not reading.reasons
    assert reading.faces == sorted(d.face for d in truth)


@pytest.mark.parametrize(("seed", "turn", "at"), CASES)
def test_without_the_wall_rule_the_flat_die_is_called_cocked(seed, turn, at, monkeypatch):
    monkeypatch.setattr(dice_cocked, "WALL_TOP", math.inf)
    reading, _, _ = _read(seed, turn)
    assert [str(r) for r in reading.reasons] == [f"cocked die at {at}"]


def test_a_truly_cocked_die_far_out_is_still_called_cocked():
    # 2D 43011 turn 3: a truly cocked die 0.42 frame widths out, its flank's moment outward, its top 0.75 tops
    reading, truth, table = _read(43011, 3)
    cocked = [d for d in truth if d.cocked]
    assert cocked and reading.status != "ok"
    for d in cocked:
        flags = [Flag.parse(str(r)) for r in reading.reasons]
        assert any(f is not None and f.kind.startswith("cocked die") and math.dist(f.at, (d.x, d.y)) < table.die
                   for f in flags)


def _work(w=640, h=480):
    return SimpleNamespace(labels=np.zeros((h, w), np.uint8), factor=1.0)


@pytest.mark.parametrize(
    ("area", "growth", "moment", "expected"),
    [
        (1.5, 0.68, (0.1, 0.02), True),  # the top more than a top, the moment outward, steep walls: a wall read as top
        (0.85, 0.68, (0.1, 0.02), False),  # a foreshortened top: a leaning die's
        (1.5, 0.68, (-0.1, 0.0), False),  # the moment towards the optical centre: more flank there than perspective shows
        (1.5, 0.68, (0.02, 0.1), False),  # mostly across the radius
        (1.5, 0.35, (0.1, 0.02), False),  # walls that grow as the twin's: a leaning die's top and side read as one
    ],
)
def test_wall_as_top(area, growth, moment, expected):
    obs = SimpleNamespace(x=580.0, y=240.0, area=area)  # right of the frame centre (320, 240)
    walls = (0.5, growth, -0.38, 0.57, 0.07)
    assert wall_as_top(obs, _work(), walls, *moment) is expected

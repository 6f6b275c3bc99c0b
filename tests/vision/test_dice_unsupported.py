"""Round 34 (issue 24): a die with no wall and no other die within reach has nothing to lean on (``dice_unsupported``):
its plain "cocked die" flag is taken off and the second look's guard does not ask it; only once every die thrown is
read and the floor's outline is known (the empty box's picture kept)."""

from types import SimpleNamespace

import cv2
import numpy as np

from rig.vision.card_empty import EmptyBox, remember
from rig.vision.dice import read_dice
from rig.vision.dice_flag import Flag
from rig.vision.dice_reading import DieObservation
from rig.vision.dice_unsupported import DIE_REACH, WALL_REACH, free_unsupported, unsupported

from .dice_twin import HERE, profile_of

SIDE = 40.0  # die side, frame px (factor 1: working px too)


def _work(profile):
    return SimpleNamespace(profile=profile, labels=np.zeros((480, 640), np.uint8), factor=1, side=SIDE)


def _die(x, y, cocked=False):
    return DieObservation("blue", float(x), float(y), (int(x - 20), int(y - 20), 40, 40), 0.9, cocked)


def _profile_with_empty_box():
    profile = profile_of("t11702")  # its empty box: the floor found about (156-550, 188-445) here
    remember(profile, EmptyBox.of(cv2.imread(str(HERE / "t11702-empty.webp"))))
    return profile


def test_a_die_in_the_floors_middle_far_from_the_others_is_unsupported():
    profile = _profile_with_empty_box()
    try:
        dice = [_die(350, 310), _die(180, 210), _die(520, 420), _die(200, 420), _die(520, 210), _die(240, 210)]
        assert unsupported(_work(profile), dice, thrown=6) == {0}
        # another die within reach of it instead of the last: it may lean on that one
        near = [*dice[:5], _die(350 + (DIE_REACH - 0.2) * SIDE, 310)]
        assert unsupported(_work(profile), near, thrown=6) == set()
    finally:
        remember(profile, None)


def test_none_while_a_die_is_missing_the_count_unknown_or_no_empty_box():
    profile = _profile_with_empty_box()
    dice = [_die(350, 310), _die(180, 210), _die(520, 420)]
    try:
        assert unsupported(_work(profile), dice, thrown=4) == set()
        assert unsupported(_work(profile), dice, thrown=None) == set()
    finally:
        remember(profile, None)
    assert unsupported(_work(profile_of("t11702")), dice, thrown=3) == set()


def test_a_die_by_a_wall_is_supported():
    profile = _profile_with_empty_box()
    try:
        by_wall = 188 + (WALL_REACH - 0.3) * SIDE
        assert unsupported(_work(profile), [_die(350, by_wall)], thrown=1) == set()
        assert unsupported(_work(profile), [_die(350, by_wall + 0.6 * SIDE)], thrown=1) == {0}
    finally:
        remember(profile, None)


def test_only_the_unsupported_dies_cocked_flag_is_taken_off():
    dice = [_die(350, 310, cocked=True), _die(180, 210, cocked=True)]
    reasons = [Flag("cocked die", 351, 311), Flag("cocked die", 181, 211), Flag("unclear pink", 350, 310)]
    dice2, kept = free_unsupported(dice, reasons, {0}, SIDE)
    assert kept == reasons[1:]
    assert not dice2[0].cocked and dice2[1].cocked
    assert free_unsupported(dice, reasons, set(), SIDE) == (dice, reasons)


PIECE = "part of a die (glare or hidden?) at (617, 44)"


def test_a_die_with_nothing_to_lean_on_is_not_asked_by_the_guard(with_empty_box):
    # twin 11706 turn 20, lamp x1.2 (felt, 4583 + 3783 K): six flat dice read right, flagged only for the far wall's
    # top at (617, 44), which the frame shows as the empty box does; the piece rule's guard failed on a die in the
    # floor's middle that the net doubts, nothing within reach of it to lean on
    frame, profile = with_empty_box("t11706-turn20-x1.2.webp", "t11706")
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(d.face for d in reading.dice) == ["blank", "blue", "pink", "yellow", "yellow+pink", "yellow+pink"]
    assert reading.status == "ok"


def test_the_guard_asks_it_when_walls_or_dice_may_be_within_reach(with_empty_box, monkeypatch):
    import rig.vision.dice_unsupported as du

    frame, profile = with_empty_box("t11706-turn20-x1.2.webp", "t11706")
    assert PIECE in read_dice(frame, profile, thrown=7).reasons  # a die not read: it may be what one leans on
    monkeypatch.setattr(du, "WALL_REACH", 20.0)
    assert PIECE in read_dice(frame, profile, thrown=6).reasons
    monkeypatch.setattr(du, "WALL_REACH", 2.0)
    monkeypatch.setattr(du, "DIE_REACH", 20.0)
    assert PIECE in read_dice(frame, profile, thrown=6).reasons

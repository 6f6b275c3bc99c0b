"""The live virtual table: rolls, knocks, cards, clearing, a dropped camera; seeded and repeatable."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rig.errors import HardwareError, RigError
from rig.hardware.camera import CameraLostError
from rig.hardware.virtual import VirtualTable
from rig.games.frogs.rules import FACE_NAMES


def table(**options):
    options = {"width": 320, "height": 240, "seed": 5, "realtime": False, **options}
    return VirtualTable(**options)


def take(source, n):
    return list(itertools.islice(source.frames(), n))


def test_a_roll_tumbles_for_a_few_frames_then_settles():
    with table() as t:
        empty = take(t, 2)
        faces = t.roll(3)
        assert not t.settled and len(faces) == 3 and set(faces) <= set(FACE_NAMES)
        moving = take(t, 6)
        assert t.settled
        still = take(t, 3)
    assert sorted(faces) == t.faces and len(t.truth.dice) == 3 and t.dice_left == 3
    assert np.abs(empty[1][1].astype(int) - empty[0][1].astype(int)).mean() < 3
    assert np.abs(moving[-1][1].astype(int) - moving[-2][1].astype(int)).mean() > 1
    assert np.abs(still[1][1].astype(int) - still[0][1].astype(int)).mean() < 3
    times = [t_us for t_us, _ in empty + moving + still]
    assert times == sorted(times) and times[1] - times[0] == round(1e6 / 12)


def test_the_same_seed_gives_the_same_frames():
    def play():
        with table(seed=11) as t:
            take(t, 1)
            t.roll(2)
            t.knock()
            return t.faces, [f for _, f in take(t, 12)]

    faces_a, frames_a = play()
    faces_b, frames_b = play()
    assert faces_a == faces_b
    assert all(np.array_equal(a, b) for a, b in zip(frames_a, frames_b))


def test_all_six_dice_then_no_more():
    t = table()
    t.roll(2)
    t.roll(2)
    t.roll(2)
    assert len(t.faces) == 6 and t.dice_left == 0
    combos = [f for f in t.faces if "+" in f]
    assert all(combos.count(c) <= 2 for c in combos)
    with pytest.raises(RigError, match="all six dice are out, nothing left to roll"):
        t.roll(1)
    with pytest.raises(RigError, match="roll at least one die"):
        table().roll(0)


def test_dice_never_overlap_when_they_settle():
    t = table(width=640, height=480, seed=8)
    for n in (2, 2, 2):
        t.roll(n)
    dice = t.truth.dice
    side = 52.0
    assert min(np.hypot(a.x - b.x, a.y - b.y) for a, b in itertools.combinations(dice, 2)) >= 1.5 * side


def test_knock_moves_a_die_and_changes_its_face():
    t = table()
    t.roll(3)
    before = t.truth.dice
    old, new = t.knock(1)
    after = t.truth.dice
    assert old == before[1].face and new == after[1].face and old != new
    assert np.hypot(after[1].x - before[1].x, after[1].y - before[1].y) > 10
    assert after[0] == before[0] and after[2] == before[2]
    with pytest.raises(RigError, match="no die number 7"):
        t.knock(7)
    with pytest.raises(RigError, match="no die in the box"):
        table().knock()


def test_clear_empties_the_box_for_the_next_turn():
    with table() as t:
        t.roll(6)
        take(t, 8)
        t.clear()
        assert t.faces == [] and t.dice_left == 6
        take(t, 5)
        assert t.settled
        t.roll(6)


def test_a_card_shown_and_hidden():
    with table(width=640, height=480) as t:
        t.roll(3)
        t.show_card("pink")
        frames = take(t, 12)
        assert t.truth.card == "pink"
        pink = np.array([160, 80, 238])
        assert (np.abs(frames[-1][1].astype(int) - pink).sum(axis=2) < 90).mean() > 0.03
        t.hide_card()
        take(t, 3)
        assert t.truth.card is None
    with pytest.raises(RigError, match="unknown card"):
        table().show_card("green")


def test_the_cards_of_a_reveal_go_with_the_game_and_with_the_hand_that_takes_them():
    """Cards laid before a change of game never come back with the frog dice (they once did: a pile of
    cards stayed in view for the rest of a session, and the camera read dice on them)."""
    with table(width=640, height=480) as t:
        empty = take(t, 1)[0][1]
        for card in ("pink", "pink", "blue"):
            t.show_card(card, layout="pile", linger=False)
        take(t, 8)
        t.set_game("banana")
        t.set_game("frogs")
        take(t, 8)
        assert t.truth.card is None
        assert np.abs(take(t, 1)[0][1].astype(int) - empty).mean() < 3  # the empty box again
        for card in ("blue", "gray"):
            t.show_card(card, layout="row", linger=True)
        t.hide_card()
        take(t, 8)
        assert np.abs(take(t, 1)[0][1].astype(int) - empty).mean() < 3


def test_a_dropped_camera_fails_until_restored():
    t = table()
    frames = t.frames()
    next(frames)
    t.drop()
    with pytest.raises(CameraLostError, match="simulated unplug"):
        next(frames)
    t.stop()
    with pytest.raises(HardwareError, match="camera virtual: not connected"):
        t.start()
    t.restore()
    with t:
        assert len(take(t, 2)) == 2


def test_big_frames_are_capped_at_the_renderers_size():
    assert (VirtualTable(width=1280, height=960).width, VirtualTable(width=1280, height=960).height) == (640, 480)
    assert VirtualTable(width=1280, height=960, max_width=None).width == 1280
    with pytest.raises(RigError, match="unknown lighting"):
        VirtualTable(lighting="disco")


def test_configure_changes_rate_any_time_and_size_while_empty():
    t = table()
    t.configure(width=480, height=360, fps=15)
    assert (t.width, t.height, t.fps) == (480, 360, 15.0)
    with t:
        assert take(t, 1)[0][1].shape == (360, 480, 3)
    t.roll(1)
    t.configure(fps=10)
    with pytest.raises(RigError, match="while the box is empty"):
        t.configure(width=320)


def test_reach_shows_a_hand_and_leaves_the_dice_alone():
    with table(width=640, height=480) as t:
        t.roll(2)
        take(t, 8)
        before = t.truth
        t.reach(frames=4)
        frames = take(t, 5)
        assert t.truth == before and t.settled
    still = frames[-1][1].astype(int)
    changed = [(np.abs(f.astype(int) - still).max(axis=2) > 40).mean() for _, f in frames[:4]]
    assert max(changed) > 0.02, changed  # a hand-sized part of the frame

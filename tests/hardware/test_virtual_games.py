"""The virtual table shows the other games' dice, and the roll tracker reads them off it."""

import pytest

from rig.errors import RigError
from rig.hardware.virtual import VirtualTable
from rig import registry
from rig.vision.rolls import RollTracker


@pytest.mark.parametrize("game, n", [("blitz", 8), ("banana", 2), ("lego", 1)])
def test_each_throw_is_read_once_it_settles(game, n):
    table = VirtualTable(seed=4, realtime=False)
    table.set_game(game)
    tracker = RollTracker(read=registry.get(game).reader())
    with table:
        frames = table.frames()
        for _ in range(2):
            table.clear()
            for _ in range(14):  # the camera sees the empty box before the throw
                tracker.feed(*next(frames))
            assert not tracker.reading.dice
            faces = table.roll(0)
            assert len(faces) == n and table.dice_left == 0 and sorted(faces) == table.faces
            events = []
            for _ in range(16):
                events += tracker.feed(*next(frames))
            settled = [e for e in events if e.type == "roll_settled"]
            assert settled and sorted(d.face for d in settled[-1].reading.dice) == sorted(faces)


def test_three_white_dice_and_refusals():
    table = VirtualTable(seed=1, realtime=False)
    table.set_game("blitz", white_dice=3)
    faces = table.roll(0)
    assert sum(f.startswith("white:") for f in faces) == 3 and len(faces) == 9
    with pytest.raises(RigError, match="take the dice out first"):
        table.roll(0)
    with pytest.raises(RigError, match="frogs only"):
        table.knock()
    with pytest.raises(RigError, match="no dice for game"):
        table.set_game("chess")
    table.set_game("frogs")
    assert table.faces == [] and table.dice_left == 6


def test_the_lego_dice_shows_only_the_configured_faces():
    table = VirtualTable(seed=2, realtime=False)
    table.set_game("lego")
    seen = set()
    for _ in range(12):
        table.clear()
        seen.update(table.roll(0))
    assert seen <= {"white", "red", "blue", "black", "gray"} and len(seen) > 2
    table.set_game("lego", faces=["green", "yellow"])
    assert table.roll(0)[0] in ("green", "yellow")
    with pytest.raises(RigError, match="cannot draw LEGO faces purple"):
        table.set_game("lego", faces=["purple"])

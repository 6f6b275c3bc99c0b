"""The twin's fourteenth round (issue 24): a flat die in a wall's shadow darker than the old bound is read, flagged."""

import rig.vision.dice_missed as dice_missed
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile


def test_a_blank_die_in_a_walls_deep_shadow_is_read_and_flagged_not_lost(monkeypatch):
    # twin table 8710 (seen: round 12's fresh set), turn 1: a flat blank die lies against the far wall at (257, 32),
    # its top 4.5 times darker than a die's body in the wall's shadow (the shade map lifts it hardly at all there).
    # Brightened at most 2.5 times it was no die: five dice read, the sixth "hidden in shade?". Now it is read
    # blank, and flagged as a die read from deep shade (a flag the second look does not take off).
    frame, profile = frame_and_profile("t8710-turn1.jpg", "t8710")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.faces == ["blank", "blank", "blue+yellow", "yellow", "yellow+pink", "yellow+pink"]
    die = [d for d in reading.dice if abs(d.x - 257) < 8 and abs(d.y - 32) < 8]
    assert [d.face for d in die] == ["blank"]
    assert reading.status == "uncertain"
    assert any(r.startswith(dice_missed.DEEP_REASON) and abs(float(r.split("(")[1].split(",")[0]) - 257) < 8
               for r in reading.reasons), reading.reasons
    monkeypatch.setattr(dice_missed, "MOST", 2.5)  # main's bound
    before = read_dice(frame, profile, thrown=6)
    assert len(before.dice) == 5 and before.status == "uncertain"

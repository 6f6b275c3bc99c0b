"""Round 30 (issue 24): a piece of die colour cut by the frame's edge, away from every die read, flagged "part of a die
(glare or hidden?)" on right turns: the table beyond the box under a warmer light (twin 11205's far edge, 11308's
left edge). Once every die thrown is read it is not looked for; while a die is missing it still flags."""

from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile

KIND = "part of a die (glare or hidden?)"


def test_a_piece_at_the_frame_edge_beyond_the_box_is_no_flag_when_every_die_is_read():
    # twin 11205 turn 2, 700 K warmer: six dice read right; the table beyond the box's far wall reads yellow at
    # (610, 11), a piece touching the frame's top edge
    frame, profile = frame_and_profile("t11205-turn2-warm.webp", "t11205")
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "blank", "blue", "blue", "pink"]
    assert reading.status == "ok"


def test_it_still_flags_when_a_die_thrown_is_not_read_or_the_count_is_unknown():
    frame, profile = frame_and_profile("t11205-turn2-warm.webp", "t11205")
    for thrown in (7, None):
        assert f"{KIND} at (610, 11)" in read_dice(frame, profile, thrown=thrown).reasons

"""Round 31 (issue 24): a blue die at the near wall of twin 11410 (printed floor, a 6217 K lamp; a seen table),
thrown turn 22, where the floor's correction is 2.3 times the frame's overall: its top stands above the wall's shade,
lit, and the correction clips it pale: read blank (flagged "shows a frog in the frame's overall light"). In the
overall light it reads blue; the reading takes it there, still asked
(:func:`rig.vision.dice_overall.lit_above_shade`)."""

from rig.vision import dice_overall
from rig.vision.dice import read_dice

from .dice_twin import faces_near, frame_and_profile

ASKED = f"{dice_overall.LIT_ABOVE_SHADE} at (605, 130)"


def test_a_lit_die_over_the_walls_shade_reads_its_frog_and_is_asked():
    frame, profile = frame_and_profile("t11410-turn22.jpg", "t11410")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 605, 130, 14) == ["blue"]
    assert reading.status == "uncertain"
    assert ASKED in reading.reasons
    assert sorted(d.face for d in reading.dice) == ["blank", "blue", "blue", "pink", "yellow", "yellow"]


def test_with_the_bound_out_of_reach_it_reads_blank(monkeypatch):
    monkeypatch.setattr(dice_overall, "ABOVE_SHADE", 3.0)
    frame, profile = frame_and_profile("t11410-turn22.jpg", "t11410")
    assert faces_near(read_dice(frame, profile, thrown=6), 605, 130, 14) == ["blank"]

"""Round 33 (issue 24): a die top read blank whose reading in the frame's overall light is mostly the floor's colour
is flagged. Twin 11710 turn 10 at lamp x1.2 (round 33's fresh set): a pink die at (239, 382) whose pale frog, clipped
in red, the pixel classes put with the varnished floor's lamp reflection, read blank at 0.95 and the turn ``ok``."""

from rig.vision.dice import read_dice
from rig.vision.dice_flag import Flag
from rig.vision.dice_overall import FLOOR_IN_OVERALL

from .dice_twin import faces_near


def test_the_pink_die_read_as_the_floor_is_flagged_at_its_place(with_empty_box):
    frame, profile = with_empty_box("t11710-turn10-x1.2.webp", "t11710")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 239, 382, 6) == ["blank"]  # still misread: now asked
    assert reading.status == "uncertain"
    places = [f.at for f in map(Flag.parse, reading.reasons) if f is not None and f.kind == FLOOR_IN_OVERALL]
    assert places == [(239.0, 382.0)], reading.reasons


def test_the_blank_dice_of_the_same_turn_are_not_flagged(with_empty_box):
    frame, profile = with_empty_box("t11710-turn10-x1.2.webp", "t11710")
    reading = read_dice(frame, profile, thrown=6)
    assert len(reading.reasons) == 1
    assert sorted(d.face for d in reading.dice).count("blank") == 3

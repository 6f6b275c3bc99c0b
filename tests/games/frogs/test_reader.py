"""The colour-dice toolkit (rig.vision) reads the set Lunar Laser Frogs' rules describe."""

from rig.games.frogs import rules
from rig.vision import profile


def test_the_vision_toolkits_dice_set_is_the_rules_one():
    assert profile.FACE_NAMES == rules.FACE_NAMES
    assert profile.COLOURS == rules.COLOURS
    assert (profile.DICE_IN_SET, profile.DICE_PER_COMBO) == (rules.DICE_PER_TURN, rules.DICE_PER_COMBO)

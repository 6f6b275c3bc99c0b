"""Round 32 (issue 24): a die leaning on a lit wall whose near-black side face darkens the wall beyond its outer edge
(``dice_walldark``): twin 11501 turn 11's blank die on the left wall at (48, 235), read flat and right in every light,
which no other check flags at its place once the far wall's shade is no flag (``dice_unchanged.as_the_empty_box``)."""

import cv2
import pytest

from rig.vision.card_empty import EmptyBox, remember
from rig.vision.dice import read_dice
from rig.vision.dice_flag import Flag
from rig.vision.dice_walldark import REASON

from .dice_twin import HERE, frame_and_profile


@pytest.fixture
def profile_with_empty_box():
    """twin 11501's profile with its empty box kept, as the bench keeps it (forgotten after the test)."""
    _, profile = frame_and_profile("t11501-turn0.webp", "t11501")
    remember(profile, EmptyBox.of(cv2.imread(str(HERE / "t11501-empty.webp"))))
    yield profile
    remember(profile, None)


@pytest.mark.parametrize("light", ["", "-x1.2", "-warm700"])  # the table's own light, lamp x1.2, 700 K warmer
def test_the_die_leaning_on_the_lit_left_wall_is_flagged_cocked_at_its_place(profile_with_empty_box, light):
    frame = cv2.imread(str(HERE / f"t11501-turn11{light}.webp"))
    reading = read_dice(frame, profile_with_empty_box, thrown=6)
    assert reading.status == "uncertain"
    places = [flag.at for flag in map(Flag.parse, reading.reasons) if flag is not None and flag.kind == REASON]
    assert [(x, y) for x, y in places if abs(x - 48) <= 3 and abs(y - 235) <= 3], reading.reasons


def test_the_flat_dice_of_turn_0_are_not_flagged(profile_with_empty_box):
    frame = cv2.imread(str(HERE / "t11501-turn0.webp"))
    assert not [r for r in read_dice(frame, profile_with_empty_box, thrown=6).reasons if r.startswith(REASON)]


def test_without_the_empty_boxs_picture_it_judges_nothing():
    frame, profile = frame_and_profile("t11501-turn11.webp", "t11501")
    assert not [r for r in read_dice(frame, profile, thrown=6).reasons if r.startswith(REASON)]

"""Round 25 (issue 24): a pink die under the lamp's mirror image read blank surely, status ok (thrown twin 5014 turn 1,
in three of four lights; a seen table). Its body is 56-61 lighter than the body model at 0.32-0.48 of its chroma: the
veil washed the frog into the body. Such a deep veil is flagged however sure the reading
(:data:`rig.vision.dice_hue.VEIL_DEEP_LIGHTER`, :data:`VEIL_DEEP_GREYER`)."""

import numpy as np

from rig.vision import dice_hue
from rig.vision.dice import read_dice

from .dice_twin import faces_near, frame_and_profile

VEIL = "lamp's reflection on die top"


def test_a_pink_die_washed_blank_by_the_lamp_is_flagged():
    frame, profile = frame_and_profile("t5014-turn1.webp", "t5014")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 91, 275, 14) == ["blank"]  # still read blank: its frog is not there to read
    assert reading.status == "uncertain"
    assert [r for r in reading.reasons if VEIL in r] == [f"{VEIL} at (91, 275)"]


def test_without_the_deep_veil_bound_the_turn_reads_ok(monkeypatch):
    monkeypatch.setattr(dice_hue, "VEIL_DEEP_LIGHTER", np.inf)
    frame, profile = frame_and_profile("t5014-turn1.webp", "t5014")
    assert read_dice(frame, profile, thrown=6).status == "ok"

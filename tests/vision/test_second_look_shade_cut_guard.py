"""Round 28 (issue 24): a die freed as a top cut short by a wall's shade, its guard judged as for a top freed on its size."""

import rig.vision.dice_second_look as second
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile

FACES = ["blank", "blue", "blue", "pink", "yellow", "yellow"]


def test_a_flat_die_cut_by_the_far_walls_shade_is_freed():
    # twin table 10002 (seen, fitted on), turn 14 in its own light: the pink die at (367, 112) lies flat under the far
    # wall, its top cut short by the wall's shade (read 0.55 tops: "die partly hidden or on edge"); the shade-cut rule
    # frees it, and main's guard then held the reading for a flat neighbour the net gives 0.54 for not lying flat.
    frame, profile = frame_and_profile("t10002-turn14.webp", "t10002")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.status == "ok" and reading.reasons == () and reading.faces == FACES
    assert not any(d.cocked for d in reading.dice)


def test_the_guard_for_any_other_die_holds_it(monkeypatch):
    frame, profile = frame_and_profile("t10002-turn14.webp", "t10002")
    monkeypatch.setattr(second, "WHOLE_GUARD", second.COCKED_GUARD)
    held = read_dice(frame, profile, thrown=6)
    assert held.reasons == ("die partly hidden or on edge at (367, 112)",) and held.faces == FACES


def test_without_the_shade_cut_rule_it_stays_flagged(monkeypatch):
    frame, profile = frame_and_profile("t10002-turn14.webp", "t10002")
    monkeypatch.setattr(second, "cut_by_shade", lambda obs, work: False)
    assert read_dice(frame, profile, thrown=6).reasons == ("die partly hidden or on edge at (367, 112)",)

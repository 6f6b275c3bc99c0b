"""Round 29 (issue 24): a flat die the top's aspect test calls cocked, its flank flat, freed by the second look."""

import rig.vision.dice_second_look as second
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile

FACES = ["blank", "blank", "blue", "blue", "pink", "pink"]


def test_a_flat_die_whose_top_shade_cuts_short_is_freed():
    # twin table 10004 (fit set), turn 7 in its own light: the blue die at (63, 398) lies flat by the near-left wall;
    # its lit top reads 0.77 of a square ("cocked die" by the top's aspect test), the flank tests find it flat and the
    # net reads it blue, flat at 0.72 (under FLAT_SURE: main kept the reading flagged)
    frame, profile = frame_and_profile("t10004-turn7.webp", "t10004-r29")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.status == "ok" and reading.reasons == () and reading.faces == FACES
    assert not any(d.cocked for d in reading.dice)


def test_without_the_flank_tests_verdict_it_stays_flagged(monkeypatch):
    frame, profile = frame_and_profile("t10004-turn7.webp", "t10004-r29")
    monkeypatch.setattr(second, "flank_flat", lambda d, work, dice: False)
    assert read_dice(frame, profile, thrown=6).reasons == ("cocked die at (63, 398)",)


def test_a_truly_cocked_die_the_flank_tests_miss_stays_flagged(monkeypatch):
    # twin table 10104 (report set), turn 11, lamp 700 K warmer: the yellow die at (457, 353) truly leans; the top's
    # aspect test calls it cocked, the flank tests do not, and the net gives it 0.16 for lying flat: held by
    # FLANKLESS_FLAT. Without that bound it would be freed and the reading pass as ok.
    frame, profile = frame_and_profile("t10104-turn11-3.webp", "t10104-r29")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.reasons == ("cocked die at (457, 353)",)
    assert [d.cocked for d in reading.dice if abs(d.x - 457) < 5 and abs(d.y - 353) < 5] == [True]
    monkeypatch.setattr(second, "FLANKLESS_FLAT", 0.0)
    assert read_dice(frame, profile, thrown=6).reasons == ()

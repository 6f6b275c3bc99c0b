"""The twin's tenth round (issue 24): flat dice the reader's first pass missed, read (and flagged)."""

import rig.vision.dice as dice
import rig.vision.dice_blobs as dice_blobs
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile


def test_a_die_top_the_colours_call_shade_is_read_brightened(monkeypatch):
    # twin table 8603 (seen), turn 0: the blank die at (509, 265) by the tray's right wall lies in the open, but
    # its top, corrected as its floor (which the wall's bounced light brightens), is darker than the
    # calibration's dice: the colour table called the whole top die body in shade. The reader said "die in
    # shadow or on edge" there and counted five dice. Brightened to the die body's lightness it reads blank.
    frame, profile = frame_and_profile("t8603-turn0.jpg", "t8603")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.faces == ["blank"] * 4 + ["blue", "yellow"] and reading.status == "uncertain"
    # (the flat die at (204, 332) is flagged "cocked" since round 12, its flank near the flank test's bound: a
    # turn flagged anyway)
    assert reading.reasons == ("cocked die at (305, 388)", "die top in shade read brightened at (507, 265)",
                               "cocked die at (204, 332)")
    monkeypatch.setattr(dice, "dark_dice", lambda *args: None)
    # (without dark_dice, round 15's search of a reading short of dice finds it too, by its colour: read blank)
    assert read_dice(frame, profile, thrown=6).faces == reading.faces
    monkeypatch.setattr(dice, "shade_dice", lambda *args: None)
    before = read_dice(frame, profile, thrown=6)  # main's reading
    assert before.faces == ["blank"] * 3 + ["blue", "yellow"]
    assert "die in shadow or on edge at (510, 264)" in before.reasons


def test_a_die_on_a_die_coloured_line_of_the_print_is_read(monkeypatch):
    # twin table 8001 (seen), turn 3: the blank die at (229, 251) lies across a violet stripe of the printed
    # floor, which the empty box showed as die-coloured spots; 73 % of its top on them, it was taken for the
    # print. Die-shaped and partly off the spots, it is read now, flagged.
    import rig.vision.dice_missed as missed

    frame, profile = frame_and_profile("t8001-turn3.jpg", "t8001")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.faces == ["blank"] * 3 + ["blue", "pink", "yellow"]
    # and the turn's propped die, the blank leaning on the far wall at (414, 44), shows its side face beyond its top
    # towards the wall, where a flat die there shows none (round 15's wrong-way flag; the turn was flagged before too)
    assert reading.reasons == ("die on a die-coloured spot of the box at (230, 252)",
                               "die's side face where a flat die shows none (leaning?) at (414, 44)")
    monkeypatch.setattr(missed, "OFF_SPOTS", 1.0)  # main's rule: a blob mostly on the spots is the print
    # ... and no look for a die the floor's glare hid (round 35's dice_unglared finds this one too, as its own flag)
    monkeypatch.setattr(dice, "unglared_dice", lambda *args: None)
    before = read_dice(frame, profile, thrown=6)
    assert before.faces == ["blank"] * 2 + ["blue", "pink", "yellow"]
    assert before.reasons == ("die's side face where a flat die shows none (leaning?) at (414, 44)",
                              "5 of the 6 dice thrown seen (one hidden in shade?)")


def test_two_touching_dice_with_a_frogs_unreadable_hole_are_split(monkeypatch):
    # twin table 8707 (seen), turn 1: a pink and a yellow die touch at a corner. The split's parts were judged by
    # their pixels against their rectangle; the pink frog's unreadable (white) pixels left the pink part 0.59 of
    # it, under 0.7, and the two stayed "touching dice that cannot be split". Holes filled, they are split and
    # read right (flagged for the pink die read in the frame's overall light).
    frame, profile = frame_and_profile("t8707-turn1.jpg", "t8707")
    reading = read_dice(frame, profile, thrown=6)
    assert reading.faces == ["blank"] * 3 + ["blue", "pink", "yellow"]
    assert reading.reasons == ("die top read in the frame's overall light at (263, 67)",)
    monkeypatch.setattr(dice_blobs, "solid", lambda part: int(part.sum()))  # main's measure: the part's own pixels
    monkeypatch.setattr(dice_blobs, "pack", lambda *a: None)  # (and no squares packed: round 16)
    before = read_dice(frame, profile, thrown=6)
    assert before.faces == ["blank"] * 3 + ["blue"]
    assert "touching dice that cannot be split at (255, 89)" in before.reasons


def test_a_read_back_wrong_under_the_lamps_reflection_says_to_move_the_lamp():
    # twin table 8211 (seen), the blue ritual frame read back with the fitted profile: a 3800 K lamp mirrored on
    # the top of the die at (493, 333) and on the glossy disc of the print under the die at (334, 344). The
    # refusal said "the samples are not usable"; now it names the dice and the lamp. A die read wrong without
    # the reflection at its place keeps the old advice.
    from rig.vision.calibrate_readback import UNUSABLE, readback_advice
    from rig.vision.dice import DiceReading, DieObservation

    def die(face, x, y):
        return DieObservation(face, x, y, (int(x) - 18, int(y) - 18, 36, 36), 1.0)

    dice = (die("blue", 471, 150), die("blue", 358, 153), die("blue", 214, 159), die("blue", 183, 315),
            die("blue+yellow", 493.2, 333.4), die("blank", 334.1, 344.2))
    reasons = ("yellow frog of unusual colour on die at (493, 334)", "lamp's reflection on die top at (493, 334)",
               "die under the floor's glare reads another face without it at (334, 344)")
    advice = readback_advice("blue", DiceReading(dice, "uncertain", reasons))
    assert advice == ("the lamp's reflection lies on the dice at (493, 333), (334, 344) (on the top or the floor under "
                      "it); move the lamp farther to the side or diffuse it, or move those dice")
    assert readback_advice("blue", DiceReading(dice, "uncertain", reasons[:2])) == UNUSABLE

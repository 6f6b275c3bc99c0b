"""Round 29 (issue 24): a combo die whose top is read short, one half lost with the missing part, was read as its other
half's single colour in silence. A one-colour frog no bigger than a combo's half, measured against a whole top
(``dice_combo.half_on_short_top``), is flagged unless the second look's net reads that one colour surely
(``dice_second_look.HALF_COMBO_DOUBT``): size alone also flags right one-colour dice cut short (round 28)."""

import numpy as np

import rig.vision.dice as dice
import rig.vision.dice_second_look as second
from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile, faces_near

KIND = "yellow frog maybe a combo's half on a top read short"


def test_a_blue_yellow_die_whose_blue_half_reads_floor_is_flagged():
    # twin 10103 turn 16 in its own light: the blue+yellow die at (85, 188) lies on the tray's dark print, its body and
    # blue half labelled floor; the lit piece (0.61 tops) holds the yellow half, read "yellow" with no flag. The net
    # reads it blue+yellow.
    frame, profile = frame_and_profile("t10103-turn16.webp", "t10103")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 85, 188, 15) == ["yellow"]
    assert reading.status == "uncertain"
    assert f"{KIND} on die at (94, 188)" in reading.reasons


def test_a_yellow_pink_die_whose_pink_half_lies_in_shade_is_flagged():
    # twin 10903 turn 15 in its own light: the yellow+pink die at (514, 427), its pink half in a wall's shade; the top
    # read 0.50 tops was "partly hidden", and the second look freed it as a top cut short by shade, the net reading
    # yellow at 0.93: under the bar for a frog that may be a combo's half.
    frame, profile = frame_and_profile("t10903-turn15.webp", "t10903")
    reading = read_dice(frame, profile, thrown=6)
    assert faces_near(reading, 514, 427, 15) == ["yellow"]
    assert reading.status == "uncertain"
    assert f"{KIND} on die at (514, 417)" in reading.reasons


def test_the_flag_goes_when_the_net_reads_the_one_colour_surely_and_no_combo(monkeypatch):
    # the same turn, the net made sure of the reader's yellow, its doubt on blank (as on 2D 44006's right pink dice cut
    # short): the half flag is taken off; with the same doubt on yellow+pink it stays
    def net_reads(doubt):
        def look(inputs, measures=None, model=None):
            p = np.zeros((len(inputs), len(second.STATES) + len(second.FACES)))
            p[:, 0] = 1.0
            p[:, len(second.STATES) + second.FACES.index("yellow")] = 0.95
            p[:, len(second.STATES) + second.FACES.index(doubt)] = 0.05
            return p

        return look

    frame, profile = frame_and_profile("t10903-turn15.webp", "t10903")
    monkeypatch.setattr(second, "look", net_reads("blank"))
    assert not any(KIND in r for r in read_dice(frame, profile, thrown=6).reasons)
    monkeypatch.setattr(second, "look", net_reads("yellow+pink"))
    assert any(KIND in r for r in read_dice(frame, profile, thrown=6).reasons)


def test_without_the_rule_both_read_ok(monkeypatch):
    monkeypatch.setattr(dice, "half_on_short_top", lambda *a: None)
    for frame_file, table in (("t10103-turn16.webp", "t10103"), ("t10903-turn15.webp", "t10903")):
        frame, profile = frame_and_profile(frame_file, table)
        assert read_dice(frame, profile, thrown=6).status == "ok"

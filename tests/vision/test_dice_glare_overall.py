"""Round 33 (issue 24): dice under the floor's glare read in the frame's overall light when that reading is clear and
another face (:func:`rig.vision.dice_overall.past_the_floors_glare`), still asked. Twin 11601 (tray floor, one 2710 K
lamp), thrown turn 1: two blue dice whose frog the glare's correction sank into the die body, read blank. A seen table
(round 32's fresh set)."""

import pytest

from rig.vision import dice
from rig.vision.dice import read_dice
from rig.vision.dice_overall import past_the_floors_glare

from .dice_twin import faces_near, frame_and_profile, profile_of

GLARED = "die under the floor's glare reads another face without it"


def _read(frame: str, table: str):
    frame, profile = frame_and_profile(frame, table)
    return read_dice(frame, profile, thrown=6)


def test_blue_frog_dice_under_a_warm_lamps_glare_read_blue_and_are_asked():
    reading = _read("t11601-turn1.jpg", "t11601")
    assert faces_near(reading, 318, 339, 12) == ["blue"]
    assert faces_near(reading, 222, 343, 12) == ["blue"]
    assert reading.status == "uncertain"
    assert f"{GLARED} at (318, 340)" in reading.reasons and f"{GLARED} at (222, 344)" in reading.reasons


@pytest.mark.parametrize(("frame", "table", "x", "y", "before"),
                         [("t11601-turn1.jpg", "t11601", 318, 339, "blank"),
                          ("t11601-turn1.jpg", "t11601", 222, 343, "blank")])
def test_kept_in_its_places_light_it_reads_another_face(monkeypatch, frame, table, x, y, before):
    monkeypatch.setattr(dice, "past_the_floors_glare", lambda *a: False)
    assert faces_near(_read(frame, table), x, y, 12) == [before]


def test_an_overall_reading_unclear_of_three_colours_losing_a_frog_or_before_a_frogs_size_is_known_is_not_taken():
    t = profile_of("t11601").thresholds
    size = {"blue": 0.33, "pink": 0.3, "yellow": 0.34}
    shares, none = {"blue": 0.3, "pink": 0.0, "yellow": 0.0}, {"blue": 0.0, "pink": 0.0, "yellow": 0.0}
    blank = (none, [])
    assert past_the_floors_glare((shares, ["blue"], [], 0.0), size, blank, t)  # a frog sunk into the body (11601)
    assert not past_the_floors_glare((none, [], [], 0.0), size, ({**none, "pink": 0.6}, ["pink"]), t)  # 11606, asked
    assert not past_the_floors_glare((none, [], [], 0.0), size, ({**none, "blue": 0.24}, ["blue"]), t)  # 10103
    assert not past_the_floors_glare((shares, ["blue"], ["pink"], 0.0), size, blank, t)
    assert not past_the_floors_glare((shares, ["blue", "pink", "yellow"], [], 0.0), size, blank, t)
    assert not past_the_floors_glare((shares, ["blue"], [], 0.0), {}, blank, t)  # (calibration measuring a frog's size)


def test_a_die_with_the_lamps_own_reflection_on_its_top_keeps_its_places_reading(monkeypatch):
    # twin 11501 (seen), thrown turn 19 after the lamp brightened x1.2 (lossless): a yellow die under the floor's glare
    # and the lamp's reflection on its own top reads yellow in its place's light (0.13, a small frog), blank in the
    # overall light; both guards keep its place's reading
    reading = _read("t11501-turn19-lamp12.webp", "t11501")
    assert faces_near(reading, 454, 61, 12) == ["yellow"]
    assert f"{GLARED} at (454, 62)" in reading.reasons
    monkeypatch.setattr(dice, "past_the_floors_glare", lambda *a: True)
    assert faces_near(_read("t11501-turn19-lamp12.webp", "t11501"), 454, 61, 12) == ["yellow"]
    monkeypatch.setattr(dice, "lamp_on_top", lambda *a: False)
    assert faces_near(_read("t11501-turn19-lamp12.webp", "t11501"), 454, 61, 12) == ["blank"]

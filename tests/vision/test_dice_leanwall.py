"""Rounds 35-36 (issue 24): a die leaning past 45 degrees on the tray wall, read as a flat die with the right face, is
flagged "cocked" where its own body fills the strip beyond its top's outer edge, where the empty box shows floor, and
that strip is its body in the wall's shade, ending at the wall (``dice_leanwall``); a flat die hugging the wall, its
own lit side face there, is not; nothing is judged without the empty box's picture."""

import rig.vision.dice_leanwall as lw
from rig.vision.dice import read_dice
from rig.vision.dice_leanwall import REASON

from .dice_twin import faces_near, flagged_at, frame_and_profile

LEANING = (577, 239)  # twin 11804 turn 7's blue die, leaning 57 degrees on the right wall, its read face turned 33
HUGGING = (246, 95)  # twin 11900 turn 17's blank die, flat, 0.5 mm from the top wall


def _flags_at_leaning(reading) -> list[str]:
    return [r for r in reading.reasons if r.startswith(REASON) and f"at {LEANING}" in r]


def test_a_die_leaning_past_45_degrees_on_the_wall_is_flagged(with_empty_box):
    # twin 11804 (felt floor, one 5389 K lamp), turn 7, same light: six dice read, every face right, the leaning one
    # too; `ok` on main (round 34's cockmiss kind)
    frame, profile = with_empty_box("t11804-turn7.webp", "t11804")
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "blank", "blue", "blue", "blue+yellow"]
    assert faces_near(reading, *LEANING, 10) == ["blue"]
    assert reading.status == "uncertain"
    assert _flags_at_leaning(reading)
    assert all(r.startswith(REASON) for r in reading.reasons)  # the flat dice by the walls are not flagged


def test_a_flat_die_hugging_the_wall_its_lit_side_face_beyond_its_top_is_not_flagged(with_empty_box, monkeypatch):
    # twin 11900 (one lamp), turn 17, same light: six flat dice read right, `ok` on main; the blank die at the top wall
    # shows its own side face beyond its top, die body where the empty box shows the wall's shade band: round 35's
    # strip test alone flags it (the first call), the strip lit and of the die's full colour frees it
    frame, profile = with_empty_box("t11900-turn17.webp", "t11900")
    monkeypatch.setattr(lw, "body_in_shade", lambda *args, **kwargs: True)
    assert flagged_at(read_dice(frame, profile, thrown=6), REASON) == [HUGGING]
    monkeypatch.undo()
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(d.face for d in reading.dice) == ["blank"] * 4 + ["pink"] * 2
    assert reading.status == "ok", reading.reasons


def test_nothing_judged_without_the_empty_box():
    frame, profile = frame_and_profile("t11804-turn7.webp", "t11804")
    assert not _flags_at_leaning(read_dice(frame, profile, thrown=6))


def test_a_top_that_does_not_fill_its_box_is_not_judged(with_empty_box, monkeypatch):
    frame, profile = with_empty_box("t11804-turn7.webp", "t11804")
    monkeypatch.setattr(lw, "FILLS", 1.5)  # as a flat die turned in the frame: its corners and side faces beyond the box
    assert not _flags_at_leaning(read_dice(frame, profile, thrown=6))


def test_a_strip_of_the_floors_colour_darkened_is_not_flagged(with_empty_box, monkeypatch):
    frame, profile = with_empty_box("t11804-turn7.webp", "t11804")
    monkeypatch.setattr(lw, "SHADED", (0.0, 5.0))  # as a flat die's shadow: the floor's colour darkened
    assert not _flags_at_leaning(read_dice(frame, profile, thrown=6))

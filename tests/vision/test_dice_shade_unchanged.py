"""Round 32 (issue 24): a blob of die body in shade flagged "die in shadow or on edge" on right turns where the frame
shows it as the empty box does: twin 11501's violet floor in the far wall's shade, as dark as a die body in shade, at
(456, 84) in every turn and light. Once every die thrown is read it is no die hidden there
(``dice_unchanged.as_the_empty_box``); while a die is missing, or without the empty box's picture, it still flags."""

from rig.vision.dice import read_dice

from .dice_twin import frame_and_profile

KIND = "die in shadow or on edge"


def test_the_far_walls_shade_as_the_empty_box_shows_it_is_no_flag_once_every_die_is_read(with_empty_box):
    # twin 11501 turn 0, the table's own light: six flat dice, read right
    frame, profile = with_empty_box("t11501-turn0.webp", "t11501")
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "blank", "blue", "yellow", "yellow+pink"]
    assert reading.status == "ok"


def test_it_still_flags_with_a_die_missing_or_the_count_unknown(with_empty_box):
    frame, profile = with_empty_box("t11501-turn0.webp", "t11501")
    for thrown in (7, None):
        assert any(r.startswith(f"{KIND} at (45") for r in read_dice(frame, profile, thrown=thrown).reasons)


def test_it_flags_where_the_frame_is_not_the_empty_box(with_empty_box, monkeypatch):
    import rig.vision.dice_unchanged as unchanged

    frame, profile = with_empty_box("t11501-turn0.webp", "t11501")
    monkeypatch.setattr(unchanged, "SHADE_UNCHANGED", 2.0)  # the blob's median distance is 3: changed at this bound
    assert any(r.startswith(f"{KIND} at (45") for r in read_dice(frame, profile, thrown=6).reasons)


def test_without_the_empty_boxs_picture_it_flags():
    frame, profile = frame_and_profile("t11501-turn0.webp", "t11501")
    assert any(r.startswith(f"{KIND} at (45") for r in read_dice(frame, profile, thrown=6).reasons)


def test_the_shade_below_a_truly_cocked_die_still_flags(with_empty_box):
    # twin 11404 turn 7, lamp x0.8: a blank die leaning at (416, 376), read (its top short) with the five others; its
    # side face and shade below it, a blob the empty box shows as lit floor (median distance 75), keep the flag
    frame, profile = with_empty_box("t11404-turn7-x0.8.webp", "t11404")
    assert f"{KIND} at (415, 374)" in read_dice(frame, profile, thrown=6).reasons

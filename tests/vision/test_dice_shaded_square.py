"""Round 31 (issue 24): a flat die whose lit top shade cuts short, called cocked by the top's aspect test, is freed
when its lit top joined to its own shade is one square top (``dice_shaded_square.body_a_top``) and the second look's
net reads its face surely; a truly cocked die whose joined body is more than a top keeps its flag."""

from rig.vision.dice import read_dice

from .dice_twin import faces_near, frame_and_profile


def test_a_flat_die_at_the_near_wall_its_top_cut_short_by_shade_is_no_cocked_die():
    # twin 11404 turn 16, the table's own light: six flat dice read right; the blank die at the near wall's foot
    # (211, 368) shows a lit top 0.61 of a square (aspect test: "cocked die"), its body with its shade one top
    frame, profile = frame_and_profile("t11404-turn16.webp", "t11404")
    reading = read_dice(frame, profile, thrown=6)
    assert sorted(d.face for d in reading.dice) == ["blank", "blank", "blank", "pink", "pink", "pink+blue"]
    assert reading.status == "ok"
    assert not any(d.cocked for d in reading.dice)


def test_without_the_rule_that_die_is_called_cocked(monkeypatch):
    import rig.vision.dice_shaded_square as shaded

    monkeypatch.setattr(shaded, "BODY_TOPS", 0.0)
    frame, profile = frame_and_profile("t11404-turn16.webp", "t11404")
    assert list(read_dice(frame, profile, thrown=6).reasons) == ["cocked die at (211, 368)"]


def test_a_truly_cocked_die_whose_body_is_more_than_a_top_stays_flagged(monkeypatch):
    # twin 11401 turn 4: a blank die leaning 37 degrees at (215, 292), its body with its side face square but 1.2
    # tops; the net reads it flat (0.98) and blank surely, so the body's size bound alone keeps its flag
    import rig.vision.dice_shaded_square as shaded

    frame, profile = frame_and_profile("t11401-turn4.webp", "t11401")
    reading = read_dice(frame, profile, thrown=6)
    assert list(reading.reasons) == ["cocked die at (214, 306)"]
    assert faces_near(reading, 214, 306, 10) == ["blank"]
    monkeypatch.setattr(shaded, "BODY_TOPS", 1.25)
    assert read_dice(frame, profile, thrown=6).status == "ok"
